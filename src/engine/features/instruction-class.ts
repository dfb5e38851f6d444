// Mnemonics → architecture-neutral semantic classes, the alphabet of the instruction n-grams. Registers,
// addresses and immediates are dropped: `mov rbx, rax`, `mov x20, x0` and `move s0, v0` are all `move`.
// 24 classes: few enough that the same C statement compiled for x86-64, AArch64, Thumb-2 and MIPS yields
// mostly the same sequence, enough that a loop body of loads, adds and compares differs from a prologue.
import type { DecoderMode } from '../disasm/index.js';

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

/** The four instruction-set families whose mnemonics share a table. */
export type IsaFamily = 'x86' | 'arm' | 'arm64' | 'mips';

export const isaFamily = (mode: DecoderMode): IsaFamily =>
  mode === 'x86' || mode === 'x86_64'
    ? 'x86'
    : mode === 'arm' || mode === 'thumb'
      ? 'arm'
      : mode === 'arm64'
        ? 'arm64'
        : 'mips';

type Table = [RegExp, InstructionClass][];

// x86: `mov`-family and ALU instructions with a memory operand are split below into load/op/store tokens,
// so `add eax, [rbx]` reads like the RISC `ldr w1, [x1]; add w0, w0, w1`.
const X86: Table = [
  [/^(ret|iret|retf)/, 'ret'],
  [/^call/, 'call'],
  [/^jmp/, 'jump'],
  [/^(j|loop)/, 'branch'],
  [/^push/, 'store'],
  [/^pop/, 'load'],
  [/^(lock|xadd|cmpxchg|xchg)/, 'atomic'],
  [/^(cmov|set)/, 'select'],
  [/^(add|sub|mul|div|min|max|sqrt|ucomi|comi|cvt)s[sd]$|^cvt|^f/, 'fp'],
  [/^(p|v|movdq|movap|movup|movs[sd]$|movq$|movd$|shuf|unpck|and[n]?p|orp|xorp|movhp|movlp)/, 'simd'],
  [/^(movzx|movsx|movsxd|cdq|cqo|cdqe|cwde|cbw|cwd)$/, 'extend'],
  [/^(mov|movabs)$/, 'move'],
  [/^lea$/, 'address'],
  [/^(cmp|cmps|scas)/, 'compare'],
  [/^(test|bt)/, 'test'],
  [/^(add|adc|inc)$/, 'add'],
  [/^(sub|sbb|dec|neg)$/, 'sub'],
  [/^(imul|mul|mulx)$/, 'mul'],
  [/^(div|idiv)$/, 'div'],
  [/^(and|or|xor|not|andn)$/, 'logic'],
  [/^(sh|sa|ro|rc)[lr]x?d?$/, 'shift'],
  [/^(bsf|bsr|tzcnt|lzcnt|popcnt|bswap)$/, 'bit'],
  [/^(rep|stos|movs|lods)/, 'store'],
];

const COND = '(eq|ne|cs|hs|cc|lo|mi|pl|vs|vc|hi|ls|ge|lt|gt|le|al)?';
/** A32/T32 base mnemonic with optional flag-setting `s` and condition suffix (`addseq`, `movne`). */
const arm = (bases: string, cls: InstructionClass): [RegExp, InstructionClass] => [
  new RegExp(`^(${bases})s?${COND}$`),
  cls,
];

