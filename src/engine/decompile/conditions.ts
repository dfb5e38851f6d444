// Conditions over the flags an operation left, as C. A flags source (the operation and its two operands,
// held in variables where it ran; or, for AArch64's conditional compares, a choice between a comparison and
// an immediate nzcv) gives zero, sign, carry, overflow and parity, and each condition is its formula over
// them. Conditions are named by what they mean after `cmp a, b`, so the carry here is x86's (a borrow):
// AArch64 and ARM set C as "no borrow" and, after an addition, as the carry out, and their floating-point
// compare leaves other flags than ucomisd. A plain compare reads as the comparison it is (`a < b`).
import type { Cond, FlagOp } from '../ir/ir.js';
import { operand, signedAs, Unsupported } from './c-names.js';
import { asFloat, type Runtime } from './runtime.js';

export type FlagsSource =
  | { k: 'op'; op: FlagOp; a: string; b: string; w: number }
  | { k: 'select'; c: string; then: FlagsSource; nzcv: string };

/** Flags in x86's sense, as C expressions of type int. */
interface Bits {
  zf: string;
  sf: string;
  cf: string;
  of: string;
  pf: string;
}

const COMPARE: Partial<Record<Cond, string>> = { eq: '==', ne: '!=', ult: '<', uge: '>=', ule: '<=', ugt: '>' };
const SIGNED: Partial<Record<Cond, string>> = { slt: '<', sge: '>=', sle: '<=', sgt: '>' };
/** Conditions after a logical operation, as the result compared with zero (signed but for equality). */
const ZERO: Partial<Record<Cond, string>> = {
  eq: '==',
  ne: '!=',
  neg: '<',
  pos: '>=',
  slt: '<',
  sge: '>=',
  sle: '<=',
  sgt: '>',
};

/** `cc` over `f` as a C expression of type int (0 or 1); `arm` for the ARM family's carry and fcmp. */
export function condition(cc: Cond, f: FlagsSource, arm: boolean, rt: Runtime): string {
  if (f.k === 'op' && f.op === 'sub') {
    const s = (x: string) => signedAs(x, f.w);
    if (COMPARE[cc]) return `(${f.a} ${COMPARE[cc]} ${f.b})`;
    if (SIGNED[cc]) return `(${s(f.a)} ${SIGNED[cc]} ${s(f.b)})`;
  }
  if (f.k === 'op' && (f.op === 'and' || f.op === 'logic')) {
    // After test/and (no carry, no overflow) every condition but parity compares the result with zero.
    const r = f.op === 'and' && f.a !== f.b ? `${f.a} & ${f.b}` : f.a;
    const v = f.w < 4 ? `(uint${f.w * 8}_t)${operand(r)}` : operand(r);
    const zero = ZERO[cc];
    if (zero) return `(${zero[0] === '=' || zero[0] === '!' ? v : signedAs(v, f.w)} ${zero} 0)`;
  }
  const b = bitsOf(f, arm, rt);
  switch (cc) {
    case 'eq':
      return b.zf;
    case 'ne':
      return `!${b.zf}`;
    case 'neg':
      return b.sf;
    case 'pos':
      return `!${b.sf}`;
    case 'ult':
      return b.cf;
    case 'uge':
      return `!${b.cf}`;
    case 'ule':
      return `(${b.cf} || ${b.zf})`;
    case 'ugt':
      return `!(${b.cf} || ${b.zf})`;
    case 'slt':
      return `(${b.sf} != ${b.of})`;
    case 'sge':
      return `(${b.sf} == ${b.of})`;
    case 'sle':
      return `(${b.zf} || ${b.sf} != ${b.of})`;
    case 'sgt':
      return `(!${b.zf} && ${b.sf} == ${b.of})`;
    case 'ov':
      return b.of;
    case 'nov':
      return `!${b.of}`;
    case 'par':
      return b.pf;
    case 'npar':
      return `!${b.pf}`;
  }
}

