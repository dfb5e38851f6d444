// Which binnet model analyses a binary: chosen by architecture and platform only.
import { MODEL_NAMES } from '../contracts/models.js';
import type { Architecture, BinaryIdentity, Platform } from '../contracts/result.js';

/** Architectures as model names spell them (`<arch>-<bits>`); the others have no model. */
const MODEL_ARCH: Partial<Record<Architecture, string>> = {
  x86_64: 'x86-64',
  x86: 'x86-32',
  arm64: 'arm-64',
};

const MODEL_PLATFORMS: ReadonlySet<Platform> = new Set<Platform>(['linux', 'windows', 'android']);

/** The model for this architecture/platform, or null when none exists (mips, macOS, raw/unknown …). */
export function pickModel(identity: Pick<BinaryIdentity, 'architecture' | 'platform'>): string | null {
  const arch = MODEL_ARCH[identity.architecture];
  if (arch === undefined || !MODEL_PLATFORMS.has(identity.platform)) return null;
  // Matched by suffix so a model-version bump in MODEL_NAMES needs no change here.
  const suffix = `-${arch}-${identity.platform}`;
  return MODEL_NAMES.find((name) => name.endsWith(suffix)) ?? null;
}
