// One function in SSA form → C that computes exactly what the machine code does: every SSA value is a
// variable of its register's width, each statement an assignment, loads and stores through pointers, the
// flags as the operands of the operation that set them, phis as copies on the edges into their block, and
// the frame a local array the stack pointer points into. Calls go to the callee by name with the arguments
// its prototype takes. The blocks are nested into loops and conditionals by structure.ts.
import { forEachLoad, type DataFlow } from '../ir/dataflow.js';
import { definitionOf } from '../ir/ssa.js';
import { bin, forEachRegRead, konst, load, type Cond, type Expr, type IrBlock, type Stmt } from '../ir/ir.js';
import type { CallingConvention } from '../ir/lifter.js';
import type { CoarseClass, Prototype } from '../types/index.js';
import { coarseClass } from '../types/index.js';
import type { KnownPrototype } from '../types/prototypes/index.js';
import { constant, mask, RESERVED, sType, uType, Unsupported } from './c-names.js';
import { condition, type FlagsSource } from './conditions.js';
import { dropUnread, identifiers, printC, simplify, type CStmt } from './c-tree.js';
import type { Program } from './program.js';
import { isPacked, type Helper } from './runtime.js';
import { structure, type BlockExit, type FlowGraph } from './structure.js';
import { frameLocals, type FrameLocals } from './frame-locals.js';
import { formatArguments } from './format-arguments.js';
import { jumpTable } from './jump-table.js';
import { structPointers, UNKNOWN } from './struct-pointers.js';
import { declareAs, type FunctionTyping, type ValueC } from './typing.js';

/** Bytes below the deepest frame offset the code reaches that the frame array keeps (the red zone and more). */
const FRAME_SLACK = 256;
/** A frame whose stack pointer moves by amounts only known at run time (alloca, VLAs) gets this much. */
const DYNAMIC_FRAME = 1 << 20;

const NO_LOCALS: FrameLocals = { at: () => null, declared: new Map(), typed: new Map() };

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
    default:
      throw new Unsupported(`a ${cls} of ${width} bytes passed by value`);
  }
}

/** The function's declaration: its data types' names and types where they fit the code, else its classes'. */
export function declaration(name: string, p: PrototypeC, typing: FunctionTyping | null): string {
  const params = p.params
    .map((x, i) => {
      const typed = typing?.params[i];
      const pname = typed?.name ?? `a${i + 1}`;
      return declareAs(typed?.type?.spelled ?? classType(x.cls, x.width), pname);
    })
    .join(', ');
  const returns = typing?.returns ? typing.returns.spelled : classType(p.returns.cls, p.returns.width);
  return `${declareAs(returns, name)}(${params || 'void'})`;
}

interface Context {
  df: DataFlow;
  program: Program;
  conv: CallingConvention;
  proto: PrototypeC;
  /** Names and types from the function's data types. */
  typing: FunctionTyping;
  /** The parameter an entry register holds, by register (integer and float argument registers). */
  paramAt: Map<number, number>;
  /** The structure each register version (`r:ver`) that points to one points to, once asked. */
  pointers?: Map<string, string>;
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
}

/** The function's C definition. Throws Unsupported when the code uses what the output cannot express yet. */
export function functionC(
  df: DataFlow,
  program: Program,
  conv: CallingConvention,
  name: string,
  proto: PrototypeC,
  typing: FunctionTyping,
): string {
  const { fn } = df.ssa;
  const arch = program.image.identity.architecture;
  const arm = arch === 'arm' || arch === 'arm64';
  const ctx: Context = {
    df,
    program,
    conv,
    proto,
    typing,
    paramAt: paramRegisters(proto, conv),
    names: fn.regs.names,
    varWidth: variableWidths(df),
    arm,
    inline: new Map(),
    dead: new Set(),
    locals: NO_LOCALS,
    flagClass: flagClasses(df),
  };
  propagation(ctx);
  ctx.locals = frameLocals(df, (s) => s.k !== 'set' || !ctx.dead.has(`${s.r}:${s.ver}`), typing.locals);
  if (fn.undecoded) throw new Unsupported(`${fn.undecoded} undecoded instructions`);
  const body = printC(simplify(dropUnread(structure(flowGraph(ctx, new Set(df.ssa.order))))));
  return [`${declaration(name, proto, typing)} {`, ...prologue(ctx, body.join('\n')), ...body, '}'].join('\n');
}