function bitsOf(f: FlagsSource, arm: boolean, rt: Runtime): Bits {
  if (f.k === 'select') {
    // nzcv: N bit 3, Z bit 2, C bit 1 (ARM's sense: set is "no borrow"), V bit 0.
    const t = bitsOf(f.then, arm, rt);
    const bit = (n: number) => `((${f.nzcv} >> ${n}) & 1)`;
    const pick = (x: string, y: string) => `(${f.c} ? ${x} : ${y})`;
    const none = () => {
      throw new Unsupported('parity after a conditional compare');
    };
    return {
      zf: pick(t.zf, bit(2)),
      sf: pick(t.sf, bit(3)),
      cf: pick(t.cf, `!${bit(1)}`),
      of: pick(t.of, bit(0)),
      get pf() {
        return none();
      },
    };
  }
  const { a, b, w } = f;
  if (f.op === 'fcmp') return floatBits(f, arm, rt);
  if (f.op === 'bit') {
    const cf = `((${a} >> (${b} & ${w * 8 - 1})) & 1)`;
    const no = () => {
      throw new Unsupported('a condition after bt other than its carry');
    };
    return {
      cf,
      get zf() {
        return no();
      },
      get sf() {
        return no();
      },
      get of() {
        return no();
      },
      get pf() {
        return no();
      },
    };
  }
  const trunc = (x: string) => (w < 4 ? `(uint${w * 8}_t)${operand(x)}` : operand(x));
  const signOf = (x: string) => `${signedAs(trunc(x), w)} < 0`;
  const r = trunc(resultOf(f));
  const carry = (): { cf: string; of: string } => {
    switch (f.op) {
      case 'sub':
        return { cf: `(${a} < ${b})`, of: `(${signOf(`(${a} ^ ${b}) & (${a} ^ ${r})`)})` };
      case 'add':
        // x86's carry after an add is the carry out; ARM's cs after adds is too, so the borrow sense is its inverse.
        return { cf: arm ? `!(${r} < ${a})` : `(${r} < ${a})`, of: `(${signOf(`~(${a} ^ ${b}) & (${a} ^ ${r})`)})` };
      case 'and':
      case 'logic':
        return { cf: '0', of: '0' };
      case 'mul': {
        // imul sets both when the signed product does not fit the destination.
        rt.use('smulo');
        const o = `bl_smulo(${signedAs(a, w)}, ${signedAs(b, w)}, ${w * 8})`;
        return { cf: o, of: o };
      }
      default:
        throw new Unsupported(`the carry or overflow of ${f.op}`);
    }
  };
  return {
    zf: `(${r} == 0)`,
    sf: `(${signOf(r)})`,
    get cf() {
      return carry().cf;
    },
    get of() {
      return carry().of;
    },
    get pf() {
      rt.use('parity');
      return `bl_parity((uint8_t)(${r}))`;
    },
  };
}

/** The result the flags describe. */
function resultOf(f: Extract<FlagsSource, { k: 'op' }>): string {
  switch (f.op) {
    case 'sub':
      return `${f.a} - ${f.b}`;
    case 'add':
      return `${f.a} + ${f.b}`;
    case 'mul':
      return `${f.a} * ${f.b}`;
    case 'and':
      return `${f.a} & ${f.b}`;
    case 'logic':
    case 'shift':
      return f.a;
    default:
      throw new Unsupported(`a condition on the flags of ${f.op}`);
  }
}

/**
 * ucomisd: unordered sets zero, parity and carry; otherwise zero is equality and carry less-than.
 * AArch64/ARM fcmp: less-than sets N (clears C), equal sets Z, unordered sets C and V.
 */
function floatBits(f: Extract<FlagsSource, { k: 'op' }>, arm: boolean, rt: Runtime): Bits {
  const [x, y] = [asFloat(rt, f.a, f.w), asFloat(rt, f.b, f.w)];
  const unordered = `(${x} != ${x} || ${y} != ${y})`;
  if (arm) return { zf: `(${x} == ${y})`, sf: `(${x} < ${y})`, cf: `(${x} < ${y})`, of: unordered, pf: unordered };
  return {
    zf: `(${unordered} || ${x} == ${y})`,
    sf: '0',
    cf: `(${unordered} || ${x} < ${y})`,
    of: '0',
    pf: unordered,
  };
}
