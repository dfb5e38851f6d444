import type { BinaryIdentity } from '../contracts/index.js';
import type { Store } from '../store/index.js';

/** What identification said of a stored sample at upload (format, architecture, platform …). */
export async function sampleIdentity(store: Store, sha256: string): Promise<BinaryIdentity | undefined> {
  const s = await store.samples.get(sha256);
  return s ? (JSON.parse(s.identity) as BinaryIdentity) : undefined;
}
