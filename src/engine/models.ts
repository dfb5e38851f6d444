// Which binnet model analyses a binary: chosen by architecture and platform only.
import { MODEL_NAMES } from '../contracts/models.js';
import type { BinaryIdentity, Platform } from '../contracts/result.js';
import { isaProfile } from './isa/index.js';

const MODEL_PLATFORMS: ReadonlySet<Platform> = new Set<Platform>(['linux', 'windows', 'android', 'macos']);

/** The model for this architecture/platform, or null when none exists (MIPS64, PowerPC, RISC-V, raw/unknown …). */
export function pickModel(identity: Pick<BinaryIdentity, 'architecture' | 'platform'>): string | null {
  // Model names spell architectures as the ISA profile says (`x86-64`); no profile, no model.
  const arch = isaProfile(identity.architecture)?.names.model;
  if (arch === undefined || !MODEL_PLATFORMS.has(identity.platform)) return null;
  // Matched by suffix so a model-version bump in MODEL_NAMES needs no change here.
  const suffix = `-${arch}-${identity.platform}`;
  return MODEL_NAMES.find((name) => name.endsWith(suffix)) ?? null;
}
