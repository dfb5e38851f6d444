// Calls and returns as C: to the binary's functions by name with their prototype, to library functions with
// the prototype database's parameters (a variadic one's unnamed arguments counted from its format), through
// pointers with every integer argument register; results into the return registers' variables.
import { bin, konst, load, type Expr, type Stmt } from '../ir/ir.js';
import type { CallingConvention } from '../ir/lifter.js';
import { coarseClass, type CoarseClass, type Prototype } from '../types/index.js';
import type { KnownPrototype } from '../types/prototypes/index.js';
import { signedAs, uType, Unsupported } from './c-names.js';
import { exprC } from './expressions.js';
import { formatArguments } from './format-arguments.js';
import { classType, narrowed, variable, type Context, type ParamC, type PrototypeC } from './function-context.js';

export function returnC(ctx: Context, s: Extract<Stmt, { k: 'ret' }>): string {
  const r = ctx.proto.returns;
  if (r.cls === 'void') return 'return;';
  const [intRet, floatRet] = s.reads;
  return `return ${valueAs(ctx, r.cls, r.width, intRet, floatRet)};`;
}

/** The value a function returns (or passes) of class `cls`, from the registers that carry it. */
function valueAs(
  ctx: Context,
  cls: CoarseClass,
  width: number,
  int: Expr | undefined,
  float: Expr | undefined,
): string {
  const rt = ctx.program.runtime;
  if (cls === 'float64' || cls === 'float32') {
    if (!float) throw new Unsupported('a floating-point value where the convention has no register for it');
    rt.use(cls === 'float64' ? 'f64' : 'f32');
    return cls === 'float64'
      ? `bl_f64(${exprC(ctx, { ...float, w: 8 } as Expr)})`
      : `bl_f32(${exprC(ctx, { ...float, w: 4 } as Expr)})`;
  }
  if (!int) throw new Unsupported('an integer value where the convention has no register for it');
  const v = exprC(ctx, narrowed(int, cls));
  if (cls === 'pointer' || cls === 'array' || cls === 'function') return `(void *)(uintptr_t)${v}`;
  return asClass(cls, width, v);
}

/** `v`, an unsigned value, as class `cls`'s type (an integer class's signed type). */
function asClass(cls: CoarseClass, width: number, v: string): string {
  if (cls === 'int128') return v;
  return /^int(8|16|32|64)$/.test(cls) ? signedAs(v, Number(cls.slice(3)) / 8) : `(${classType(cls, width)})${v}`;
}

export function callC(ctx: Context, s: Extract<Stmt, { k: 'call' }>): string[] {
  const { df, program, conv } = ctx;
  const { fn } = df.ssa;
  const word = fn.regs.addressSize;
  const target = s.target.k === 'const' ? Number(BigInt.asUintN(word * 8, s.target.v)) : null;
  const slot =
    s.target.k === 'load' && s.target.addr.k === 'const' ? Number(BigInt.asUintN(word * 8, s.target.addr.v)) : null;
  const lib = target !== null ? program.libraryAt(target) : slot !== null ? program.libraryAt(slot) : null;
  const fi = target !== null ? program.functionAt(target) : -1;
  let callee: string;
  let proto: PrototypeC;
  if (lib) {
    program.libraryCalls.add(lib.name);
    if (lib.name === '__stack_chk_fail') return ['abort();'];
    callee = lib.name;
    proto = lib.known
      ? libraryPrototype(lib.known.prototype, conv, unnamedArguments(ctx, s, lib))
      : variadicWords(conv);
  } else if (fi >= 0 && !program.imports.has(target!)) {
    callee = program.need(fi);
    const sig = program.signatures[fi];
    if (!sig) throw new Unsupported(`a call to ${callee}, whose prototype is unknown`);
    proto = sig;
  } else {
    // Through a pointer: the integer argument registers, the integer result.
    callee = `((uint64_t (*)(${conv.intArgs.map(() => 'uint64_t').join(', ')}))(uintptr_t)(${exprC(ctx, s.target)}))`;
    proto = variadicWords(conv);
  }
  const args = proto.params.map((p) => argumentC(ctx, s, p));
  const call = `${callee}(${args.join(', ')})`;
  if (s.tail) {
    const own = ctx.proto.returns;
    if (own.cls === 'void' || proto.returns.cls === 'void') return [`${call};`, 'return;'];
    return [`return (${classType(own.cls, own.width)})${castResult(call, proto.returns.cls, own.cls)};`];
  }
  const ret = proto.returns;
  if (ret.cls === 'void') return [`${call};`];
  const isFloat = ret.cls === 'float64' || ret.cls === 'float32';
  const r = isFloat ? conv.floatReturn : conv.intReturn;
  const i = r === null ? -1 : s.writes.indexOf(r);
  if (i < 0 || s.vers[i]! <= 0) return [`${call};`];
  const dst = variable(ctx, r!);
  const rt = program.runtime;
  if (ret.cls === 'float64') {
    rt.use('b64');
    return [`${dst} = (struct v128){bl_b64(${call}), 0};`];
  }
  if (ret.cls === 'float32') {
    rt.use('b32');
    return [`${dst} = (struct v128){bl_b32(${call}), 0};`];
  }
  const w = ctx.varWidth[r!]!;
  if (ret.cls === 'pointer') return [`${dst} = (${uType(w)})(uintptr_t)${call};`];
  return [`${dst} = (${uType(w)})${call};`];
}

