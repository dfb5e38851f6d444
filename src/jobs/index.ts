// Durable jobs: the runner that claims leased jobs from the store's queue and runs their handlers, the
// worker-thread pools that keep analyses (within their limits) and on-request engine work off the event
// loop, and handlers/ — the only place the engine meets I/O. Imports shared, contracts, engine, store and blobs.
export * from './failures.js';
export * from './runner.js';
export * from './analysis-pool.js';
export * from './request-pool.js';
export * from './handlers/analysis.js';
export * from './handlers/similarity-run.js';
export * from './handlers/data-types.js';
export * from './handlers/decompile.js';
export * from './handlers/dynamic-execution.js';
export * from './handlers/firmware.js';
