// Instruction-set profiles: one object per CPU the engine analyses (profile.ts), the one place its
// knowledge lives. Tables are typed over every architecture and decoder mode, so the compiler lists
// what a new one forgot. May import src/contracts, src/shared and engine/disasm.
import type { Architecture } from '../../contracts/result.js';
import type { DecoderMode } from '../disasm/index.js';
import { ARM } from './arm.js';
import { ARM64 } from './arm64.js';
import type { IsaFamily } from './dialect.js';
import { MIPS } from './mips.js';
import type { AnalysedArchitecture, IsaProfile } from './profile.js';
import { X86, X86_64 } from './x86.js';

export * from './classes.js';
export * from './dialect.js';
export * from './profile.js';

export const PROFILES: Readonly<Record<AnalysedArchitecture, IsaProfile>> = {
  x86: X86,
  x86_64: X86_64,
  arm: ARM,
  arm64: ARM64,
  mips: MIPS,
};

/** The profile of an architecture, or null when the engine cannot analyse it. */
export const isaProfile = (arch: Architecture): IsaProfile | null =>
  Object.hasOwn(PROFILES, arch) ? PROFILES[arch as AnalysedArchitecture] : null;

/** The profile whose code a decoder mode reads. */
export const MODE_PROFILES: Readonly<Record<DecoderMode, IsaProfile>> = {
  x86: X86,
  x86_64: X86_64,
  arm: ARM,
  thumb: ARM,
  arm64: ARM64,
  mips: MIPS,
  mipsel: MIPS,
};

export const isaFamily = (mode: DecoderMode): IsaFamily => MODE_PROFILES[mode].dialect.family;

/** Each family's dialect, by name (the feature extractors take the family a decoder mode belongs to). */
export const DIALECTS: Readonly<Record<IsaFamily, IsaProfile['dialect']>> = {
  x86: X86.dialect,
  arm: ARM.dialect,
  arm64: ARM64.dialect,
  mips: MIPS.dialect,
};
