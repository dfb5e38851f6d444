// x86 condition codes over the flags an operation left, as C: the flags op and its two operands (held in
// variables where the flags were set) give zero, sign, carry, overflow and parity, and each condition is
// the formula the manual gives over them. A compare (`sub`) reads as the comparison it is (`a < b`).
import type { Cond, FlagOp } from '../ir/ir.js';
import { sType, Unsupported } from './c-names.js';
import type { Runtime } from './runtime.js';

export interface FlagsSource {
  op: FlagOp;
  a: string;
  b: string;
  /** Operand width in bytes. */
  w: number;
}

const COMPARE: Partial<Record<Cond, string>> = {
  eq: '==',
  ne: '!=',
  ult: '<',
  uge: '>=',
  ule: '<=',
  ugt: '>',
};
const SIGNED: Partial<Record<Cond, string>> = { slt: '<', sge: '>=', sle: '<=', sgt: '>' };

/** `cc` over `f` as a C expression of type int (0 or 1). */
export function condition(cc: Cond, f: FlagsSource, rt: Runtime): string {
  const { a, b, w } = f;
  const s = (x: string) => `(${sType(w)})(${x})`;
  const trunc = (x: string) => (w < 4 ? `(uint${w * 8}_t)(${x})` : `(${x})`);
  if (f.op === 'sub') {
    if (COMPARE[cc]) return `(${a} ${COMPARE[cc]} ${b})`;
    if (SIGNED[cc]) return `(${s(a)} ${SIGNED[cc]} ${s(b)})`;
  }
  if (f.op === 'fcmp') return floatCondition(cc, f, rt);
  if (f.op === 'bit') {
    const cf = `((${a} >> (${b} & ${w * 8 - 1})) & 1)`;
    if (cc === 'ult') return cf;
    if (cc === 'uge') return `!${cf}`;
    throw new Unsupported(`condition ${cc} after bt`);
  }
  const r = resultOf(f);
  const zf = `(${trunc(r)} == 0)`;
  const sf = `(${s(trunc(r))} < 0)`;
  const flags = {
    get cf() {
      return carryOverflow(f, trunc(r)).cf;
    },
    get of() {
      return carryOverflow(f, trunc(r)).of;
    },
  };
  const pf = () => {
    rt.use('parity');
    return `bl_parity((uint8_t)(${r}))`;
  };
  switch (cc) {
    case 'eq':
      return zf;
    case 'ne':
      return `!${zf}`;
    case 'neg':
      return sf;
    case 'pos':
      return `!${sf}`;
    case 'ult':
      return flags.cf;
    case 'uge':
      return `!${flags.cf}`;
    case 'ule':
      return `(${flags.cf} || ${zf})`;
    case 'ugt':
      return `!(${flags.cf} || ${zf})`;
    case 'slt':
      return `(${sf} != ${flags.of})`;
    case 'sge':
      return `(${sf} == ${flags.of})`;
    case 'sle':
      return `(${zf} || ${sf} != ${flags.of})`;
    case 'sgt':
      return `(!${zf} && ${sf} == ${flags.of})`;
    case 'ov':
      return flags.of;
    case 'nov':
      return `!${flags.of}`;
    case 'par':
      return pf();
    case 'npar':
      return `!${pf()}`;
  }
}

/** The result the flags describe. */
function resultOf(f: FlagsSource): string {
  switch (f.op) {
    case 'sub':
      return `${f.a} - ${f.b}`;
    case 'add':
      return `${f.a} + ${f.b}`;
    case 'and':
      return `${f.a} & ${f.b}`;
    case 'logic':
    case 'shift':
      return f.a;
    default:
      throw new Unsupported(`a condition on the flags of ${f.op}`);
  }
}

function carryOverflow(f: FlagsSource, r: string): { cf: string; of: string } {
  const { a, b, w } = f;
  const sign = (x: string) => `((${sType(w)})(${w < 4 ? `(uint${w * 8}_t)(${x})` : x}) < 0)`;
  switch (f.op) {
    case 'sub':
      return { cf: `(${a} < ${b})`, of: sign(`(${a} ^ ${b}) & (${a} ^ ${r})`) };
    case 'add':
      return { cf: `(${r} < ${a})`, of: sign(`~(${a} ^ ${b}) & (${a} ^ ${r})`) };
    case 'and':
    case 'logic':
      return { cf: '0', of: '0' };
    default:
      throw new Unsupported(`the carry or overflow of ${f.op}`);
  }
}

/** ucomiss/ucomisd: unordered sets zero, parity and carry; otherwise zero is equality and carry less-than. */
function floatCondition(cc: Cond, f: FlagsSource, rt: Runtime): string {
  rt.use(f.w === 4 ? 'f32' : 'f64');
  const conv = f.w === 4 ? 'bl_f32' : 'bl_f64';
  const [x, y] = [`${conv}(${f.a})`, `${conv}(${f.b})`];
  const unordered = `(${x} != ${x} || ${y} != ${y})`;
  const zf = `(${unordered} || ${x} == ${y})`;
  const cf = `(${unordered} || ${x} < ${y})`;
  switch (cc) {
    case 'eq':
      return zf;
    case 'ne':
      return `!${zf}`;
    case 'ult':
      return cf;
    case 'uge':
      return `!${cf}`;
    case 'ule':
      return `(${cf} || ${zf})`;
    case 'ugt':
      return `!(${cf} || ${zf})`;
    case 'par':
      return unordered;
    case 'npar':
      return `!${unordered}`;
    default:
      throw new Unsupported(`condition ${cc} after a floating-point compare`);
  }
}
