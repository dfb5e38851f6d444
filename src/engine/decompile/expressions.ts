// Expressions of one function's IR as C of their width's unsigned type: operations, loads and stores (locals,
// members and elements through typed pointers, else through the address), conditions over the flags.
import type { DataFlow } from '../ir/dataflow.js';
import { definitionOf } from '../ir/ssa.js';
import type { Cond, Expr } from '../ir/ir.js';
import { constant, mask, operand, signedAs, sType, uType, Unsupported } from './c-names.js';
import { condition, type FlagsSource } from './conditions.js';
import { asBits, asFloat, floatType, isPacked, type Helper } from './runtime.js';
import { fit, homeAt, lowBits, paramRead, paramValue, pointer, variable, type Context } from './function-context.js';

/**
 * A value data flow knows to be an address an instruction formed (adrp + add across instructions), inside
 * the image: as the output's pointer to it (a string literal where that is what it is), `width` bytes wide.
 */
export function referenceOf(ctx: Context, r: number, ver: number, width: number): string | null {
  const v = ctx.df.valueOf(r, ver);
  const word = ctx.df.ssa.fn.regs.addressSize;
  if (v.kind !== 'const' || !v.ref) return null;
  const address = Number(BigInt.asUintN(word * 8, v.v));
  // A string's address only handed to calls reads as the literal (indexing past its NUL would not).
  const { fn } = ctx.df.ssa;
  const passed =
    !ctx.df.phiUsers(r, ver).length &&
    ctx.df.uses(r, ver).every((u) => fn.blocks[u.block]!.stmts[u.stmt]!.k === 'call');
  const text = (passed ? ctx.program.stringLiteral(address) : null) ?? ctx.program.reference(address);
  return text && fit(word === 8 ? text : `(uint32_t)${text}`, word, width);
}

/** A `w`-byte load from `addr`: a local, a member or element through a typed pointer, else through the address. */
export function memoryRead(ctx: Context, addr: Expr, w: number, x: (a: Expr) => string): string {
  const home = homeAt(ctx, addr, w);
  const param = home === undefined ? null : paramValue(ctx, home, w);
  if (param) return param;
  const local = ctx.locals.at(addr, w);
  if (local) return ctx.locals.typed.get(local)?.read(local) ?? local;
  const typed = ctx.access.at(addr, w, x);
  if (typed) return typed.type.read(typed.text);
  return `*(${uType(w)} *)${pointer(x(addr))}`;
}

/** The statement storing `value` (of the width's unsigned type) in the `w` bytes at `addr`. */
export function memoryWrite(ctx: Context, addr: Expr, w: number, value: string): string {
  const local = ctx.locals.at(addr, w);
  if (local) return `${local} = ${ctx.locals.typed.get(local)?.write(value) ?? value};`;
  const typed = ctx.access.at(addr, w, (e) => exprC(ctx, e));
  if (typed && !typed.readOnly) return `${typed.text} = ${typed.type.write(value)};`;
  return `*(${uType(w)} *)${pointer(exprC(ctx, addr))} = ${value};`;
}

const BINARY: Record<string, string> = { add: '+', sub: '-', mul: '*', and: '&', or: '|', xor: '^' };

const FLOAT: Record<string, string> = { fadd: '+', fsub: '-', fmul: '*', fdiv: '/' };

/** `e` as a C expression of its width's unsigned type (struct v128 at 16 bytes). */
export function exprC(ctx: Context, e: Expr, depth = 0): string {
  if (depth > 48) throw new Unsupported('an expression nested too deep');
  const x = (a: Expr) => exprC(ctx, a, depth + 1);
  const rt = ctx.program.runtime;
  const w = e.w;
  switch (e.k) {
    case 'const': {
      if (e.ref && w === ctx.df.ssa.fn.regs.addressSize) {
        const r = ctx.program.reference(Number(BigInt.asUintN(w * 8, e.v)));
        if (r) return r;
      }
      if (w === 16) rt.use('v128');
      return constant(e.v, w);
    }
    case 'reg': {
      if (e.r === ctx.df.ssa.fn.regs.flags) throw new Unsupported('the flags read as a value');
      const vw = ctx.varWidth[e.r] || ctx.df.ssa.fn.regs.addressSize;
      const def = ctx.inline.get(`${e.r}:${e.ver}`);
      const ref = def && referenceOf(ctx, e.r, e.ver, vw);
      if (ref) return fit(ref, vw, w);
      if (def && w <= def.w) {
        const inner = lowBits(def, w);
        return fit(x(inner), inner.w, w);
      }
      if (def) return fit(fit(x(def), def.w, vw), vw, w);
      if (e.ver === 0) {
        const param = paramRead(ctx, e.r, w);
        if (param) return param;
        ctx.entryRead.add(e.r);
      }
      return fit(variable(ctx, e.r), vw, w);
    }
    case 'load':
      if (w === 16) rt.use('v128');
      return memoryRead(ctx, e.addr, w, x);
    case 'bin':
      return binaryC(ctx, e, x);
    case 'un':
      return unaryC(ctx, e, x);
    case 'cond':
      return `(uint8_t)${condC(ctx, e.cc, e.flags)}`;
    case 'select':
      return `(${x(e.c)} ? ${fit(x(e.a), e.a.w, w)} : ${fit(x(e.b), e.b.w, w)})`;
    case 'flags':
      throw new Unsupported('flags as a value');
    case 'op':
      return opC(ctx, e, x);
  }
}

