// Binaries found inside another (the dumps and dropped executables of an emulated run, the files of a
// firmware image): each becomes a sample its finder may analyse and a child binary of the parent, and one
// the engine has a model for is analysed at once, with the parent's scope.
import {
  ANALYSIS_JOB_KIND,
  defaultAnalysisConfig,
  encodeAnalysisConfig,
  type AnalysisJobPayload,
} from '../contracts/index.js';
import { identify } from '../engine/formats/identify.js';
import { pickModel } from '../engine/models.js';
import type { NewChild, Store } from '../store/index.js';

/** Where the children were found, and for whom. */
export interface Finder {
  binaryId: number;
  userId: number;
  /** The scope the children's analyses get: the parent's. */
  scope: string;
  origin: NewChild['origin'];
  /** Attempts each child's analysis job gets: the finding job's. */
  maxAttempts: number;
}

/** A file found inside the parent, already in the blob store. */
export interface FoundBinary {
  sha256: string;
  size: number;
  /** Its first 64 KiB (or all of it), for identification. */
  head: Uint8Array;
  name: string;
  location: string;
}

/** Records the found files as the parent's children; returns how many got an analysis of their own. */
export async function adoptChildren(store: Store, finder: Finder, found: FoundBinary[]): Promise<number> {
  let analysed = 0;
  for (const f of found) {
    const identity = identify(f.head, f.size);
    await store.samples.recordUpload(
      { sha256: f.sha256, size: f.size, identity: JSON.stringify(identity) },
      { user_id: finder.userId, file_type: 'BINARY', filename: f.name },
    );
    const binaryId = await store.binaryRelations.addChild({
      parentBinaryId: finder.binaryId,
      userId: finder.userId,
      origin: finder.origin,
      sha256: f.sha256,
      name: f.name,
      location: f.location,
    });
    const model = pickModel(identity);
    // A job that runs again finds the analyses it started before.
    if (!model || (await store.analyses.byBinaryId(binaryId))) continue;
    const payload: AnalysisJobPayload = { debugSha256: null };
    await store.analyses.create(
      {
        userId: finder.userId,
        sha256: f.sha256,
        binaryName: f.name,
        binarySize: f.size,
        scope: finder.scope,
        modelName: model,
        baseAddress: identity.baseAddress,
        debugHash: null,
        config: encodeAnalysisConfig(defaultAnalysisConfig()),
        tags: [],
        binaryId,
      },
      { kind: ANALYSIS_JOB_KIND, payload, maxAttempts: finder.maxAttempts },
    );
    analysed++;
  }
  return analysed;
}
