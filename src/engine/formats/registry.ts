// The container formats the engine reads, in the order their magic is tried. A format is its folder —
// `identify.ts` (magic, and the identity from a file's prefix) and `index.ts` (the whole file parsed into a
// BinaryImage) — and one line here; identification and parsing dispatch on this list alone.
import type { BinaryFormat, BinaryIdentity } from '../../contracts/result.js';
import { parseElf } from './elf/index.js';
import { identifyElf, isElf } from './elf/identify.js';
import type { BinaryImage } from './image.js';
import { parseMachO } from './macho/index.js';
import { identifyMachO, isMachO } from './macho/identify.js';
import { parsePe } from './pe/index.js';
import { identifyPe, isMz } from './pe/identify.js';

export interface ContainerFormat {
  name: Exclude<BinaryFormat, 'raw'>;
  /** Whether a prefix of the file carries the format's magic. */
  matches(head: Uint8Array): boolean;
  /** The identity from a prefix; null when the header is too damaged or truncated to read. */
  identify(head: Uint8Array): BinaryIdentity | null;
  parse(bytes: Uint8Array): BinaryImage;
}

export const FORMATS: readonly ContainerFormat[] = [
  { name: 'elf', matches: isElf, identify: identifyElf, parse: parseElf },
  { name: 'pe', matches: isMz, identify: identifyPe, parse: parsePe },
  { name: 'macho', matches: isMachO, identify: identifyMachO, parse: parseMachO },
];
