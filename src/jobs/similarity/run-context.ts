import type { Store } from '../../store/index.js';
import type { IndexFilter, IndexViewer, SimilarityIndex } from '../../store/similarity-index.js';

/** What a matching or naming run works with. */
export interface RunContext {
  store: Store;
  index: SimilarityIndex;
  viewer: IndexViewer;
  /** Reports the share done (0..1); false when the run was cancelled meanwhile. */
  progress: (done: number) => Promise<boolean>;
}

/** `{id, teamId}` as the store's visibility rules name the viewer. */
export const storeViewer = (v: IndexViewer) => ({ id: v.userId, teamId: v.teamId });

/**
 * Restricts binaryIds to the binaries of the visible collections asked for (both lists must match). null:
 * the collections asked for hold nothing the viewer may see, so no candidate can pass.
 */
export async function resolveCollections(
  ctx: RunContext,
  filter: IndexFilter & { collectionIds?: number[] },
): Promise<IndexFilter | null> {
  const { collectionIds, ...rest } = filter;
  if (!collectionIds?.length) return rest;
  const inCollections = await ctx.store.collections.binaryIds(collectionIds, storeViewer(ctx.viewer));
  const binaryIds = rest.binaryIds?.length ? inCollections.filter((b) => rest.binaryIds!.includes(b)) : inCollections;
  return binaryIds.length ? { ...rest, binaryIds } : null;
}
