// Firmware unpacking (issue 14): carving, one reader per container in formats/, recursion, and the one
// confined output every write goes through. Pure: the job supplies the writer and the clock.
export { FIRMWARE_FORMATS } from './formats/index.js';
export {
  ExtractionOutput,
  confine,
  type LinkRecord,
  type OutputLimits,
  type OutputWriter,
  type Problem,
} from './output.js';
export {
  fileType,
  unpackImage,
  type ChunkRecord,
  type ExtractionReport,
  type FileRecord,
  type UnknownRange,
  type UnpackOptions,
} from './unpack.js';
