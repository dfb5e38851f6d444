import { setImmediate as yieldToLoop } from 'node:timers/promises';
import type { IndexFilter, IndexViewer, Neighbour, SimilarityIndex } from '../../store/similarity-index.js';

/** Queries per index round trip: progress is reported and cancellation checked between them. */
const CHUNK = 64;

export class RunCancelled extends Error {
  override name = 'RunCancelled';
}

export interface NearestSearch {
  functionIds: number[];
  k: number;
  minSimilarity: number;
  viewer: IndexViewer;
  filter: IndexFilter;
  /** Called with the share done (0..1) after each chunk; false = the run was cancelled. */
  onProgress: (done: number) => Promise<boolean>;
}

/** Each function's nearest visible functions (functions without a stored vector get none). */
export async function nearestInChunks(index: SimilarityIndex, s: NearestSearch): Promise<Map<number, Neighbour[]>> {
  const vectors = await index.vectors(s.functionIds);
  const ids = s.functionIds.filter((id) => vectors.has(id));
  const out = new Map<number, Neighbour[]>(s.functionIds.map((id) => [id, []]));
  for (let i = 0; i < ids.length; i += CHUNK) {
    const chunk = ids.slice(i, i + CHUNK);
    const answers = await index.nearestMany(
      chunk.map((id) => ({
        vector: vectors.get(id)!,
        k: s.k,
        minSimilarity: s.minSimilarity,
        viewer: s.viewer,
        filter: s.filter,
      })),
    );
    chunk.forEach((id, j) => out.set(id, answers[j] ?? []));
    if (!(await s.onProgress((i + chunk.length) / ids.length))) throw new RunCancelled();
    await yieldToLoop();
  }
  return out;
}