/** Operations the IR names: bit counts, byte swaps, the high half of a widening multiply. */
const OPS = new Set(['tzcnt', 'lzcnt', 'bsr', 'popcnt', 'bswap', 'mulhu', 'mulhs', 'rbit', 'rev16', 'rev32', 'cls']);

/** Other ISAs' names for the same operations (AArch64/ARM, MIPS). */
const SAME_AS: Record<string, string> = { clz: 'lzcnt', rev: 'bswap', umulh: 'mulhu', smulh: 'mulhs', wsbh: 'rev16' };

function opC(ctx: Context, e: Extract<Expr, { k: 'op' }>, x: (a: Expr) => string): string {
  if (e.name === 'gethi') {
    ctx.program.runtime.use('gethi');
    return `bl_gethi(${fit(x(e.args[0]!), e.args[0]!.w, 16)})`;
  }
  if (isPacked(e.name) && e.w === 16) {
    ctx.program.runtime.usePacked(e.name);
    // Vector operands whole; an immediate or 8-byte operand as the integer it is.
    const args = e.args.map((a) => (a.w === 16 || a.w > 8 ? fit(x(a), a.w, 16) : x(a)));
    return `bl_${e.name}(${args.join(', ')})`;
  }
  if ((e.name === 'bfi' || e.name === 'bfxil') && e.w <= 8) return bitfieldInsert(e, x);
  if (/^m(add|sub)u?$/.test(e.name) && e.args.length === 4) {
    // MIPS hi:lo ± rs × rt, the product signed (madd, msub) or not (maddu, msubu), all 64 bits.
    const [hi, lo, rs, rt] = e.args.map((a) => fit(x(a), a.w, 4));
    const factor = (v: string) => (e.name.endsWith('u') ? `(uint64_t)${v}` : `(uint64_t)(int64_t)${signedAs(v, 4)}`);
    const sign = e.name.startsWith('madd') ? '+' : '-';
    return `(((uint64_t)${hi} << 32 | ${lo}) ${sign} ${factor(rs!)} * ${factor(rt!)})`;
  }
  if ((e.name === 'adc' || e.name === 'sbc' || e.name === 'rsc' || e.name === 'rrx') && e.w === 4) {
    // ARM's carry read as a value: C is set as `cs` (uge) reads it, whatever operation set the flags.
    const flags = e.args[e.args.length - 1]!;
    const c = `(uint32_t)${condC(ctx, 'uge', flags)}`;
    const [a, b] = e.args.slice(0, -1).map((v) => fit(x(v), v.w, 4));
    if (e.name === 'rrx') return `(uint32_t)(${a} >> 1 | ${c} << 31)`;
    // sbc and rsc subtract the borrow, the inverse of the carry.
    if (e.name === 'adc') return `(uint32_t)(${a} + ${b} + ${c})`;
    return e.name === 'sbc' ? `(uint32_t)(${a} - ${b} - (1u - ${c}))` : `(uint32_t)(${b} - ${a} - (1u - ${c}))`;
  }
  if ((e.name === 'pmovmskb' || e.name === 'pextrw') && e.w === 4) {
    ctx.program.runtime.use(e.name);
    return `bl_${e.name}(${e.args.map((a) => x(a)).join(', ')})`;
  }
  if (e.name === 'x87.underflow')
    throw new Unsupported('an x87 register read before anything was pushed (a long double a call returned)');
  if ((e.name === 'fabs' || e.name === 'frint') && e.w === 10) {
    ctx.program.runtime.use(`${e.name}80`);
    return `bl_${e.name}80(${x(e.args[0]!)})`;
  }
  if (e.name === 'lwl' || e.name === 'lwr') {
    const [rt, word] = e.args;
    if (!rt || word?.k !== 'load') throw new Unsupported(`the ${e.name} operation`);
    ctx.program.runtime.use(e.name);
    return `bl_${e.name}(${fit(x(rt), rt.w, 4)}, ${unalignedAddress(ctx, word.addr, x)}, ${bigEndian(ctx)})`;
  }
  const name = SAME_AS[e.name] ?? e.name;
  if (!OPS.has(name) || e.w > 8) throw new Unsupported(`the ${e.name} operation`);
  ctx.program.runtime.use(name as Helper);
  const args = e.args.map((a) => fit(x(a), a.w, e.w));
  const size = name === 'bswap' ? e.w : e.w * 8;
  return `(${uType(e.w)})bl_${name}(${args.join(', ')}, ${size})`;
}

