// Which binnet model analyses a binary: chosen by architecture and platform only.
import { MODEL_NAMES } from '../contracts/models.js';
import type { Architecture, BinaryIdentity, Platform } from '../contracts/result.js';

/** Architectures as model names spell them (`<arch>-<bits>`); null: the engine has no decoder for it. */
const MODEL_ARCH: Record<Architecture, string | null> = {
  x86_64: 'x86-64',
  x86: 'x86-32',
  arm64: 'arm-64',
  arm: 'arm-32',
  mips: 'mips-32',
  mips64: null,
  ppc: null,
  ppc64: null,
  riscv: null,
  unknown: null,
};

const MODEL_PLATFORMS: ReadonlySet<Platform> = new Set<Platform>(['linux', 'windows', 'android', 'macos']);

/** The model for this architecture/platform, or null when none exists (MIPS64, PowerPC, RISC-V, raw/unknown …). */
export function pickModel(identity: Pick<BinaryIdentity, 'architecture' | 'platform'>): string | null {
  const arch = MODEL_ARCH[identity.architecture];
  if (arch === null || !MODEL_PLATFORMS.has(identity.platform)) return null;
  // Matched by suffix so a model-version bump in MODEL_NAMES needs no change here.
  const suffix = `-${arch}-${identity.platform}`;
  return MODEL_NAMES.find((name) => name.endsWith(suffix)) ?? null;
}