/**
 * Expression propagation: a value used once, later in its own block, is written at its use, unless it
 * reads memory and a store, call or effect comes between (it could change what the load reads); a value
 * nothing reads is not written. Phi operands and the stack pointer stay variables.
 */
function propagation(ctx: Context): void {
  const { df } = ctx;
  const { fn } = df.ssa;
  deadPhis(ctx);
  const sites = new Map<string, { block: number; from: number; to: number }>();
  for (const b of fn.blocks)
    b.stmts.forEach((s, i) => {
      if (s.k !== 'set' || s.ver <= 0 || s.r === fn.regs.sp) return;
      const key = `${s.r}:${s.ver}`;
      if (df.phiUsers(s.r, s.ver).some((v) => !ctx.dead.has(`${s.r}:${v}`))) return;
      const uses = df.uses(s.r, s.ver);
      if (!uses.length) {
        ctx.dead.add(key);
        return;
      }
      if (uses.length !== 1 || uses[0]!.block !== fn.blocks.indexOf(b) || uses[0]!.stmt <= i) return;
      // A conditional compare's flags stay saved: its condition and fallback are read apart.
      if (s.r === fn.regs.flags && savedFlags(s.e)?.c) return;
      if (readsMemory(s.e) && b.stmts.slice(i + 1, uses[0]!.stmt).some(writesMemory)) return;
      ctx.inline.set(key, s.e);
      sites.set(key, { block: uses[0]!.block, from: i, to: uses[0]!.stmt });
    });
  // An expression written at its use reads its registers there: not if one of them is assigned between.
  for (let changed = true; changed;) {
    changed = false;
    for (const [key, e] of ctx.inline) {
      const { block, from, to } = sites.get(key)!;
      const read = registersRead(ctx, e);
      const between = fn.blocks[block]!.stmts.slice(from + 1, to);
      if (!between.some((s) => assigns(ctx, s, read))) continue;
      ctx.inline.delete(key);
      changed = true;
    }
  }
}

/** Whether the C of statement `s` assigns the variable of one of `regs`. */
function assigns(ctx: Context, s: Stmt, regs: Set<number>): boolean {
  if (s.k === 'set') return regs.has(s.r) && !ctx.inline.has(`${s.r}:${s.ver}`) && !ctx.dead.has(`${s.r}:${s.ver}`);
  return (s.k === 'call' || s.k === 'effect') && s.writes.some((r) => regs.has(r));
}

/** Registers `e` reads as written out: through the expressions written in place of what it reads. */
function registersRead(ctx: Context, e: Expr, out = new Set<number>()): Set<number> {
  forEachRegRead(e, (r) => {
    const inner = ctx.inline.get(`${r.r}:${r.ver}`);
    if (inner) registersRead(ctx, inner, out);
    else out.add(r.r);
  });
  return out;
}

/** Phis whose value nothing but dead phis reads (a loop-carried copy of a value never used) are dead. */
function deadPhis(ctx: Context): void {
  const { df } = ctx;
  const phis = new Map<string, Extract<Stmt, { k: 'phi' }>>();
  for (const b of df.ssa.fn.blocks) for (const s of b.stmts) if (s.k === 'phi') phis.set(`${s.r}:${s.ver}`, s);
  const live = new Set<string>();
  const work = [...phis].filter(([, s]) => df.uses(s.r, s.ver).length).map(([k]) => k);
  work.forEach((k) => live.add(k));
  while (work.length) {
    const s = phis.get(work.pop()!)!;
    for (const v of s.args) {
      const k = `${s.r}:${v}`;
      if (phis.has(k) && !live.has(k)) {
        live.add(k);
        work.push(k);
      }
    }
  }
  for (const k of phis.keys()) if (!live.has(k)) ctx.dead.add(k);
}

function readsMemory(e: Expr): boolean {
  let found = false;
  forEachLoad(e, () => (found = true));
  return found;
}

const writesMemory = (s: Stmt) => s.k === 'store' || s.k === 'call' || s.k === 'effect';

