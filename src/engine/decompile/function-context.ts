// What translating one function to C shares across its parts (function-c.ts, expressions.ts, calls.ts):
// the function's context, its prototype in the calling convention's terms, register variables, widths,
// and its parameters as the body reads them.
import type { DataFlow } from '../ir/dataflow.js';
import { forEachRegRead, type Expr } from '../ir/ir.js';
import type { CallingConvention } from '../ir/lifter.js';
import { definitionOf } from '../ir/ssa.js';
import type { CoarseClass } from '../types/index.js';
import { constant, operand, RESERVED, sType, uType, Unsupported } from './c-names.js';
import type { FrameLocals } from './frame-locals.js';
import type { JumpTable } from './jump-table.js';
import type { MergedFlags } from './merged-flags.js';
import type { RegisterParams } from './param-homes.js';
import type { Program } from './program.js';
import type { TypedAccess } from './typed-access.js';
import type { FunctionTyping } from './typing.js';

export interface ParamC {
  cls: CoarseClass;
  /** Bytes. */
  width: number;
  location: { kind: 'int' | 'float'; index: number } | { kind: 'stack'; offset: number };
}

export interface PrototypeC {
  returns: { cls: CoarseClass; width: number };
  params: ParamC[];
}

/** The C type of a coarse class of `width` bytes, as a declaration spells it. */
export function classType(cls: CoarseClass, width: number): string {
  switch (cls) {
    case 'void':
      return 'void';
    case 'pointer':
    case 'array':
    case 'function':
      return 'void *';
    case 'float32':
      return 'float';
    case 'float64':
      return 'double';
    case 'int8':
    case 'int16':
    case 'int32':
    case 'int64':
      return sType(Number(cls.slice(3)) / 8);
    case 'int128':
      // 16 bytes on the stack (a structure passed in memory, read as vectors): the output's 16-byte struct.
      return 'struct v128';
    default:
      throw new Unsupported(`a ${cls} of ${width} bytes passed by value`);
  }
}

export interface Context {
  df: DataFlow;
  program: Program;
  conv: CallingConvention;
  proto: PrototypeC;
  /** Names and types from the function's data types. */
  typing: FunctionTyping;
  /** The parameter an entry register holds, by register (integer and float argument registers). */
  paramAt: Map<number, number>;
  /**
   * The switches computed jumps were compiled from, by the jump's `block:stmt`, each with the addresses of
   * the instructions that computed the target from its index (written nowhere else: the switch states them).
   */
  tables: Map<string, JumpTable & { retired: number[] }>;
  /** Frame slots that are parameters' homes: the parameter's position by the slot's offset. */
  homes: Map<number, number>;
  /** Registers whose entry value the output reads from their variable (the rest read the parameter). */
  entryRead: Set<number>;
  /** Members and elements read through typed pointers. */
  access: TypedAccess;
  names: readonly string[];
  /** C width of each register's variables (the widest value any of its definitions writes). */
  varWidth: number[];
  /** The ARM family's flags (carry as "no borrow", its fcmp's nzcv). */
  arm: boolean;
  /**
   * Definitions written where their one use is instead of into a variable (`r:ver` → the expression), and
   * definitions nothing reads (not written at all).
   */
  inline: Map<string, Expr>;
  dead: Set<string>;
  locals: FrameLocals;
  /** Flags versions phis merge share the variables their operands are saved in: version → the class's least. */
  flagClass: Map<number, number>;
  /** Conditions on flags merged from operations of different shapes (merged-flags.ts). */
  merged: MergedFlags;
}

/** The variable of the register named `name`: its name, unless the output names something else so. */
const variableOf = (name: string) => (RESERVED.test(name) ? `reg_${name}` : name);

/** The names of a function's register variables. */
export const variables = (fn: { regs: { names: readonly string[] } }): Set<string> =>
  new Set(fn.regs.names.map(variableOf));

/**
 * A register's variable. Every version of a register shares it: SSA renaming followed the machine's own
 * order, so the latest assignment is the version each read means — except where propagation moved a read
 * past a new assignment, which propagation() refuses. Phis then need no copies.
 */
export const variable = (ctx: Context, r: number) => variableOf(ctx.names[r]!);

/**
 * The instructions a statement at `at` reading `reads` expresses as written: its own, and those of the
 * definitions written in place of what it reads (propagation), through theirs in turn.
 */