/**
 * A store of MIPS's swl/swr (the stored value an op over the word and rt): the bytes it writes; null for any
 * other store.
 */
export function unalignedStore(ctx: Context, addr: Expr, v: Expr): string | null {
  if (v.k !== 'op' || (v.name !== 'swl' && v.name !== 'swr')) return null;
  const rt = v.args[1];
  if (!rt) throw new Unsupported(`the ${v.name} operation`);
  const x = (a: Expr) => exprC(ctx, a);
  ctx.program.runtime.use(v.name);
  return `bl_${v.name}(${unalignedAddress(ctx, addr, x)}, ${fit(x(rt), rt.w, 4)}, ${bigEndian(ctx)});`;
}

/** An unaligned half-word access's address; a frame local's slot has no address in the output. */
function unalignedAddress(ctx: Context, addr: Expr, x: (a: Expr) => string): string {
  const v = ctx.df.evaluate(addr);
  if (v.kind === 'sp' && ctx.locals.declared.size) throw new Unsupported('an unaligned access to a frame local');
  return `(uintptr_t)${operand(x(addr))}`;
}

const bigEndian = (ctx: Context) => (ctx.program.image.identity.endianness === 'big' ? 1 : 0);

/**
 * AArch64's bfi/bfxil (BFM with immr, imms): bfxil puts bits immr..imms of the source at the bottom of the
 * destination, bfi the source's low imms+1 bits at bit width-immr; the destination's other bits stay.
 */
function bitfieldInsert(e: Extract<Expr, { k: 'op' }>, x: (a: Expr) => string): string {
  const [dst, src, immr, imms] = e.args;
  if (!dst || !src || immr?.k !== 'const' || imms?.k !== 'const') throw new Unsupported(`the ${e.name} operation`);
  const [r, s] = [Number(immr.v), Number(imms.v)];
  const bits = e.w * 8;
  const field = e.name === 'bfxil' ? s - r + 1 : s + 1;
  const lsb = e.name === 'bfxil' ? 0 : (bits - r) % bits;
  const m = (((1n << BigInt(field)) - 1n) << BigInt(lsb)) & mask(e.w);
  const a = fit(x(dst), dst.w, e.w);
  const b = fit(x(src), src.w, e.w);
  const moved = e.name === 'bfxil' ? `(${b} >> ${r})` : `(${b} << ${lsb})`;
  return `(${uType(e.w)})((${a} & ${constant(~m, e.w)}) | (${moved} & ${constant(m, e.w)}))`;
}

export function condC(ctx: Context, cc: Cond, flags: Expr, depth = 0): string {
  // Flags merged from operations of different shapes: the condition each definition computed.
  if (flags.k === 'reg' && ctx.merged.read.get(flags.ver)?.has(cc)) return `fk_${flags.ver}_${cc}`;
  // ARM's compare inside an IT block: when its condition fails, the flags stay what they were.
  const saved = flags.k === 'reg' && flags.ver > 0 ? flagsDefinition(ctx, flags.r, flags.ver) : null;
  const kept = saved?.nzcv;
  if (flags.k === 'reg' && saved?.c && kept?.k === 'reg' && kept.r === flags.r) {
    const v = flagVar(ctx, flags.ver);
    // Both read at the branch: the earlier flags' saved operands must not be the same variables.
    if (kept.ver <= 0 || flagVar(ctx, kept.ver) === v || depth > 8)
      throw new Unsupported('a condition on flags a conditional compare may keep');
    const taken = condition(cc, savedOperands(ctx, saved.flags, v), ctx.arm, ctx.program.runtime);
    return `(fc_${v} ? ${taken} : ${condC(ctx, cc, kept, depth + 1)})`;
  }
  return condition(cc, flagsSource(ctx, flags), ctx.arm, ctx.program.runtime);
}

