// The fuzz targets: one per container parser, raw loading through parseBinary, the whole pipeline, and the
// firmware unpacker (firmware-target.ts). `runTarget` executes inside the sandbox worker; the rest is shared
// with the supervisor.
import type { BinaryConfig } from '../../src/engine/index.js';
import { analyze } from '../../src/engine/index.js';
import { parseBinary, type RawLoad } from '../../src/engine/formats/parse.js';
import { FORMATS } from '../../src/engine/formats/registry.js';
import { imageFaults } from './image-faults.js';
import { loadDemangler } from '../../src/jobs/demangler.js';
import { mutateImage } from './firmware-mutators.js';
import { FIRMWARE_PASSWORDS, FIRMWARE_TIMEOUT_MS, firmwareFaults } from './firmware-target.js';
import type { FieldMap } from './field-map.js';
import { mutate, type Mutant, type Random } from './mutators.js';

export const TARGETS = ['elf', 'pe', 'macho', 'raw', 'analyze', 'firmware'] as const;
export type TargetName = (typeof TARGETS)[number];

/**
 * What a raw blob is claimed to be. The last load address leaves 4 KiB below 2^53, so any blob longer
 * than that must be refused (addresses are numbers), not wrapped.
 */
export const RAW_LOADS: RawLoad[] = [
  { target: { architecture: 'x86_64', bits: 64, endianness: 'little' }, base: 0x400000 },
  { target: { architecture: 'x86', bits: 32, endianness: 'little' }, base: 0 },
  { target: { architecture: 'arm', bits: 32, endianness: 'little' }, base: 0x8000 },
  { target: { architecture: 'arm64', bits: 64, endianness: 'little' }, base: 0xffff_0000 },
  { target: { architecture: 'mips', bits: 32, endianness: 'big' }, base: 0xbfc0_0000 },
  { target: { architecture: 'x86_64' }, base: 2 ** 53 - 0x1000 },
];

/** Submitters' configs for the pipeline: none, and one per ISA (raw blobs are analyzed only with one). */
export const BINARY_CONFIGS: (BinaryConfig | null)[] = [
  null,
  { isa: 'x86_64', platform: 'linux', file_format: 'blob' },
  { isa: 'x86', platform: 'windows' },
  { isa: 'arm', platform: 'android' },
];

export const variantCount = (target: TargetName): number =>
  target === 'raw'
    ? RAW_LOADS.length
    : target === 'analyze'
      ? BINARY_CONFIGS.length
      : target === 'firmware'
        ? FIRMWARE_PASSWORDS.length
        : 1;

/**
 * Which seeds a target mutates: a parser and the unpacker their own format; raw loading and the pipeline
 * every executable.
 */
export const takesSeed = (target: TargetName, format: string): boolean =>
  ((target === 'raw' || target === 'analyze') && format !== 'firmware') || target === format;

/** How a target's seeds are damaged: executables field by field, firmware images by bytes and blocks. */
export const mutatorFor = (target: TargetName): ((seed: Uint8Array, map: FieldMap, rand: Random) => Mutant) =>
  target === 'firmware' ? mutateImage : mutate;

/**
 * Wall-clock limit per input. Parsing is bounded by design well under 1 s (the hostile tests' limit); the
 * pipeline decodes and recovers code, ~1 s per MiB on this machine, so it gets 20 s plus 10 s per MiB:
 * a limit only a hang or a superlinear stage reaches even with another job sharing the core.
 */
export const timeoutMs = (target: TargetName, size: number): number =>
  target === 'analyze'
    ? 20_000 + Math.ceil((size / 2 ** 20) * 10_000)
    : target === 'firmware'
      ? FIRMWARE_TIMEOUT_MS
      : 5_000;

/**
 * Runs one input; returns its faults: for a parse, the image's broken invariants (image-faults.ts); for
 * the pipeline, the "internal error"s its parsers swallowed; for the unpacker, those of its readers and
 * its report's broken promises (firmware-target.ts). Errors thrown are the caller's to classify.
 */
export async function runTarget(target: TargetName, bytes: Uint8Array, variant: number): Promise<string[]> {
  if (target === 'firmware') return firmwareFaults(bytes, variant);
  const container = FORMATS.find((f) => f.name === target);
  if (container) return imageFaults(container.parse(bytes));
  if (target === 'raw') return imageFaults(parseBinary(bytes, RAW_LOADS[variant % RAW_LOADS.length]));
  const result = await analyze(bytes, {
    binaryConfig: BINARY_CONFIGS[variant % BINARY_CONFIGS.length] ?? null,
    demangle: await loadDemangler(),
  });
  return result.diagnostics.filter((d) => d.startsWith('internal error'));
}