/** Each register's variable width: its definitions' widest value (a register's versions share one type). */
function variableWidths(df: DataFlow): number[] {
  const { fn } = df.ssa;
  const w = fn.regs.widths.map((x) => (x > 16 ? 0 : x));
  for (const b of fn.blocks) for (const s of b.stmts) if (s.k === 'set') w[s.r] = Math.max(w[s.r] ?? 0, s.e.w);
  return w.map((x) => (x > 8 && x < 16 ? 16 : x === 3 ? 4 : x > 4 && x < 8 ? 8 : x));
}

/** The names of a function's register variables. */
export const variables = (fn: { regs: { names: readonly string[] } }): Set<string> =>
  new Set(fn.regs.names.map((n) => (RESERVED.test(n) ? `reg_${n}` : n)));

/**
 * A register's variable. Every version of a register shares it: SSA renaming followed the machine's own
 * order, so the latest assignment is the version each read means — except where propagation moved a read
 * past a new assignment, which propagation() refuses. Phis then need no copies.
 */
const variable = (ctx: Context, r: number) => {
  const name = ctx.names[r]!;
  return RESERVED.test(name) ? `reg_${name}` : name;
};

/**
 * Declarations of what `body` uses — register variables, frame locals, saved flags operands, the frame
 * array the stack pointer points into — and the entry values: parameters into their registers.
 */
function prologue(ctx: Context, body: string): string[] {
  const { df, program, conv } = ctx;
  const { fn } = df.ssa;
  const used = new Set(identifiers(body));
  const sp = variable(ctx, fn.regs.sp);
  // Stack parameters are copied into the frame where the code reads them.
  if (ctx.proto.params.some((p) => p.location.kind === 'stack')) used.add(sp);
  const vars = new Map<string, number>();
  fn.regs.names.forEach((_, r) => {
    const v = variable(ctx, r);
    if (r !== fn.regs.flags && used.has(v)) vars.set(v, ctx.varWidth[r] || fn.regs.addressSize);
  });
  const data = program.dataNames();
  const lines: string[] = [...used].some((n) => data.has(n)) ? ['  bl_init();'] : [];
  const byType = new Map<string, string[]>();
  for (const [v, w] of [...vars, ...[...ctx.locals.declared].filter(([n]) => used.has(n))]) {
    const typed = ctx.locals.typed.get(v);
    if (typed) {
      typed.helpers.forEach((h) => program.runtime.use(h));
      lines.push(`  ${declareAs(typed.spelled, v)} = 0;`);
      continue;
    }
    const t = uType(w);
    if (w === 16) program.runtime.use('v128');
    let list = byType.get(t);
    if (!list) byType.set(t, (list = []));
    list.push(`${v} = ${w === 16 ? '{0}' : '0'}`);
  }
  for (const [t, list] of byType) lines.push(`  ${t} ${list.join(', ')};`);
  // Flags: the two operands of the operation that set them, by version (merged versions share them).
  const declared = new Set<number>();
  for (const b of fn.blocks)
    for (const s of b.stmts) {
      const saved = s.k === 'set' && s.r === fn.regs.flags ? savedFlags(s.e) : null;
      const v = s.k === 'set' ? flagVar(ctx, s.ver) : -1;
      if (!saved || !used.has(`fa_${v}`) || declared.has(v)) continue;
      declared.add(v);
      const { a, b: bb } = saved.flags;
      lines.push(`  ${uType(a.w)} fa_${v} = 0; ${uType(bb.w)} fb_${v} = 0;${saved.c ? ` int fc_${v} = 0;` : ''}`);
    }
  if (vars.has(sp)) {
    const { depth, stackArgs } = frameSize(ctx);
    const size = depth + fn.regs.addressSize + stackArgs * conv.stackSlot + 16;
    lines.push(`  _Alignas(16) uint8_t bl_frame[${size}];`);
    lines.push(`  ${sp} = (${uType(fn.regs.addressSize)})(uintptr_t)(bl_frame + ${depth});`);
  }
  const fs = fn.regs.names.indexOf('fs_base');
  if (fs >= 0 && vars.has(variable(ctx, fs))) {
    lines.push(`  static _Alignas(16) uint8_t bl_tls[256];`);
    lines.push(`  ${variable(ctx, fs)} = (uint64_t)(uintptr_t)bl_tls;`);
  }
  ctx.proto.params.forEach((p, i) => lines.push(...paramEntry(ctx, p, ctx.typing.params[i]!.name, vars)));
  return lines;
}

