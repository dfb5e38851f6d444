// The analysis engine: pure functions from a binary's bytes to its AnalysisResult (format identification,
// hashes, entropy, model choice). No I/O, clock or environment; may import only src/shared and src/contracts.
export { identify, rawIdentity } from './formats/index.js';
export { hashBytes, shannonEntropy } from './hashes.js';
export { pickModel } from './models.js';
export { applyBinaryConfig } from './binary-config.js';
export type { BinaryConfig } from './binary-config.js';
export {
  IDENTIFY_PREFIX,
  STAGE_NAMES,
  analyze,
  analyzeDecompilation,
  analyzeTypes,
  NoSuchFunction,
} from './pipeline.js';
export type { Decompilation, DecompiledFunction } from './decompile/index.js';
export { functionSummary, placeholderForm } from './decompile/index.js';
export type { AnalyzeOptions, ProgressCallback, StageName } from './pipeline.js';
export { decodersFor, recoverBinaryFunctions } from './recover-binary.js';
export { MAX_RENDERED_INSTRUCTIONS, renderBlocks } from './render-blocks.js';
export type { RenderBlocksRequest } from './render-blocks.js';
export type { ClientSymbols, RecoverBinaryOptions } from './recover-binary.js';
export {
  DEFAULT_LIMITS,
  behavioursOf,
  dumpContents,
  dynamicReport,
  emulatorAvailable,
  EmulationRefused,
  EmulatorUnavailable,
  runLinuxElf,
  runProgram,
  runWindowsPe,
  windowsApiHandled,
  type Behaviour,
  type DynamicReport,
  type EmulationEvent,
  type ProcessRecord,
  type EmulationRun,
  type LinuxRunOptions,
  type RunLimits,
  type RunStop,
  type Sysroot,
} from './emulate/index.js';
export {
  ExtractionOutput,
  FIRMWARE_FORMATS,
  fileType,
  unpackImage,
  type ChunkRecord,
  type ExtractionReport,
  type FileRecord,
  type LinkRecord,
  type OutputWriter,
  type Problem,
  type UnknownRange,
} from './firmware/index.js';
