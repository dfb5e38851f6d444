import type { Static } from '@sinclair/typebox';
import { modelId, type CollectionBinaryResponse } from '../contracts/index.js';
import { OFFICIAL_ROLES, type CollectionBinaryRow, type CollectionWithOwner } from '../store/index.js';

// Row → wire pieces the /v2 and /v3 collection and search views share.

export const iso = (ms: number) => new Date(ms).toISOString();

/** A collection's model on the wire: id 0 and name '' when it has none (an empty /v3-created one). */
export const collectionModel = (c: Pick<CollectionWithOwner, 'model_name'>) => ({
  model_id: c.model_name === null ? 0 : modelId(c.model_name),
  model_name: c.model_name ?? '',
});

export const isOfficial = (c: Pick<CollectionWithOwner, 'owner_role'>) => OFFICIAL_ROLES.includes(c.owner_role);

/** The reference's CollectionBinaryResponse, which /v3 calls Binary. */
export const collectionBinary = (b: CollectionBinaryRow): Static<typeof CollectionBinaryResponse> => ({
  analysis_id: b.analysis_id,
  binary_id: b.binary_id,
  binary_name: b.binary_name,
  owner_id: b.owner_id,
  sha_256_hash: b.sha256,
  created_at: iso(b.created_at),
  is_system_analysis: b.owner_role === 'SYSTEM',
});

/** Tag names grouped by the id of what carries them, in one pass (rows come sorted by name). */
export function namesBy<K extends string>(rows: ({ name: string } & Record<K, number>)[], key: K) {
  const out = new Map<number, string[]>();
  for (const r of rows) {
    const list = out.get(r[key]);
    if (list) list.push(r.name);
    else out.set(r[key], [r.name]);
  }
  return out;
}
