// Application services (use cases): authorization, validation beyond schemas, and mapping between store
// rows and wire shapes. The HTTP layer and the CLI call these. Imports shared, contracts, store, blobs and
// the engine's header identification (bounded, sub-millisecond work on a 64 KiB prefix).
export * from './access.js';
export * from './users.js';
export * from './uploads.js';
export * from './analyses.js';
export * from './analysis-results.js';
export * from './analysis-progress.js';
export * from './comments.js';
export * from './functions.js';
export * from './function-blocks.js';
export * from './binaries.js';
export * from './related-binaries.js';
export * from './function-matching.js';
export * from './unstrip.js';
export * from './function-names.js';
export * from './collections.js';
export * from './collections-v2.js';
export * from './collections-v3.js';
export * from './search.js';
export * from './paging.js';
export * from './understanding.js';
export * from './dynamic-execution.js';
export * from './health.js';
export * from './data-types.js';
export * from './analysis-data-types.js';
export * from './function-signatures.js';
export * from './ai-decompilation.js';
export * from './firmware.js';
