// The submitter's `binary_config`: what it adds to identification when the bytes cannot tell. Kept apart
// from the pipeline so the API's services can use it without loading the disassemblers.
import type { Architecture, BinaryIdentity } from '../contracts/result.js';

/** The submitter's description of the binary, in the reference API's vocabulary. */
export interface BinaryConfig {
  isa?: 'x86' | 'x86_64' | 'arm' | null;
  platform?: 'linux' | 'windows' | 'android' | null;
  /** Advisory only: the bytes decide the format; a blob claimed as PE stays raw. */
  file_format?: 'pe' | 'elf' | 'blob' | null;
}

/** The reference's ISA 'arm' names its arm-64 models, so it means AArch64 here. */
const ISA: Record<NonNullable<BinaryConfig['isa']>, { architecture: Architecture; bits: 32 | 64 }> = {
  x86: { architecture: 'x86', bits: 32 },
  x86_64: { architecture: 'x86_64', bits: 64 },
  arm: { architecture: 'arm64', bits: 64 },
};

/** Fill what the bytes could not tell (unknown architecture/platform) from the submitter's config. */
export function applyBinaryConfig(identity: BinaryIdentity, config: BinaryConfig | null | undefined): BinaryIdentity {
  if (!config) return identity;
  const out = { ...identity };
  const isa = config.isa ? ISA[config.isa] : undefined;
  if (isa && out.architecture === 'unknown') {
    out.architecture = isa.architecture;
    out.bits = isa.bits;
    // All three ISAs are little-endian as the models know them.
    out.endianness ??= 'little';
  }
  if (config.platform && out.platform === 'unknown') out.platform = config.platform;
  return out;
}
