// API schemas (TypeBox): the single source of the published OpenAPI document and of request validation.
// Wire names and shapes follow ../shared/api/reference-v3.67.0.openapi.json. Imports only shared/.
export * from './envelope.js';
export * from './enums.js';
export * from './tuning.js';
export * from './analyses.js';
export * from './stored-config.js';
export * from './result-document.js';
export * from './comments.js';
export * from './platform.js';
export * from './models.js';
export * from './uploads.js';
export * from './result.js';
export * from './jobs.js';
export * from './functions.js';
export * from './binaries.js';
export * from './collections.js';
export * from './search.js';
export * from './v3.js';
export * from './understanding.js';
export * from './dynamic-execution.js';
export * from './function-names.js';
export * from './capabilities.js';
export * from './matching.js';
export * from './data-types.js';
export * from './v3-data-types.js';
export * from './ai-decompilation.js';
export * from './firmware.js';
