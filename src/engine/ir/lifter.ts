// What a CPU contributes to the IR: its register file, its calling conventions and a lifter that turns one
// instruction into statements. One per ISA profile (isa/<cpu>.ts `ir` field); the driver (lift-function.ts)
// is shared.
import type { Platform } from '../../contracts/result.js';
import type { Decoder } from '../disasm/index.js';
import type { BinaryImage } from '../formats/image.js';
import type { IrFunction, RegisterFile, Stmt } from './ir.js';

/** How arguments and results travel for one ABI, in the register file's numbers. */
export interface CallingConvention {
  name: string;
  /** Integer/pointer argument registers in order. */
  intArgs: readonly number[];
  /** Floating-point argument registers in order. */
  floatArgs: readonly number[];
  /** Integer and floating-point argument registers share positions (Microsoft x64: the 2nd is rdx or xmm1). */
  positional: boolean;
  /**
   * Further arguments on the stack, starting this many bytes above the stack pointer at entry (past the
   * return address, and Microsoft x64's 32-byte home area).
   */
  stackArgsAt: number;
  /** Stack slot size of one argument. */
  stackSlot: number;
  intReturn: number;
  floatReturn: number | null;
  /** Registers a call may change (return registers included). */
  clobbers: readonly number[];
}

export interface Lifter {
  /**
   * Appends the statements of the instruction at `bytes[offset]` (address `vaddr`) to `out` and returns
   * its length, or 0 when it does not decode (nothing appended). Never throws.
   */
  lift(bytes: Uint8Array, offset: number, vaddr: number, out: Stmt[]): number;
}

/** The IR side of one ISA: registers, conventions by platform, and its lifter for a decoder. */
export interface IsaIr {
  registers(mode: Decoder['mode']): RegisterFile;
  /** The conventions of a platform, the default first. */
  conventions(mode: Decoder['mode'], platform: Platform): readonly CallingConvention[];
  lifter(decoder: Decoder): Lifter | null;
  /**
   * The one register a call to the code at `bytes[offset]` changes, when that code is a get-PC thunk
   * (i386 PIC: `mov ebx, [esp]; ret`): such calls clobber nothing else. Null otherwise.
   */
  thunkWrites?(bytes: Uint8Array, offset: number): number | null;
  /**
   * Registers the ABI fixes on entry to the function at `start` (MIPS PIC: t9 holds its own address and
   * gp the module's GOT pointer), so constant propagation reaches what is addressed through them.
   */
  entryValues?(image: BinaryImage, start: number): { r: number; v: number }[];
  /** Rewrites a lifted function where the lifter alone cannot (x86: the x87 stack's relative registers). */
  resolve?(fn: IrFunction): void;
}