const ARM: Table = [
  [/^(bx|b)(eq|ne|cs|hs|cc|lo|mi|pl|vs|vc|hi|ls|ge|lt|gt|le)$/, 'branch'],
  [/^(cbz|cbnz)$/, 'branch'],
  arm('b|tbb|tbh', 'jump'),
  arm('bl|blx', 'call'),
  [/^v/, 'fp'],
  [/^(ldrex|strex|dmb|dsb|isb)/, 'atomic'],
  [/^(pop|ldm|ldr)/, 'load'],
  [/^(push|stm|str)/, 'store'],
  arm('adr', 'address'),
  arm('mov|movw|movt|cpy', 'move'),
  arm('add|adc|addw', 'add'),
  arm('sub|sbc|rsb|rsc|subw|neg', 'sub'),
  arm('mul|mla|mls|umull|smull|umlal|smlal|smmul|smulbb|umaal', 'mul'),
  arm('sdiv|udiv', 'div'),
  arm('and|orr|eor|bic|orn|mvn', 'logic'),
  arm('lsl|lsr|asr|ror|rrx', 'shift'),
  arm('cmp|cmn', 'compare'),
  arm('tst|teq', 'test'),
  arm('uxtb|uxth|sxtb|sxth|uxtab|uxtah|sxtab|sxtah', 'extend'),
  arm('ubfx|sbfx|bfi|bfc', 'bitfield'),
  arm('clz|rbit|rev|rev16|revsh', 'bit'),
];

const ARM64: Table = [
  [/^ret/, 'ret'],
  [/^b\./, 'branch'],
  [/^(cbz|cbnz|tbz|tbnz)$/, 'branch'],
  [/^(bl|blr)$/, 'call'],
  [/^(b|br)$/, 'jump'],
  [/^(ldxr|ldaxr|stxr|stlxr|ldar|stlr|cas|swp|ldadd|dmb|dsb|isb)/, 'atomic'],
  [/^ld/, 'load'],
  [/^st/, 'store'],
  [/^(adr|adrp)$/, 'address'],
  [/^(mov|movz|movk|movn)$/, 'move'],
  [/^(csel|cset|csetm|csinc|csinv|csneg|cinc|cinv|cneg)$/, 'select'],
  [/^f/, 'fp'],
  [/^(add|adds|adc|adcs)$/, 'add'],
  [/^(sub|subs|sbc|sbcs|neg|negs|ngc)$/, 'sub'],
  [/^(mul|madd|msub|mneg|smull|umull|smulh|umulh|smaddl|umaddl|smsubl|umsubl)$/, 'mul'],
  [/^(sdiv|udiv)$/, 'div'],
  [/^(ands|tst)$/, 'test'],
  [/^(and|orr|eor|bic|bics|orn|eon|mvn)$/, 'logic'],
  [/^(lsl|lsr|asr|ror)$/, 'shift'],
  [/^(cmp|cmn|ccmp|ccmn)$/, 'compare'],
  [/^(sxtb|sxth|sxtw|uxtb|uxth)$/, 'extend'],
  [/^(ubfx|sbfx|ubfiz|sbfiz|bfi|bfxil|extr|bfm|ubfm|sbfm)$/, 'bitfield'],
  [/^(clz|cls|rbit|rev|rev16|rev32|cnt)$/, 'bit'],
  [/^(addv|umov|dup|ins|zip|uzp|ext|cmeq|movi|uaddlv)/, 'simd'],
];

const MIPS: Table = [
  [/^(jal|jalr|bal|bgezal|bltzal)$/, 'call'],
  [/^(j|b)$/, 'jump'],
  [/^(beq|bne|bgez|bltz|blez|bgtz|beqz|bnez|bc1[tf])/, 'branch'],
  [/^(ll|sc|sync)$/, 'atomic'],
  [/^(lb|lbu|lh|lhu|lw|lwl|lwr|lwc1|ldc1)$/, 'load'],
  [/^(sb|sh|sw|swl|swr|swc1|sdc1)$/, 'store'],
  [/^(move|li|lui|mfhi|mflo|mthi|mtlo|mfc1|mtc1)$/, 'move'],
  [/^(movn|movz|movf|movt)$/, 'select'],
  [/^(add|addu|addi|addiu)$/, 'add'],
  [/^(sub|subu|neg|negu)$/, 'sub'],
  [/^(mult|multu|mul|madd|maddu|msub|msubu)$/, 'mul'],
  [/^(div|divu)$/, 'div'],
  [/^(and|andi|or|ori|xor|xori|nor|not)$/, 'logic'],
  [/^(sll|srl|sra|sllv|srlv|srav|rotr|rotrv)$/, 'shift'],
  [/^(slt|slti|sltu|sltiu)$/, 'compare'],
  [/^(seb|seh)$/, 'extend'],
  [/^(ext|ins)$/, 'bitfield'],
  [/^(clz|clo|wsbh)$/, 'bit'],
  [/\.(s|d|w|l)$|^c\./, 'fp'],
];

