// The one instruction interface of the engine: every decoder (x86 via iced-x86, ARM/Thumb/AArch64 and
// MIPS as table-driven TypeScript, Capstone for text and validation) fills the same reusable record, so
// the CFG's hot loop allocates nothing per instruction.

export const enum Flow {
  /** Falls through to the next instruction. */
  Sequential = 0,
  /** Unconditional direct jump to `target`. */
  Jump = 1,
  /** Conditional direct branch to `target`, else falls through. */
  Branch = 2,
  /** Direct call to `target`, then falls through. */
  Call = 3,
  Return = 4,
  /** Jump through a register or memory (switch tables, tail calls through pointers). */
  IndirectJump = 5,
  IndirectCall = 6,
  /** Stops execution (hlt, ud2, brk, trap, undefined). */
  Halt = 7,
  /** The bytes do not decode. */
  Invalid = 8,
}

/** `hiReg`, `loReg`, `writeReg` when no register is involved. */
export const NO_REG = -1;

export interface Decoded {
  /** Length in bytes; 0 when invalid. */
  length: number;
  flow: Flow;
  /** Direct branch/call target, or -1. */
  target: number;
  /**
   * An absolute address the instruction references as data or code pointer: RIP-relative and absolute
   * memory operands, ADR, PC-relative literal loads, Thumb TBB/TBH tables; or -1. Two-instruction forms
   * (ADRP+ADD/LDR, MIPS LUI+ADDIU/LW, ARM `ldr rX, =lit; add rX, pc`) are combined by `pairRef` from the
   * hi/lo fields below.
   */
  ref: number;
  /** The memory operand is read through (`[ref]`, e.g. `call [rip+x]`, `jmp [table+reg*8]` base). */
  refIsMemory: boolean;
  /** Bytes read at `ref` when known (8 for LDRD/VLDR.64 literals), else 0. */
  refSize: number;
  /** MIPS: the next instruction (delay slot) executes before the control transfer takes effect. */
  delaySlot: boolean;
  /** ARM: the branch target is in Thumb state (BLX switches, low bit of BX targets). */
  targetThumb: boolean;
  /**
   * The transfer happens only when a condition holds, else execution falls through: every Branch, and on
   * ARM any other transfer under a condition code or inside an IT block (`bxeq lr` is Return + conditional,
   * `addls pc, pc, r3, lsl #2` is IndirectJump + conditional, `blne f` is Call + conditional).
   */
  conditional: boolean;
  /**
   * x86: the value of a 32- or 64-bit immediate operand (`push 0x8049f00`, `mov ecx, 0x404010`), unsigned,
   * or -1. Such immediates are addresses only sometimes; the caller checks them against the image.
   */
  imm: number;
  /**
   * The instruction sets register `hiReg` to the absolute value `hiValue`: AArch64 ADRP (the 4 KiB page)
   * and ADR, MIPS LUI (imm << 16), ARM ADR. Registers are architecture numbers (x0..x30, r0..r15, $0..$31).
   */
  hiReg: number;
  hiValue: number;
  /**
   * The instruction adds `loImm` to register `loReg`: AArch64 `add xD, xN, #imm` and loads/stores
   * `[xN, #imm]`, MIPS `addiu`/`ori`/`lw`/`sw` off(base) (incl. `$gp`-relative GOT loads: loReg 28),
   * Thumb/ARM `add rD, pc` (loImm = the PC value). `loMemory` when it accesses memory at the sum.
   */
  loReg: number;
  loImm: number;
  loMemory: boolean;
  /** A general register the instruction overwrites (best effort; invalidates pairs), or -1. */
  writeReg: number;
}

export const newDecoded = (): Decoded => ({
  length: 0,
  flow: Flow.Invalid,
  target: -1,
  ref: -1,
  refIsMemory: false,
  refSize: 0,
  delaySlot: false,
  targetThumb: false,
  conditional: false,
  imm: -1,
  hiReg: NO_REG,
  hiValue: 0,
  loReg: NO_REG,
  loImm: 0,
  loMemory: false,
  writeReg: NO_REG,
});

/** Resets `out` to "sequential, nothing referenced" with the given length; decoders then set what applies. */
export function clearDecoded(out: Decoded, length: number): void {
  out.length = length;
  out.flow = Flow.Sequential;
  out.target = -1;
  out.ref = -1;
  out.refIsMemory = false;
  out.refSize = 0;
  out.delaySlot = false;
  out.targetThumb = false;
  out.conditional = false;
  out.imm = -1;
  out.hiReg = NO_REG;
  out.hiValue = 0;
  out.loReg = NO_REG;
  out.loImm = 0;
  out.loMemory = false;
  out.writeReg = NO_REG;
}

/** Marks `out` invalid; returns false so decoders can `return invalid(out)`. */
export function invalid(out: Decoded): false {
  clearDecoded(out, 0);
  out.flow = Flow.Invalid;
  return false;
}

export interface InstructionText {
  mnemonic: string;
  operands: string;
}

export type DecoderMode = 'x86' | 'x86_64' | 'arm' | 'thumb' | 'arm64' | 'mips' | 'mipsel';

export interface Decoder {
  readonly mode: DecoderMode;
  /**
   * Decodes the instruction at `bytes[offset]`, whose address is `vaddr`, into `out`. Returns false (and
   * sets `out.flow = Flow.Invalid`) when the bytes do not form a valid instruction or run past the end.
   * Never throws. Pass the same `bytes` array for a whole region: the x86 decoder copies it into
   * WebAssembly memory once per array, and the Thumb decoder keeps IT-block state between calls at
   * consecutive addresses.
   */
  decode(bytes: Uint8Array, offset: number, vaddr: number, out: Decoded): boolean;
  /** Assembly text (slow path: for display, not for the CFG). */
  text(bytes: Uint8Array, offset: number, vaddr: number): InstructionText | null;
}

/** The decoders one image needs: its instruction set's, and for ARM images the Thumb one too. */
export interface Decoders {
  decoder: Decoder;
  thumbDecoder?: Decoder;
}

/** The decoder for a function: Thumb when it is Thumb code and the image has one, else the image's own. */
export const decoderOf = (decoders: Decoders, thumb: boolean): Decoder =>
  (thumb ? decoders.thumbDecoder : undefined) ?? decoders.decoder;
