import { setTimeout as sleep } from 'node:timers/promises';
import type { Store } from '../store/index.js';
import { visibleAnalysis, type Caller } from './access.js';

/** How often a watched analysis is read again: its stages last hundreds of milliseconds to minutes. */
const POLL_MS = 500;
/** A comment line this often keeps proxies from closing a quiet stream. */
const KEEP_ALIVE_MS = 15_000;

export type ProgressEvent =
  | { event: 'stage'; data: { stage: string; status: string; timestamp: string; progress?: number } }
  | { event: 'log'; data: { timestamp: string; line: string } }
  | { event: 'status'; data: { analysis_id: number; analysis_status: string } }
  | { event: 'keep-alive'; data: null };

const FINAL = new Set(['Complete', 'Error']);

/**
 * An analysis's progress as it happens, for a server-sent-events stream: every stage event and log line
 * (those already written first), and its status whenever it changes, until it is Complete or in Error. Read
 * from the store, so it follows analyses that run on other nodes too.
 */
export class AnalysisProgressService {
  constructor(private readonly store: Store) {}

  /** Checks the caller may see the analysis, then yields its events until it ends or `signal` aborts. */
  async watch(caller: Caller, id: number, signal: AbortSignal): Promise<AsyncGenerator<ProgressEvent>> {
    await visibleAnalysis(this.store, caller, id);
    return this.events(caller, id, signal);
  }

  private async *events(caller: Caller, id: number, signal: AbortSignal): AsyncGenerator<ProgressEvent> {
    let stages = 0;
    let logs = 0;
    let status = '';
    let quietSince = Date.now();
    while (!signal.aborted) {
      const a = await visibleAnalysis(this.store, caller, id);
      const [stageRows, logRows] = await Promise.all([this.store.events.stages(id), this.store.events.logs(id)]);
      // Stage events and log lines in the order they were written (each table keeps its own order).
      const written = [
        ...stageRows.slice(stages).map((r) => ({
          at: r.created_at,
          e: {
            event: 'stage',
            data: {
              stage: r.stage,
              status: r.status,
              timestamp: new Date(r.created_at).toISOString(),
              ...(r.progress === null ? {} : { progress: r.progress }),
            },
          } satisfies ProgressEvent,
        })),
        ...logRows.slice(logs).map((r) => ({
          at: r.created_at,
          e: {
            event: 'log',
            data: { timestamp: new Date(r.created_at).toISOString(), line: r.line },
          } satisfies ProgressEvent,
        })),
      ];
      const out: ProgressEvent[] = written.sort((x, y) => x.at - y.at).map((w) => w.e);
      if (a.status !== status) out.push({ event: 'status', data: { analysis_id: id, analysis_status: a.status } });
      stages = stageRows.length;
      logs = logRows.length;
      status = a.status;
      if (out.length > 0) quietSince = Date.now();
      else if (Date.now() - quietSince >= KEEP_ALIVE_MS) {
        quietSince = Date.now();
        out.push({ event: 'keep-alive', data: null });
      }
      yield* out;
      if (FINAL.has(status)) return;
      await sleep(POLL_MS, undefined, { signal }).catch(() => undefined);
    }
  }
}