/** Frame bytes below the entry stack pointer (`depth`, kept ≡ 8 mod 16 so the entry is aligned as a call leaves it). */
function frameSize(ctx: Context): { depth: number; stackArgs: number } {
  const { df } = ctx;
  const { fn } = df.ssa;
  let low = 0;
  let dynamic = false;
  for (const a of df.slots) low = Math.min(low, a.off);
  for (const b of fn.blocks)
    for (const s of b.stmts) {
      if (s.k !== 'set' || s.r !== fn.regs.sp) continue;
      const v = df.valueOf(s.r, s.ver);
      if (v.kind === 'sp') low = Math.min(low, v.off);
      else dynamic = true;
    }
  const stackArgs = ctx.proto.params.filter((p) => p.location.kind === 'stack').length + 1;
  const depth = Math.ceil((-low + FRAME_SLACK + (dynamic ? DYNAMIC_FRAME : 0)) / 16) * 16 + 8;
  return { depth, stackArgs };
}

/** A parameter's value into the register (or stack slot) the convention passes it in. */
function paramEntry(ctx: Context, p: ParamC, name: string, vars: Map<string, number>): string[] {
  const { fn } = ctx.df.ssa;
  const loc = p.location;
  if (loc.kind === 'stack') {
    const v = variable(ctx, fn.regs.sp);
    return [`  memcpy((void *)(uintptr_t)(${v} + ${loc.offset}), &${name}, sizeof ${name});`];
  }
  const r = loc.kind === 'int' ? ctx.conv.intArgs[loc.index]! : ctx.conv.floatArgs[loc.index]!;
  const v = variable(ctx, r);
  if (!vars.has(v)) return [];
  const rt = ctx.program.runtime;
  if (p.cls === 'float64') {
    rt.use('b64');
    return [`  ${v} = (struct v128){bl_b64(${name}), 0};`];
  }
  if (p.cls === 'float32') {
    rt.use('b32');
    return [`  ${v} = (struct v128){bl_b32(${name}), 0};`];
  }
  const w = vars.get(v)!;
  if (p.cls === 'pointer' || p.cls === 'array' || p.cls === 'function')
    return [`  ${v} = (${uType(w)})(uintptr_t)${name};`];
  // Callers extend narrow integers to 32 bits (clang relies on it); the upper half is the callee's to ignore.
  return [`  ${v} = (${uType(w)})(${p.width < 4 ? `(int32_t)${name}` : name});`];
}

const label = (b: IrBlock, bi: number) => `L${bi}_${b.start.toString(16)}`;

/** The function's blocks as the structurer sees them: statements and how each leaves. */
function flowGraph(ctx: Context, reachable: Set<number>): FlowGraph {
  const { fn } = ctx.df.ssa;
  const succ = fn.blocks.map((b) => b.succ.filter((x) => reachable.has(x)));
  const pred = fn.blocks.map((b) => b.pred.filter((x) => reachable.has(x)));
  const translated = new Map<number, { body: CStmt[]; exit: BlockExit }>();
  const of = (bi: number) => {
    let t = translated.get(bi);
    if (!t) translated.set(bi, (t = blockC(ctx, bi, succ[bi]!)));
    return t;
  };
  return {
    count: fn.blocks.length,
    entry: 0,
    succ: (b) => succ[b]!,
    pred: (b) => pred[b]!,
    body: (b) => of(b).body,
    exit: (b) => of(b).exit,
    label: (b) => label(fn.blocks[b]!, b),
  };
}

