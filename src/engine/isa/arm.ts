// 32-bit ARM (A32 and Thumb/Thumb-2): everything the engine knows of it beyond the decoders
// (disasm/arm-decoder.ts, disasm/thumb-decoder.ts).
import { ARM_IR } from '../ir/arm/index.js';
import type { ClassTable, InstructionClass } from './classes.js';
import { RETURN_REG, type Dialect } from './dialect.js';
import type { IsaProfile } from './profile.js';
import { ARM_LINUX } from '../emulate/linux/arm.js';

const COND = '(eq|ne|cs|hs|cc|lo|mi|pl|vs|vc|hi|ls|ge|lt|gt|le|al)?';
/** A32/T32 base mnemonic with optional flag-setting `s` and condition suffix (`addseq`, `movne`). */
const arm = (bases: string, cls: InstructionClass): [RegExp, InstructionClass] => [
  new RegExp(`^(${bases})s?${COND}$`),
  cls,
];

const CLASSES: ClassTable = [
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

const DIALECT: Dialect = {
  family: 'arm',
  classes: CLASSES,
  frameAccess: /\[\s*(sp|fp|r7|r11)\b/,
  transfer: /^(b|cb)/,
  xor: /^(v?eors?(\.\w+)?)$/,
  transferClass: (m, ops) =>
    (/^bx/.test(m) && RETURN_REG.test(ops)) || (/^(pop|ldm)/.test(m) && /\bpc\b/.test(ops)) ? ['ret'] : null,
  stackStrings: false,
  memoryOperands: false,
};

/** Thumb nop, `mov r8, r8`, zero fill; `nop.w`, which gas pads Thumb-2 code with before a literal pool. */
function padding(b: Uint8Array, off: number): number {
  const at = (k: number) => b[off + k] ?? -1;
  const h = at(0) | (at(1) << 8);
  if (h === 0xbf00 || h === 0x46c0 || h === 0) return 2;
  if (h === 0xf3af && (at(2) | (at(3) << 8)) === 0x8000) return 4;
  return 0;
}

export const ARM: IsaProfile = {
  architecture: 'arm',
  modeFor: () => 'arm',
  thumb: true,
  step: 2,
  /** AAPCS: r0-r3, ip, lr. */
  callClobbers: 0x500f,
  padding,
  switchTables: 'thumb',
  globalPointer: false,
  dialect: DIALECT,
  pebAccess: null,
  ir: ARM_IR,
  emulator: ARM_LINUX,
  names: { model: 'arm-32', capa: 'arm' },
};