function castResult(call: string, from: CoarseClass, to: CoarseClass): string {
  const ptr = (c: CoarseClass) => c === 'pointer' || c === 'array' || c === 'function';
  if (ptr(from) && !ptr(to)) return `(uintptr_t)${call}`;
  if (!ptr(from) && ptr(to)) return `(uintptr_t)${call}`;
  return call;
}

/** An argument of the call, from where the convention passes it, as the callee's parameter type. */
function argumentC(ctx: Context, s: Extract<Stmt, { k: 'call' }>, p: ParamC): string {
  const { conv } = ctx;
  const loc = p.location;
  const word = ctx.df.ssa.fn.regs.addressSize;
  const rt = ctx.program.runtime;
  if (loc.kind === 'stack') {
    // The callee reads it above its return address: at the caller's stack pointer + (offset - a word).
    const sp = s.args[s.args.length - 1]!;
    const at = load(bin('add', sp, konst(loc.offset - word, sp.w)), p.width);
    const v = exprC(ctx, at);
    if (p.cls === 'float32' || p.cls === 'float64') {
      rt.use(p.cls === 'float32' ? 'f32' : 'f64');
      return `bl_f${p.width * 8}(${v})`;
    }
    if (p.cls === 'pointer' || p.cls === 'array' || p.cls === 'function') return `(void *)(uintptr_t)${v}`;
    return asClass(p.cls, p.width, v);
  }
  if (loc.kind === 'float') {
    const x = s.args[conv.intArgs.length + loc.index];
    if (!x) throw new Unsupported('a floating-point argument beyond the registers');
    rt.use(p.cls === 'float32' ? 'f32' : 'f64');
    return p.cls === 'float32'
      ? `bl_f32(${exprC(ctx, { ...x, w: 4 } as Expr)})`
      : `bl_f64(${exprC(ctx, { ...x, w: 8 } as Expr)})`;
  }
  const x = s.args[loc.index];
  if (!x) throw new Unsupported('an argument beyond the registers');
  const v = exprC(ctx, narrowed(x, p.cls));
  if (p.cls === 'pointer' || p.cls === 'array' || p.cls === 'function')
    // A literal or a function's address is a pointer already, a pointer parameter or local one of its own type.
    return /^\(uint64_t\)\(uintptr_t\)("|&\w+$)/.test(v)
      ? v.slice('(uint64_t)(uintptr_t)'.length)
      : /^\(uint(32|64)_t\)\(uintptr_t\)\w+$/.test(v)
        ? `(void *)${v.slice(v.lastIndexOf(')') + 1)}`
        : `(void *)(uintptr_t)${v}`;
  return asClass(p.cls, p.width, v);
}

/**
 * The unnamed arguments a call to a variadic library function passes, when its last named argument is a
 * format string in read-only data that says (printf's and scanf's families); null otherwise.
 */
function unnamedArguments(
  ctx: Context,
  s: Extract<Stmt, { k: 'call' }>,
  lib: { name: string; known: KnownPrototype | null },
): number | null {
  const p = lib.known?.prototype;
  if (!p?.variadic || !p.params.length || coarseClass(p.params[p.params.length - 1]!.type) !== 'pointer') return null;
  const ints = p.params.filter((x) => !['float32', 'float64'].includes(coarseClass(x.type))).length;
  const arg = s.args[ctx.conv.positional ? p.params.length - 1 : ints - 1];
  const v = arg && ctx.df.evaluate(arg);
  if (v?.kind !== 'const') return null;
  const format = ctx.program.stringAt(Number(BigInt.asUintN(ctx.df.ssa.fn.regs.addressSize * 8, v.v)));
  return format === null ? null : formatArguments(format, lib.name.includes('scanf'));
}

/**
 * A library prototype in the convention's registers: integers and pointers in order, floats apart; a
 * variadic one's unnamed arguments are `unnamed` integers, or every integer register left when unknown.
 */
function libraryPrototype(p: Prototype, conv: CallingConvention, unnamed: number | null = null): PrototypeC {
  let ints = 0;
  let floats = 0;
  let stack = 0;
  const params: ParamC[] = p.params.map((x) => {
    const cls = coarseClass(x.type);
    const width = cls === 'float32' ? 4 : cls === 'int8' ? 1 : cls === 'int16' ? 2 : cls === 'int32' ? 4 : 8;
    const float = cls === 'float32' || cls === 'float64';
    const index = float ? floats++ : ints++;
    const regs = float ? conv.floatArgs : conv.intArgs;
    const location: ParamC['location'] =
      index < regs.length && !conv.positional
        ? { kind: float ? 'float' : 'int', index }
        : { kind: 'stack', offset: conv.stackArgsAt + conv.stackSlot * stack++ };
    return { cls, width, location };
  });
  // Unnamed arguments beyond the registers, or floats (passed in vector registers), are not counted yet.
  const left = conv.intArgs.length - ints;
  if (p.variadic)
    for (let i = 0; i < (unnamed !== null && unnamed <= left ? unnamed : left); i++)
      params.push({ cls: 'int64', width: 8, location: { kind: 'int', index: ints + i } });
  const rc = coarseClass(p.returns);
  return {
    returns: { cls: rc, width: rc === 'float32' || rc === 'int32' ? 4 : rc === 'int8' ? 1 : rc === 'int16' ? 2 : 8 },
    params,
  };
}

/** A callee known only by its address: every integer argument register in, the integer result out. */
function variadicWords(conv: CallingConvention): PrototypeC {
  return {
    returns: { cls: 'int64', width: 8 },
    params: conv.intArgs.map((_, index) => ({ cls: 'int64', width: 8, location: { kind: 'int', index } })),
  };
}