/** A block's statements in C and how it leaves. */
function blockC(ctx: Context, bi: number, succ: readonly number[]): { body: CStmt[]; exit: BlockExit } {
  const { fn } = ctx.df.ssa;
  const b = fn.blocks[bi]!;
  const body: CStmt[] = [];
  for (const [si, s] of b.stmts.entries()) {
    if (s.k === 'phi') continue;
    if (s.k === 'branch') {
      const taken = succ.find((x) => fn.blocks[x]!.start !== b.end) ?? succ[0];
      const fall = succ.find((x) => x !== taken) ?? taken;
      if (taken === undefined)
        return { body: [...body, { k: 'line', text: 'abort();', ends: true }], exit: { k: 'end' } };
      const cond = s.c.k === 'cond' ? condC(ctx, s.c.cc, s.c.flags) : exprC(ctx, s.c);
      return { body, exit: { k: 'branch', cond, taken, fall: fall! } };
    }
    if (s.k === 'jump') {
      if (s.target.k === 'const' && succ.length === 1) return { body, exit: { k: 'next' } };
      // A table read at an index: the switch it was compiled from.
      const starts = new Map(succ.map((x) => [fn.blocks[x]!.start, x]));
      const usable = (r: number, ver: number) => !ctx.inline.has(`${r}:${ver}`) && !ctx.dead.has(`${r}:${ver}`);
      const table = jumpTable(ctx.df, ctx.program.image, { block: bi, stmt: si }, s.target, starts, usable);
      if (table) {
        const cases = [...table.cases].map(([to, values]) => ({ values, to }));
        return { body, exit: { k: 'table', value: exprC(ctx, table.index), cases } };
      }
      // A computed jump (a switch's table): the target compared with each successor's address, as it is or
      // as computed from a data copy's base.
      const deltas = ['0', ...ctx.program.copyDeltas()];
      const pre: CStmt[] = [{ k: 'line', text: `uint64_t t = ${exprC(ctx, s.target)};` }];
      const cases = succ.map((to) => {
        const at = `${fn.blocks[to]!.start}ull`;
        return { test: deltas.map((d) => `t == ${at} + ${d}`).join(' || '), to };
      });
      return { body, exit: { k: 'switch', pre, cases } };
    }
    const lines = stmtC(ctx, s);
    // An assignment of a register's variable or a local can go if nothing reads what it writes.
    const assigns =
      s.k === 'set' && s.r !== fn.regs.flags
        ? variable(ctx, s.r)
        : s.k === 'store'
          ? (ctx.locals.at(s.addr, s.w) ?? undefined)
          : undefined;
    if (lines.length) body.push({ k: 'line', text: lines.join('\n'), ...(assigns ? { assigns } : {}) });
    if (s.k === 'ret' || (s.k === 'call' && s.tail)) {
      body[body.length - 1] = { k: 'line', text: lines.join('\n'), ends: true };
      return { body, exit: { k: 'end' } };
    }
  }
  return { body, exit: { k: 'next' } };
}

function stmtC(ctx: Context, s: Stmt): string[] {
  const { fn } = ctx.df.ssa;
  switch (s.k) {
    case 'set':
      if (ctx.inline.has(`${s.r}:${s.ver}`) || ctx.dead.has(`${s.r}:${s.ver}`)) return [];
      if (s.r === fn.regs.flags) {
        const saved = savedFlags(s.e);
        if (!saved) return [];
        const v = flagVar(ctx, s.ver);
        const out = [`fa_${v} = ${exprC(ctx, saved.flags.a)};`, `fb_${v} = ${exprC(ctx, saved.flags.b)};`];
        return saved.c ? [...out, `fc_${v} = ${exprC(ctx, saved.c)};`] : out;
      }
      const vw = ctx.varWidth[s.r]!;
      return [`${variable(ctx, s.r)} = ${referenceOf(ctx, s.r, s.ver, vw) ?? fit(exprC(ctx, s.e), s.e.w, vw)};`];
    case 'store':
      return [memoryWrite(ctx, s.addr, s.w, fit(exprC(ctx, s.v), s.v.w, s.w))];
    case 'call':
      return callC(ctx, s);
    case 'ret':
      return [returnC(ctx, s)];
    case 'effect':
      return effectC(ctx, s);
    case 'branch':
    case 'jump':
    case 'phi':
      return [];
  }
}

/**
 * The effects the output can state: `rep stos` and `movs` as the loops they are (direction flag clear, as
 * the ABI says), each register they write set to where it ends.
 */
