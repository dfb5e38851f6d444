// Raw blobs (firmware, shellcode, memory dumps) → BinaryImage, when the caller says what CPU runs them and
// where they load: one executable section covering the whole file at `base`, entered at `base`.
import type { Architecture, BinaryIdentity } from '../../contracts/result.js';
import { FormatError } from './errors.js';
import { UNKNOWN_SECURITY, type BinaryImage } from './image.js';

/** What the caller knows of the blob's CPU; bits and byte order stay null when not given. */
export interface RawTarget {
  architecture: Architecture;
  bits?: 32 | 64 | null;
  endianness?: 'little' | 'big' | null;
}

export function parseRaw(bytes: Uint8Array, base: number, target: RawTarget): BinaryImage {
  if (bytes.length === 0) throw new FormatError('raw', 'truncated', 'empty blob');
  // Addresses are numbers throughout BinaryImage: the whole blob must stay below 2^53.
  if (!Number.isSafeInteger(base) || base < 0 || !Number.isSafeInteger(base + bytes.length)) {
    throw new FormatError('raw', 'bad-header', `load address ${base} is not a usable address`);
  }
  const identity: BinaryIdentity = {
    format: 'raw',
    architecture: target.architecture,
    bits: target.bits ?? null,
    endianness: target.endianness ?? null,
    platform: 'unknown',
    binaryType: 'raw',
    dynamic: false,
    entryPoint: base,
    baseAddress: base,
    debug: false,
  };
  return {
    identity,
    bytes,
    sections: [
      {
        name: 'raw',
        vaddr: base,
        size: bytes.length,
        fileOffset: 0,
        fileSize: bytes.length,
        read: true,
        write: true,
        exec: true,
      },
    ],
    segments: [],
    symbols: [],
    imports: [],
    exports: [],
    libraries: [],
    entryPoints: [{ vaddr: base, kind: 'entry' }],
    unwind: [],
    pointers: [],
    // Nothing is known of a blob's mitigations; the booleans say "not shown", the rest "not applicable".
    security: { ...UNKNOWN_SECURITY },
    debug: { dwarf: false, dwarfSections: [], buildId: null, pdbPath: null, pdbGuid: null, uuid: null },
    signed: false,
    overlay: null,
    diagnostics: [],
  };
}