/** A flags definition's operands as saved in its version's variables. */
function savedOperands(ctx: Context, flags: Extract<Expr, { k: 'flags' }>, v: number): FlagsSource {
  return { k: 'op', op: flags.op, a: `fa_${v}`, b: fit(`fb_${v}`, flags.b.w, flags.a.w), w: flags.a.w };
}

/**
 * What a condition reads: a flags expression in place (AArch64's cbz tests `eq(sub(x, 0))`), or the
 * flags register's definition, whose operands were saved in fa_/fb_ (and fc_ for a conditional compare).
 */
function flagsSource(ctx: Context, flags: Expr): FlagsSource {
  if (flags.k === 'flags')
    return {
      k: 'op',
      op: flags.op,
      a: exprC(ctx, flags.a),
      b: fit(exprC(ctx, flags.b), flags.b.w, flags.a.w),
      w: flags.a.w,
    };
  if (flags.k !== 'reg' || flags.ver <= 0) throw new Unsupported('a condition on flags from outside the function');
  const saved = flagsDefinition(ctx, flags.r, flags.ver);
  if (!saved) throw new Unsupported('a condition on flags the IR does not describe');
  if (ctx.inline.has(`${flags.r}:${flags.ver}`)) return flagsSource(ctx, saved.flags);
  const v = flagVar(ctx, flags.ver);
  const op = savedOperands(ctx, saved.flags, v);
  return saved.nzcv ? { k: 'select', c: `fc_${v}`, then: op, nzcv: exprC(ctx, saved.nzcv) } : op;
}

/**
 * Flags versions merged by phis, when every definition merged has the same shape (operation, operand
 * widths, a conditional compare or not): they share the variables the operands are saved in.
 */
export function flagClasses(df: DataFlow): Map<number, number> {
  const { fn } = df.ssa;
  const flags = fn.regs.flags;
  const parent = new Map<number, number>();
  const find = (v: number): number => {
    let p = parent.get(v) ?? v;
    while (p !== (parent.get(p) ?? p)) p = parent.get(p)!;
    parent.set(v, p);
    return p;
  };
  for (const b of fn.blocks)
    for (const s of b.stmts)
      if (s.k === 'phi' && s.r === flags)
        for (const v of s.args) {
          if (v <= 0) continue;
          const [x, y] = [find(v), find(s.ver)];
          if (x !== y) parent.set(Math.max(x, y), Math.min(x, y));
        }
  const shapeOf = (v: number): string | null => {
    const def = definitionOf(df.ssa, flags, v);
    if (def?.k !== 'set') return null;
    const saved = savedFlags(def.e);
    return saved ? `${saved.flags.op}:${saved.flags.a.w}:${saved.flags.b.w}:${saved.c ? 'c' : ''}` : '?';
  };
  const classes = new Map<number, number[]>();
  for (const v of parent.keys()) {
    let list = classes.get(find(v));
    if (!list) classes.set(find(v), (list = []));
    list.push(v);
  }
  const out = new Map<number, number>();
  for (const [rep, members] of classes) {
    const shapes = new Set(members.map(shapeOf).filter((x) => x !== null));
    if (shapes.size === 1 && !shapes.has('?')) for (const v of members) out.set(v, rep);
  }
  return out;
}

/** The suffix of the variables version `ver` of the flags saves its operands in. */
export const flagVar = (ctx: Context, ver: number) => ctx.flagClass.get(ver) ?? ver;

/** The flags definition behind version `ver`: its own, or for a phi, that of the definitions it merges. */
function flagsDefinition(ctx: Context, r: number, ver: number): ReturnType<typeof savedFlags> {
  const defAt = (v: number) => definitionOf(ctx.df.ssa, r, v);
  const def = defAt(ver);
  if (def?.k === 'set') return savedFlags(def.e);
  if (def?.k !== 'phi' || !ctx.flagClass.has(ver))
    throw new Unsupported('a condition on flags merged from different operations');
  const rep = flagVar(ctx, ver);
  for (const [v, c] of ctx.flagClass) {
    const member = c === rep ? defAt(v) : undefined;
    if (member?.k === 'set') return savedFlags(member.e);
  }
  return null;
}

/** A flags definition as an operation (and, for a conditional compare, its condition and fallback nzcv). */
export function savedFlags(e: Expr): { flags: Extract<Expr, { k: 'flags' }>; c?: Expr; nzcv?: Expr } | null {
  if (e.k === 'flags') return { flags: e };
  if (e.k === 'select' && e.a.k === 'flags') return { flags: e.a, c: e.c, nzcv: e.b };
  return null;
}