function effectC(ctx: Context, s: Extract<Stmt, { k: 'effect' }>): string[] {
  // A trap ends the program where the machine would fault.
  if (s.name === 'hlt' || s.name === 'ud2' || s.name === 'int3') return ['abort();'];
  const m = /^(rep_stos|movs)(\d)$/.exec(s.name);
  if (!m) throw new Unsupported(`the ${s.name} instruction`);
  const w = Number(m[2]);
  const t = uType(w);
  const [dst, a, b] = s.reads.map((e) => exprC(ctx, e));
  const [out, ends] =
    m[1] === 'movs'
      ? [
          [
            `{ uint64_t d = ${dst}, s = ${a}, n = ${b};`,
            `  for (; n; n--, d += ${w}, s += ${w}) *(${t} *)(uintptr_t)d = *(${t} *)(uintptr_t)s;`,
          ],
          ['d', 's', '0'],
        ]
      : [
          [`{ uint64_t d = ${dst}, n = ${a};`, `  for (; n; n--, d += ${w}) *(${t} *)(uintptr_t)d = ${b};`],
          ['d', '0'],
        ];
  s.writes.forEach((r, i) => {
    if (s.vers[i]! > 0) out.push(`  ${variable(ctx, r)} = ${ends[i]};`);
  });
  return [...out, '}'];
}

/**
 * A value data flow knows to be an address an instruction formed (adrp + add across instructions), inside
 * the image: as the output's pointer to it (a string literal where that is what it is), `width` bytes wide.
 */