const TABLES: Record<IsaFamily, Table> = { x86: X86, arm: ARM, arm64: ARM64, mips: MIPS };

/** Alignment padding and ARM IT prefixes: present or not by compiler whim, not by what the code does. */
const PADDING = /^(nop|endbr|ssnop|ehb|it[te]{0,3}$)/;

/** Registers that hold return addresses: `bx lr`, `jr ra` are returns, `br x16`/`jr t9` jumps. */
const RETURN_REG = /^(lr|ra)$/;

/**
 * Memory operands based on the stack or frame pointer: at -O0 every local variable lives there and each
 * statement loads and stores it; at -O2 the same values stay in registers. Dropping these accesses (and
 * the register saves of push/pop, stp/ldp to sp) makes an -O0 body read like its -O2 counterpart.
 */
const FRAME_ACCESS: Record<IsaFamily, RegExp> = {
  x86: /\[\s*[re]?(sp|bp)\b/,
  arm: /\[\s*(sp|fp|r7|r11)\b/,
  arm64: /\[\s*(sp|x29)\b/,
  mips: /\((sp|fp|s8)\)/,
};
/** Register saves and restores; `leave` tears the frame down. */
const isSaveRestore = (m: string, ops: string) =>
  /^(push|pop|leave)/.test(m) || (/^(stp|ldp|stm|ldm)/.test(m) && /\bsp\b/.test(ops));

/**
 * The classes one instruction contributes, in order; empty for padding (nops, ARM `it`) and for stack
 * frame traffic (FRAME_ACCESS). Most give one class; an x86 instruction with a memory operand gives
 * `load` before (and `store` after, when the memory is the destination) its operation, as a load/store
 * architecture would spell it.
 */
export function classifyInstruction(family: IsaFamily, mnemonic: string, operands: string): InstructionClass[] {
  const m = mnemonic.toLowerCase().replace(/\.[nw]$/, '');
  const ops = operands.toLowerCase();
  if (family === 'arm' && /^bx/.test(m) && RETURN_REG.test(ops)) return ['ret'];
  if (family === 'mips' && m === 'jr') return [RETURN_REG.test(ops) ? 'ret' : 'jump'];
  if (family === 'arm' && /^(pop|ldm)/.test(m) && /\bpc\b/.test(ops)) return ['ret'];
  if (PADDING.test(m)) return [];
  const cls = TABLES[family].find(([re]) => re.test(m))?.[1] ?? 'other';
  if (isSaveRestore(m, ops)) return [];
  const frame = FRAME_ACCESS[family].test(ops);
  if (frame && (cls === 'load' || cls === 'store' || cls === 'move' || cls === 'extend')) return [];
  if (frame) return cls === 'call' || cls === 'jump' ? ['load', cls] : [cls];
  if (family !== 'x86' || !ops.includes('[')) return [cls];
  const memFirst = ops.split(',')[0]!.includes('[');
  if (cls === 'move' || cls === 'extend') return [memFirst ? 'store' : 'load'];
  if (cls === 'address' || cls === 'store' || cls === 'load' || cls === 'atomic') return [cls];
  if (cls === 'call' || cls === 'jump') return ['load', cls];
  return memFirst && cls !== 'compare' && cls !== 'test' ? ['load', cls, 'store'] : ['load', cls];
}
