import type { BlobStore } from '../blobs/index.js';
import type { Store } from '../store/index.js';

/** A check that has not answered by then counts as failed: readiness must answer even when a backend hangs. */
const CHECK_TIMEOUT_MS = 2000;

export interface Readiness {
  ready: boolean;
  checks: { database: string; blobs: string };
}

async function probe(check: () => Promise<unknown>): Promise<string> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${CHECK_TIMEOUT_MS} ms`)), CHECK_TIMEOUT_MS);
  });
  try {
    await Promise.race([check(), timeout]);
    return 'ok';
  } catch (err) {
    return `error: ${(err as Error).message}`;
  } finally {
    clearTimeout(timer);
  }
}

/** Readiness (can this node serve requests?), apart from liveness (is the process up?). */
export class HealthService {
  constructor(
    private readonly store: Store,
    private readonly blobs: BlobStore,
  ) {}

  async readiness(): Promise<Readiness> {
    const [database, blobs] = await Promise.all([probe(() => this.store.ping()), probe(() => this.blobs.check())]);
    return { ready: database === 'ok' && blobs === 'ok', checks: { database, blobs } };
  }
}