function referenceOf(ctx: Context, r: number, ver: number, width: number): string | null {
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

/** The expression under `e`'s widenings and narrowings whose low `w` bytes are `e`'s (none narrower than `w`). */
function lowBits(e: Expr, w: number): Expr {
  while (e.k === 'un' && (e.op === 'zext' || e.op === 'trunc') && e.a.w >= w && e.w >= w) e = e.a;
  return e;
}

/** A register carrying a narrower integer, read at its class's width (what the cast to it keeps anyway). */
function narrowed(e: Expr, cls: CoarseClass): Expr {
  const w = ({ int8: 1, int16: 2, int32: 4 } as Partial<Record<CoarseClass, number>>)[cls];
  return w !== undefined && e.k === 'reg' && w < e.w ? { ...e, w } : e;
}

// ---- typed values: parameters, locals, structure members ------------------------------------------------

/** Which parameter each argument register holds on entry, by register. */
function paramRegisters(proto: PrototypeC, conv: CallingConvention): Map<number, number> {
  const out = new Map<number, number>();
  proto.params.forEach((p, i) => {
    const loc = p.location;
    if (loc.kind === 'int') out.set(conv.intArgs[loc.index]!, i);
    else if (loc.kind === 'float') out.set(conv.floatArgs[loc.index]!, i);
  });
  return out;
}

/**
 * A `w`-byte read of an argument register's entry value as the parameter itself (the C parameter is never
 * assigned, so it holds that value wherever the register still does); null where the read is wider.
 */
function paramRead(ctx: Context, r: number, w: number): string | null {
  const i = ctx.paramAt.get(r);
  if (i === undefined) return null;
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

/** A `w`-byte load from `addr`: a local, a structure's member, else through the address. */
function memoryRead(ctx: Context, addr: Expr, w: number, x: (a: Expr) => string): string {
  const local = ctx.locals.at(addr, w);
  if (local) return ctx.locals.typed.get(local)?.read(local) ?? local;
  const field = fieldAt(ctx, addr, w);
  if (field) return field.type.read(field.text);
  return `*(${uType(w)} *)${pointer(x(addr))}`;
}

/** The statement storing `value` (of the width's unsigned type) in the `w` bytes at `addr`. */
function memoryWrite(ctx: Context, addr: Expr, w: number, value: string): string {
  const local = ctx.locals.at(addr, w);
  if (local) return `${local} = ${ctx.locals.typed.get(local)?.write(value) ?? value};`;
  const field = fieldAt(ctx, addr, w);
  if (field) return `${field.text} = ${field.type.write(value)};`;
  return `*(${uType(w)} *)${pointer(exprC(ctx, addr))} = ${value};`;
}

/** `addr` as a base and a constant offset from it. */
const split = (addr: Expr): [Expr, number] =>
  addr.k === 'bin' && addr.op === 'add' && addr.b.k === 'const'
    ? [addr.a, Number(BigInt.asIntN(addr.w * 8, addr.b.v))]
    : [addr, 0];

/** The member of structure `tag` a `w`-byte access at `off` is. */
function memberAt(ctx: Context, tag: string, off: number, w: number): { path: string; type: ValueC } | null {
  const f = ctx.program.typings.structs.get(tag)?.fields.get(off);
  return f && f.type.size === w ? f : null;
}

/** The member a `w`-byte access at `addr` is, when `addr` is a structure pointer plus a member's offset. */
function fieldAt(ctx: Context, addr: Expr, w: number): { text: string; type: ValueC } | null {
  const [base, off] = split(addr);
  const p = structPointer(ctx, base, 0);
  const f = p && memberAt(ctx, p.tag, off, w);
  return f ? { text: `${p.text}->${f.path}`, type: f.type } : null;
}

/** `e` as a C expression of type pointer to a laid-out structure, with the structure's tag; else null. */
function structPointer(ctx: Context, e: Expr, depth: number): { text: string; tag: string } | null {
  if (depth > 8) return null;
  if (e.k === 'load') {
    const local = ctx.locals.at(e.addr, e.w);
    const t = local ? ctx.locals.typed.get(local) : fieldAt(ctx, e.addr, e.w)?.type;
    const text = local ?? fieldAt(ctx, e.addr, e.w)?.text;
    return t?.points && text ? { text, tag: t.points } : null;
  }
  if (e.k !== 'reg') return null;
  const def = ctx.inline.get(`${e.r}:${e.ver}`);
  if (def) return structPointer(ctx, def, depth + 1);
  const i = e.ver === 0 ? ctx.paramAt.get(e.r) : undefined;
  if (i !== undefined) {
    const t = ctx.typing.params[i]!.type;
    return t?.points && e.w === t.size ? { text: ctx.typing.params[i]!.name, tag: t.points } : null;
  }
  // A register's variable holding one (a copy, a pointer loaded from a member): cast where it is read.
  const tag = e.w === ctx.varWidth[e.r] ? pointerVersions(ctx).get(`${e.r}:${e.ver}`) : undefined;
  return tag ? { text: `((struct ${tag} *)(uintptr_t)${variable(ctx, e.r)})`, tag } : null;
}

/** The register versions that point to laid-out structures (found once per function). */
function pointerVersions(ctx: Context): Map<string, string> {
  ctx.pointers ??= structPointers(ctx.df, {
    entry: (r) => {
      const i = ctx.paramAt.get(r);
      return (i === undefined ? null : ctx.typing.params[i]!.type?.points) ?? null;
    },
    loaded: (addr, w, tagOf) => {
      const local = ctx.locals.at(addr, w);
      if (local) return ctx.locals.typed.get(local)?.points ?? null;
      const [base, off] = split(addr);
      const tag = tagOf(base);
      return tag === null || tag === UNKNOWN ? tag : (memberAt(ctx, tag, off, w)?.type.points ?? null);
    },
  });
  return ctx.pointers;
}

/** An address (an integer expression) as a pointer: a named global or function is one already. */
function pointer(address: string): string {
  const named = /^\(uint64_t\)\(uintptr_t\)(\w+)$/.exec(address);
  return named ? named[1]! : `(uintptr_t)(${address})`;
}

/** `text`, a value of `from` bytes, as one of `to` bytes. */
function fit(text: string, from: number, to: number): string {
  if (from === to) return text;
  // A literal is written at the width wanted.
  const lit = /^(0x[0-9a-f]+|\d+)(u|ull)$/.exec(text);
  if (lit && to <= 8) return constant(BigInt(lit[1]!), to);
  if (to === 16) return from === 16 ? text : `((struct v128){${text}, 0})`;
  if (from === 16) return `(${uType(to)})(${text}).lo`;
  return `(${uType(to)})(${text})`;
}

function returnC(ctx: Context, s: Extract<Stmt, { k: 'ret' }>): string {
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
  return `(${classType(cls, width)})${v}`;
}

function callC(ctx: Context, s: Extract<Stmt, { k: 'call' }>): string[] {
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
    return `(${classType(p.cls, p.width)})${v}`;
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
  return `(${classType(p.cls, p.width)})${v}`;
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

// ---- expressions --------------------------------------------------------------------------------------

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
      return (e.ver === 0 ? paramRead(ctx, e.r, w) : null) ?? fit(variable(ctx, e.r), vw, w);
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
  const name = SAME_AS[e.name] ?? e.name;
  if (!OPS.has(name) || e.w > 8) throw new Unsupported(`the ${e.name} operation`);
  ctx.program.runtime.use(name as Helper);
  const args = e.args.map((a) => fit(x(a), a.w, e.w));
  const size = name === 'bswap' ? e.w : e.w * 8;
  return `(${uType(e.w)})bl_${name}(${args.join(', ')}, ${size})`;
}

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

function condC(ctx: Context, cc: Cond, flags: Expr): string {
  return condition(cc, flagsSource(ctx, flags), ctx.arm, ctx.program.runtime);
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
  const op: FlagsSource = {
    k: 'op',
    op: saved.flags.op,
    a: `fa_${v}`,
    b: fit(`fb_${v}`, saved.flags.b.w, saved.flags.a.w),
    w: saved.flags.a.w,
  };
  return saved.nzcv ? { k: 'select', c: `fc_${v}`, then: op, nzcv: exprC(ctx, saved.nzcv) } : op;
}

/**
 * Flags versions merged by phis, when every definition merged has the same shape (operation, operand
 * widths, a conditional compare or not): they share the variables the operands are saved in.
 */
function flagClasses(df: DataFlow): Map<number, number> {
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
const flagVar = (ctx: Context, ver: number) => ctx.flagClass.get(ver) ?? ver;

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
function savedFlags(e: Expr): { flags: Extract<Expr, { k: 'flags' }>; c?: Expr; nzcv?: Expr } | null {
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
    if (w !== 4 && w !== 8) throw new Unsupported(`a ${w}-byte ${op}`);
    const f = w === 4 ? 'f32' : 'f64';
    rt.use(f);
    rt.use(w === 4 ? 'b32' : 'b64');
    return `bl_b${w * 8}(bl_${f}(${a()}) ${FLOAT[op]} bl_${f}(${b()}))`;
  }
  const bits = w * 8;
  const count = () => `(${fit(x(e.b), e.b.w, 4)} & ${bits === 64 ? 63 : 31})`;
  switch (op) {
    case 'udiv':
      return wrap(`${a()} / ${b()}`);
    case 'urem':
      return wrap(`${a()} % ${b()}`);
    case 'sdiv':
      return `(${uType(w)})((${sType(w)})${a()} / (${sType(w)})${b()})`;
    case 'srem':
      return `(${uType(w)})((${sType(w)})${a()} % (${sType(w)})${b()})`;
    case 'shl':
      return `(${uType(w)})(${narrow ? `(unsigned)${a()}` : a()} << ${count()})`;
    case 'shr':
      return `(${uType(w)})(${a()} >> ${count()})`;
    case 'sar':
      return `(${uType(w)})((${sType(w)})${a()} >> ${count()})`;
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
      return `(${uType(w)})(${sType(w)})(${sType(from)})${x(e.a)}`;
    case 'fneg':
      rt.use(w === 4 ? 'f32' : 'f64');
      rt.use(w === 4 ? 'b32' : 'b64');
      return `bl_b${w * 8}(-bl_f${w * 8}(${fit(x(e.a), from, w)}))`;
    case 'itof':
      rt.use(w === 4 ? 'b32' : 'b64');
      return `bl_b${w * 8}((${w === 4 ? 'float' : 'double'})(${sType(from)})${x(e.a)})`;
    case 'ftoi':
      rt.use(from === 4 ? 'f32' : 'f64');
      return `(${uType(w)})(${sType(w)})bl_f${from * 8}(${x(e.a)})`;
    case 'fconv':
      rt.use(from === 4 ? 'f32' : 'f64');
      rt.use(w === 4 ? 'b32' : 'b64');
      return `bl_b${w * 8}((${w === 4 ? 'float' : 'double'})bl_f${from * 8}(${x(e.a)}))`;
  }
}