export function origins(ctx: Context, at: number, reads: readonly Expr[]): number[] {
  const out = [at];
  const visit = (e: Expr): void =>
    forEachRegRead(e, (r) => {
      const inlined = ctx.inline.get(`${r.r}:${r.ver}`);
      if (!inlined) return;
      const def = definitionOf(ctx.df.ssa, r.r, r.ver);
      if (def) out.push(def.at);
      visit(inlined);
    });
  reads.forEach(visit);
  return out;
}

/** The expression under `e`'s widenings and narrowings whose low `w` bytes are `e`'s (none narrower than `w`). */
export function lowBits(e: Expr, w: number): Expr {
  while (e.k === 'un' && (e.op === 'zext' || e.op === 'trunc') && e.a.w >= w && e.w >= w) e = e.a;
  return e;
}

/** A register carrying a narrower integer, read at its class's width (what the cast to it keeps anyway). */
export function narrowed(e: Expr, cls: CoarseClass): Expr {
  const w = ({ int8: 1, int16: 2, int32: 4 } as Partial<Record<CoarseClass, number>>)[cls];
  return w !== undefined && e.k === 'reg' && w < e.w ? { ...e, w } : e;
}

// ---- parameters as the body reads them ----------------------------------------------------------------

/** Each parameter's register and width, by position (null: passed on the stack). */
export function registerParams(proto: PrototypeC, conv: CallingConvention): RegisterParams {
  return proto.params.map((p) => {
    const loc = p.location;
    if (loc.kind === 'stack') return null;
    return { r: (loc.kind === 'int' ? conv.intArgs : conv.floatArgs)[loc.index]!, width: p.width };
  });
}

/** Which parameter each argument register holds on entry, by register. */
export const paramRegisters = (proto: PrototypeC, conv: CallingConvention): Map<number, number> =>
  new Map(registerParams(proto, conv).flatMap((p, i) => (p ? [[p.r, i] as const] : [])));

/**
 * A `w`-byte read of an argument register's entry value as the parameter itself (the C parameter is never
 * assigned, so it holds that value wherever the register still does); null where the read is wider.
 */
export function paramRead(ctx: Context, r: number, w: number): string | null {
  const i = ctx.paramAt.get(r);
  return i === undefined ? null : paramValue(ctx, i, w);
}

/** Parameter `i`'s value read at `w` bytes, as the width's unsigned type; null where it is narrower. */
export function paramValue(ctx: Context, i: number, w: number): string | null {
  const p = ctx.proto.params[i]!;
  const { name, type } = ctx.typing.params[i]!;
  if (p.cls === 'float32' || p.cls === 'float64') {
    if (w !== p.width) return null;
    ctx.program.runtime.use(`b${w * 8}`);
    return `bl_b${w * 8}(${name})`;
  }
  if (w > p.width || (p.cls !== 'pointer' && !/^int(8|16|32|64)$/.test(p.cls))) return null;
  const full = type
    ? type.read(name)
    : p.cls === 'pointer'
      ? `(${uType(p.width)})(uintptr_t)${name}`
      : `(${uType(p.width)})${name}`;
  return fit(full, p.width, w);
}

/** The parameter (by position) whose home a `w`-byte access at `addr` is (param-homes.ts). */
export function homeAt(ctx: Context, addr: Expr, w: number): number | undefined {
  const v = ctx.df.evaluate(addr);
  const i = v.kind === 'sp' ? ctx.homes.get(v.off) : undefined;
  return i !== undefined && ctx.proto.params[i]!.width === w ? i : undefined;
}

/** An address (an integer expression) as a pointer: a named global or function is one already. */
export function pointer(address: string): string {
  const named = /^\(uint64_t\)\(uintptr_t\)(\w+)$/.exec(address);
  return named ? named[1]! : `(uintptr_t)(${address})`;
}

/** `text`, a value of `from` bytes, as one of `to` bytes. */
export function fit(text: string, from: number, to: number): string {
  if (from === to) return text;
  // A literal is written at the width wanted.
  const lit = /^(0x[0-9a-f]+|\d+)(u|ull)$/.exec(text);
  if (lit && to <= 8) return constant(BigInt(lit[1]!), to);
  if (to === 16) return from === 16 ? text : `((struct v128){${text}, 0})`;
  if (from === 16) return `(${uType(to)})${operand(text)}.lo`;
  return `(${uType(to)})${operand(text)}`;
}
