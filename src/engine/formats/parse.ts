import { FormatError } from './errors.js';
import { identify } from './identify.js';
import type { BinaryImage } from './image.js';
import { parseRaw, type RawTarget } from './raw.js';
import { FORMATS } from './registry.js';

export interface RawLoad {
  /** What the caller asserts of a blob with no container: its CPU and load address. */
  target: RawTarget;
  base: number;
}

/** Parses any supported container; a raw blob only when the caller says what it holds. */
export function parseBinary(bytes: Uint8Array, raw?: RawLoad): BinaryImage {
  const id = identify(bytes.subarray(0, 64 * 1024), bytes.length);
  const format = FORMATS.find((f) => f.name === id.format);
  if (format) return format.parse(bytes);
  if (!raw)
    throw new FormatError('raw', 'bad-magic', 'not ELF, PE or Mach-O, and no ISA or base was given for a raw blob');
  return parseRaw(bytes, raw.base, raw.target);
}
