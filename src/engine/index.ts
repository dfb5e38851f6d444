// The analysis engine: pure functions from a binary's bytes to its AnalysisResult (format identification,
// hashes, entropy, model choice). No I/O, clock or environment; may import only src/shared and src/contracts.
export { identify, rawIdentity } from './formats/index.js';
export { hashBytes, shannonEntropy } from './hashes.js';
export { pickModel } from './models.js';
export { IDENTIFY_PREFIX, analyze, applyBinaryConfig } from './pipeline.js';
export type { AnalyzeOptions, BinaryConfig, ProgressCallback } from './pipeline.js';
export { decodersFor, recoverBinaryFunctions } from './recover-binary.js';
export type { ClientSymbols, RecoverBinaryOptions } from './recover-binary.js';
