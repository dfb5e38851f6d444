// What feature extraction reads of an instruction set's assembly text: its mnemonics' classes and the
// idioms similarity and capability features treat specially. ISAs that share mnemonics share a dialect
// (x86 and x86-64; A32 and Thumb).
import type { ClassTable, InstructionClass } from './classes.js';

export type IsaFamily = 'x86' | 'arm' | 'arm64' | 'mips';

export interface Dialect {
  family: IsaFamily;
  classes: ClassTable;
  /**
   * Memory operands based on the stack or frame pointer: at -O0 every local lives there; similarity drops
   * these accesses so an -O0 body reads like its -O2 counterpart.
   */
  frameAccess: RegExp;
  /** Control transfers: their operands are targets, not values. */
  transfer: RegExp;
  /** Exclusive or (capa's `nzxor` when its sources differ). */
  xor: RegExp;
  /** Transfers the class table cannot tell apart by mnemonic (`bx lr` and `pop {pc}` return), else null. */
  transferClass(mnemonic: string, operands: string): InstructionClass[] | null;
  /** Stack strings are built by `mov [frame], imm` (capa counts their printable bytes). */
  stackStrings: boolean;
  /** ALU instructions take memory operands: classified as load, operation (and store), RISC-style. */
  memoryOperands: boolean;
}

/** Registers that hold return addresses: `bx lr`, `jr ra` are returns, `br x16`/`jr t9` jumps. */
export const RETURN_REG = /^(lr|ra)$/;
