// The alphabet of instruction classes every ISA's mnemonics map to (the n-grams of similarity features):
// architecture-neutral, so the same C statement compiled for x86-64, AArch64, Thumb-2 and MIPS yields
// mostly the same sequence. Registers, addresses and immediates are dropped: `mov rbx, rax`, `mov x20, x0`
// and `move s0, v0` are all `move`.
export const INSTRUCTION_CLASSES = [
  'move',
  'load',
  'store',
  'address',
  'add',
  'sub',
  'mul',
  'div',
  'logic',
  'shift',
  'bit',
  'extend',
  'bitfield',
  'compare',
  'test',
  'select',
  'branch',
  'jump',
  'call',
  'ret',
  'fp',
  'simd',
  'atomic',
  'other',
] as const;

export type InstructionClass = (typeof INSTRUCTION_CLASSES)[number];

/** Mnemonic patterns → class, first match wins. */
export type ClassTable = readonly (readonly [RegExp, InstructionClass])[];
