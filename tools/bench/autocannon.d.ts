// autocannon 9 ships no types (and @types/autocannon is not a dependency). The part of its API bench:api uses.
declare module 'autocannon' {
  export interface Options {
    url: string;
    connections?: number;
    /** Seconds. */
    duration?: number;
    headers?: Record<string, string>;
    title?: string;
    /** Seconds to wait for a response. */
    timeout?: number;
  }

  /** An hdr-histogram-percentiles-obj summary. */
  export interface Histogram {
    average: number;
    max: number;
    p50: number;
    p99: number;
  }

  export interface Result {
    latency: Histogram;
    requests: Histogram;
    /** Seconds. */
    duration: number;
    errors: number;
    timeouts: number;
    non2xx: number;
  }

  export interface Instance {
    stop(): void;
  }

  function autocannon(options: Options): Promise<Result>;
  function autocannon(options: Options, callback: (err: Error | null, result: Result) => void): Instance;
  export default autocannon;
}