function binaryC(ctx: Context, e: Extract<Expr, { k: 'bin' }>, x: (a: Expr) => string): string {
  const { w, op } = e;
  const rt = ctx.program.runtime;
  const a = () => fit(x(e.a), e.a.w, w);
  const b = () => fit(x(e.b), e.b.w, w);
  const narrow = w < 4;
  const wrap = (t: string) => (narrow ? `(${uType(w)})(${t})` : `(${t})`);
  if (BINARY[op]) {
    if (w === 16) {
      if (op !== 'and' && op !== 'or' && op !== 'xor') throw new Unsupported(`16-byte ${op}`);
      rt.use(`v${op}`);
      return `bl_v${op}(${x(e.a)}, ${x(e.b)})`;
    }
    return wrap(narrow ? `(unsigned)${a()} ${BINARY[op]} (unsigned)${b()}` : `${a()} ${BINARY[op]} ${b()}`);
  }
  if (FLOAT[op]) {
    if (w !== 4 && w !== 8 && w !== 10) throw new Unsupported(`a ${w}-byte ${op}`);
    return asBits(rt, `${asFloat(rt, a(), w)} ${FLOAT[op]} ${asFloat(rt, b(), w)}`, w);
  }
  const bits = w * 8;
  // A shift's count is masked to the operand's bits (as x86 does); a constant one is written masked.
  const count = () => {
    const k = ctx.df.evaluate(e.b);
    return k.kind === 'const' && !k.ref
      ? String(BigInt.asUintN(64, k.v) & BigInt(bits - 1))
      : `(${fit(x(e.b), e.b.w, 4)} & ${bits === 64 ? 63 : 31})`;
  };
  switch (op) {
    case 'udiv':
      return wrap(`${a()} / ${b()}`);
    case 'urem':
      return wrap(`${a()} % ${b()}`);
    case 'sdiv':
      return `(${uType(w)})(${signedAs(a(), w)} / ${signedAs(b(), w)})`;
    case 'srem':
      return `(${uType(w)})(${signedAs(a(), w)} % ${signedAs(b(), w)})`;
    case 'shl':
      return `(${uType(w)})(${narrow ? `(unsigned)${a()}` : a()} << ${count()})`;
    case 'shr':
      return `(${uType(w)})(${a()} >> ${count()})`;
    case 'sar':
      return `(${uType(w)})(${signedAs(a(), w)} >> ${count()})`;
    case 'rol':
    case 'ror':
      rt.use(op === 'rol' ? 'rotl' : 'rotr');
      return `(${uType(w)})bl_${op === 'rol' ? 'rotl' : 'rotr'}(${a()}, ${count()}, ${bits})`;
    case 'deposit': {
      if (w === 16) {
        if (e.b.w === 16) return x(e.b);
        if (e.b.w !== 4 && e.b.w !== 8) throw new Unsupported(`a ${e.b.w}-byte deposit into a vector`);
        rt.use(e.b.w === 4 ? 'dep32' : 'dep64');
        return `bl_dep${e.b.w * 8}(${x(e.a)}, ${x(e.b)})`;
      }
      const keep = mask(w) ^ mask(e.b.w);
      return `(${uType(w)})((${a()} & ${constant(keep, w)}) | ${fit(x(e.b), e.b.w, w)})`;
    }
    default:
      throw new Unsupported(`the ${op} operation`);
  }
}

function unaryC(ctx: Context, e: Extract<Expr, { k: 'un' }>, x: (a: Expr) => string): string {
  const { w, op } = e;
  const rt = ctx.program.runtime;
  const from = e.a.w;
  switch (op) {
    case 'neg':
      return `(${uType(w)})(0u - ${fit(x(e.a), from, w)})`;
    case 'not':
      if (w === 16) {
        rt.use('vnot');
        return `bl_vnot(${x(e.a)})`;
      }
      return `(${uType(w)})~${fit(x(e.a), from, w)}`;
    case 'zext':
    case 'trunc': {
      const a = lowBits(e.a, w);
      return fit(x(a), a.w, w);
    }
    case 'sext':
      if (from === 16 || w === 16) throw new Unsupported('a vector sign extension');
      return `(${uType(w)})(${sType(w)})${signedAs(x(e.a), from)}`;
    case 'fneg':
      return asBits(rt, `-${asFloat(rt, fit(x(e.a), from, w), w)}`, w);
    case 'itof':
      return asBits(rt, `(${floatType(w)})(${sType(from)})${x(e.a)}`, w);
    case 'ftoi':
      return `(${uType(w)})(${sType(w)})${asFloat(rt, x(e.a), from)}`;
    case 'fconv':
      return asBits(rt, `(${floatType(w)})${asFloat(rt, x(e.a), from)}`, w);
  }
}
