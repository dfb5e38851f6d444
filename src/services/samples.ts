import type { BinaryIdentity } from '../contracts/index.js';
import type { Store } from '../store/index.js';

/** What identification said of a stored sample at upload (format, architecture, platform …). */
export async function sampleIdentity(store: Store, sha256: string): Promise<BinaryIdentity | undefined> {
  const s = await store.samples.get(sha256);
  return s ? (JSON.parse(s.identity) as BinaryIdentity) : undefined;
}

/**
 * The debug file a `debug_hash` names, when `userId` (the analysis's submitter) uploaded it. Any other value is
 * kept as the analysis's label only (clients send their own identifiers there); the job log says it was not used.
 */
export async function debugSample(
  store: Store,
  userId: number,
  hash: string | null | undefined,
): Promise<string | null> {
  const sha256 = hash?.toLowerCase();
  if (!sha256 || !/^[0-9a-f]{64}$/.test(sha256)) return null;
  return (await store.samples.uploadedBy(userId, sha256)) ? sha256 : null;
}
