// Seed files: synthetic samples of every format (always there) and files of the shared corpus (when
// present). Mach-O has no corpus files, so its seeds are built: thin 32/64-bit, both byte orders, LC_MAIN
// and LC_UNIXTHREAD, with DWARF, and a universal file.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import type { BinaryFormat } from '../../src/contracts/result.js';
import { identify } from '../../src/engine/index.js';
import { sampleProgram, type ProgramSpec } from '../../test/helpers/engine/sample-program.js';
import { fatMachO } from '../../test/helpers/engine/formats.js';
import { syntheticMachO } from '../../test/helpers/engine/macho.js';
import { syntheticPe } from '../../test/helpers/engine/pe.js';
import { mapFields, type FieldMap } from './field-map.js';

export interface Seed {
  name: string;
  /** What it is: an executable format (of identify), or a firmware image (firmware-seeds.ts). */
  format: BinaryFormat | 'firmware';
  bytes: Uint8Array;
  map: FieldMap;
}

const seed = (name: string, bytes: Uint8Array): Seed => ({
  name,
  format: identify(bytes.subarray(0, 64 * 1024), bytes.length).format,
  bytes,
  map: mapFields(bytes),
});

const ELF_SPECS: ProgramSpec[] = [
  { bits: 64, little: true, machine: 62 },
  { bits: 32, little: true, machine: 3, bindNow: true },
  { bits: 64, little: true, machine: 183 },
  { bits: 32, little: true, machine: 40, thumb: true },
  { bits: 32, little: false, machine: 20 },
];
const X86_64 = 0x01000007;
const ARM64 = 0x0100000c;

export function syntheticSeeds(): Seed[] {
  const elves = ELF_SPECS.map((s) => seed(`synthetic-elf${s.bits}-m${s.machine}`, sampleProgram(s)));
  const pes = ([32, 64] as const).map((bits) => seed(`synthetic-pe${bits}`, syntheticPe(bits).bytes));
  const thin = syntheticMachO({ bits: 64, cputype: X86_64 }).bytes;
  const arm = syntheticMachO({ bits: 64, cputype: ARM64, entry: 'thread', dwarf: true }).bytes;
  const machos = [
    seed('synthetic-macho64-x86_64', thin),
    seed('synthetic-macho64-arm64-thread', arm),
    seed('synthetic-macho32-i386', syntheticMachO({ bits: 32, cputype: 7 }).bytes),
    seed('synthetic-macho32-ppc-be', syntheticMachO({ bits: 32, little: false, cputype: 18, entry: 'thread' }).bytes),
    seed(
      'synthetic-macho-fat',
      fatMachO([
        { cputype: X86_64, image: thin },
        { cputype: ARM64, image: arm },
      ]),
    ),
  ];
  // Raw blobs: the containers with their magic wiped, so identification leaves them to the raw loader.
  const raws = [...elves.slice(0, 2), pes[1]!].map((s) => {
    const bytes = s.bytes.slice();
    bytes.fill(0, 0, 4);
    return seed(`raw-${s.name}`, bytes);
  });
  return [...elves, ...pes, ...machos, ...raws];
}

/** Corpus files up to `maxBytes`, sorted by name so a run's seed list (and so its inputs) is reproducible. */
export function corpusSeeds(dir: string, maxBytes: number): Seed[] {
  const files: string[] = [];
  const walk = (d: string): void => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const p = path.join(d, e.name);
      if (e.isDirectory()) walk(p);
      else if (e.isFile() && statSync(p).size <= maxBytes) files.push(p);
    }
  };
  walk(path.join(dir, 'bin'));
  return files
    .sort()
    .map((f) => seed(path.relative(dir, f), new Uint8Array(readFileSync(f))))
    .filter((s) => s.format !== 'raw');
}
