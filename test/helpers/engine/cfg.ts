// Test support for src/engine/cfg: a BinaryImage built in memory from a
// few code and data sections, so a recovery rule can be shown on a dozen hand-assembled instructions.
import type { Architecture, BinaryFormat } from '../../../src/contracts/result.js';
import { createDecoder } from '../../../src/engine/disasm/index.js';
import { isaProfile } from '../../../src/engine/isa/index.js';
import type { BinaryImage, EntryPoint, PointerRef, SectionInfo } from '../../../src/engine/formats/image.js';
import { UNKNOWN_SECURITY } from '../../../src/engine/formats/image.js';
import { recoverFunctions } from '../../../src/engine/cfg/recover.js';
import type { FunctionGraph } from '../../../src/engine/cfg/types.js';

export interface FixtureSection {
  name: string;
  vaddr: number;
  bytes: number[] | Uint8Array;
  exec?: boolean;
}

export interface FixtureSpec {
  arch: Architecture;
  format?: BinaryFormat;
  sections: FixtureSection[];
  entryPoints?: EntryPoint[];
  pointers?: PointerRef[];
  symbols?: BinaryImage['symbols'];
  unwind?: BinaryImage['unwind'];
  imports?: BinaryImage['imports'];
}

/** Little-endian bytes of 16-bit halfwords (Thumb) or 32-bit words (A32, MIPS). */
export const halfwords = (...hw: number[]): number[] => hw.flatMap((h) => [h & 0xff, (h >>> 8) & 0xff]);
export const words = (...w: number[]): number[] =>
  w.flatMap((x) => [x & 0xff, (x >>> 8) & 0xff, (x >>> 16) & 0xff, (x >>> 24) & 0xff]);

/** Sections laid out one after another in the file, each at its own virtual address. */
export function fixtureImage(spec: FixtureSpec): BinaryImage {
  const total = spec.sections.reduce((n, s) => n + s.bytes.length, 0);
  const bytes = new Uint8Array(total);
  const sections: SectionInfo[] = [];
  let off = 0;
  for (const s of spec.sections) {
    bytes.set(s.bytes, off);
    const size = s.bytes.length;
    sections.push({
      name: s.name,
      vaddr: s.vaddr,
      size,
      fileOffset: off,
      fileSize: size,
      read: true,
      write: !s.exec,
      exec: !!s.exec,
    });
    off += size;
  }
  const bits = spec.arch === 'x86_64' || spec.arch === 'arm64' ? 64 : 32;
  return {
    identity: {
      format: spec.format ?? 'elf',
      architecture: spec.arch,
      bits,
      endianness: 'little',
      platform: 'linux',
      binaryType: 'executable',
      dynamic: true,
      entryPoint: spec.entryPoints?.[0]?.vaddr ?? null,
      baseAddress: 0,
      debug: false,
    },
    bytes,
    sections,
    segments: [],
    symbols: spec.symbols ?? [],
    imports: spec.imports ?? [],
    exports: [],
    libraries: [],
    entryPoints: spec.entryPoints ?? [],
    unwind: spec.unwind ?? [],
    pointers: spec.pointers ?? [],
    security: { ...UNKNOWN_SECURITY },
    debug: { dwarf: false, dwarfSections: [], buildId: null, pdbPath: null, pdbGuid: null, uuid: null },
    signed: false,
    overlay: null,
    diagnostics: [],
  };
}

/** Recovery on a fixture, with the decoders its architecture needs (ARM: Thumb by default). */
export async function recoverFixture(spec: FixtureSpec): Promise<FunctionGraph> {
  const image = fixtureImage(spec);
  const isa = isaProfile(spec.arch)!;
  const decoder = await createDecoder(isa.modeFor('little'));
  if (!isa.thumb) return recoverFunctions(image, { isa, decoder });
  return recoverFunctions(image, { isa, decoder, thumbDecoder: await createDecoder('thumb'), thumbByDefault: true });
}

export const starts = (g: FunctionGraph): number[] => g.functions.map((f) => f.start);
