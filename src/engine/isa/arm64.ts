// AArch64: everything the engine knows of it beyond the decoder (disasm/arm64-decoder.ts).
import { ARM64_IR } from '../ir/arm64/index.js';
import type { ClassTable } from './classes.js';
import type { Dialect } from './dialect.js';
import { littleWord } from './padding.js';
import type { IsaProfile } from './profile.js';
import { AARCH64_LINUX } from '../emulate/linux/arm64.js';

const CLASSES: ClassTable = [
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

const DIALECT: Dialect = {
  family: 'arm64',
  classes: CLASSES,
  frameAccess: /\[\s*(sp|x29)\b/,
  transfer: /^(b|cb|tb)/,
  xor: /^(eor)$/,
  transferClass: () => null,
  stackStrings: false,
  memoryOperands: false,
};

export const ARM64: IsaProfile = {
  architecture: 'arm64',
  modeFor: () => 'arm64',
  thumb: false,
  step: 4,
  /** AAPCS64: x0-x18, x30. */
  callClobbers: ((1 << 19) - 1) | (1 << 30),
  // nop, zero fill
  padding: (b, off) => (littleWord(b, off) === 0xd503201f || littleWord(b, off) === 0 ? 4 : 0),
  switchTables: null,
  globalPointer: false,
  dialect: DIALECT,
  pebAccess: null,
  ir: ARM64_IR,
  emulator: AARCH64_LINUX,
  names: { model: 'arm-64', capa: 'aarch64' },
};
