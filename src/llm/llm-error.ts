/**
 * Why asking the model failed:
 * - `timeout`: no full answer within the call's time-out;
 * - `aborted`: the caller's signal ended the call;
 * - `unreachable`: no HTTP answer at all (refused, reset, DNS);
 * - `http-status`: a non-2xx answer;
 * - `malformed-answer`: an answer that is not what was asked for (not the API's JSON, too big, not the
 *   strict JSON a use asked for);
 * - `unavailable`: the configured kind of model cannot run here (node-llama-cpp or its binary absent);
 * - `model-load`: the GGUF file is missing or llama.cpp refused it;
 * - `generation`: the loaded local model failed while answering.
 */
export type LlmFailure =
  | 'timeout'
  | 'aborted'
  | 'unreachable'
  | 'http-status'
  | 'malformed-answer'
  | 'unavailable'
  | 'model-load'
  | 'generation';

/**
 * A failed model call. `permanent` says whether asking again could help (as jobs/ reads it for any error):
 * a time-out, an outage or a 429/5xx may pass; a missing package, a refused key or a model that cannot
 * load will not.
 */
export class LlmError extends Error {
  override name = 'LlmError';

  constructor(
    readonly failure: LlmFailure,
    message: string,
    readonly permanent: boolean,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}
