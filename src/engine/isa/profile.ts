// One profile per instruction set: everything the engine knows about a CPU beyond its decoder, so adding
// one is its profile, its decoder and their tests. Later stages (lifter, type recovery, emulator) add
// one field each.
import type { Architecture } from '../../contracts/result.js';
import type { DecoderMode } from '../disasm/index.js';
import type { IsaIr } from '../ir/lifter.js';
import type { LinuxCpu } from '../emulate/linux/cpu.js';
import type { Dialect } from './dialect.js';

/** The architectures the engine analyses (one profile each, registered in isa/index.ts). */
export type AnalysedArchitecture = Extract<Architecture, 'x86' | 'x86_64' | 'arm' | 'arm64' | 'mips'>;

/** Switch-table forms function recovery reads after an indirect jump (cfg/switch-tables.ts). */
export type SwitchIdiom = 'x86' | 'mips' | 'thumb';

export interface IsaProfile {
  architecture: AnalysedArchitecture;
  /** The decoder mode of its code in a file of this byte order. */
  modeFor(endianness: 'little' | 'big' | null): DecoderMode;
  /** Also decodes Thumb (functions say which by their address or symbol). */
  thumb: boolean;
  /** Instruction alignment in bytes: where a gap scan steps. */
  step: number;
  /** Registers (a bit each) a call leaves unknown to register-pair tracking; 0: decoders form whole addresses. */
  callClobbers: number;
  /** Length of the alignment padding at `off` (0 when none): skipped before looking for a function start. */
  padding(bytes: Uint8Array, off: number): number;
  switchTables: SwitchIdiom | null;
  /** Position-independent code reaches data through a global pointer register (MIPS $gp, pinned to _gp). */
  globalPointer: boolean;
  /** What feature extraction reads of its assembly text. */
  dialect: Dialect;
  /** An operand reading Windows' PEB through a segment register (capa's `peb access`), or null. */
  pebAccess: RegExp | null;
  /** Registers, calling conventions and the lifter to the IR; null while the CPU has no lifter yet. */
  ir: IsaIr | null;
  /** How its Linux programs are emulated; null while the CPU has no emulator yet. */
  emulator: LinuxCpu | null;
  /** Its name in model names (`binnet-0.7-x86-64-linux`) and in capa's `arch:` feature. */
  names: { model: string; capa: string };
}
