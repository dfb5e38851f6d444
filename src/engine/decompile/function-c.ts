// One function in SSA form → C that computes exactly what the machine code does: every SSA value is a
// variable of its register's width, each statement an assignment, loads and stores through pointers, the
// flags as the operands of the operation that set them, phis as copies on the edges into their block, and
// the frame a local array the stack pointer points into (or named locals where no frame address escapes).
// Expressions are expressions.ts's, calls calls.ts's; the blocks are nested into loops and conditionals by
// structure.ts.
import { forEachLoad, type DataFlow } from '../ir/dataflow.js';
import type { DefSite } from '../ir/ssa.js';
import { forEachRegRead, stmtOperands, type Expr, type IrBlock, type Stmt } from '../ir/ir.js';
import type { CallingConvention } from '../ir/lifter.js';
import { signedAs, uType, Unsupported } from './c-names.js';
import { dropUnread, identifiers, printC, simplify, type CStmt } from './c-tree.js';
import type { Program } from './program.js';
import { structure, type BlockExit, type FlowGraph } from './structure.js';
import { frameLocals, type FrameLocals } from './frame-locals.js';
import { jumpTable } from './jump-table.js';
import { TypedAccess } from './typed-access.js';
import { callC, returnC } from './calls.js';
import {
  condC,
  exprC,
  flagClasses,
  flagVar,
  memoryWrite,
  referenceOf,
  savedFlags,
  unalignedStore,
} from './expressions.js';
import {
  classType,
  fit,
  homeAt,
  origins,
  paramRegisters,
  registerParams,
  variable,
  type Context,
  type ParamC,
  type PrototypeC,
} from './function-context.js';
import { paramHomes } from './param-homes.js';
import { mergedFlags } from './merged-flags.js';
import { declareAs, type FunctionTyping } from './typing.js';

/** Bytes below the deepest frame offset the code reaches that the frame array keeps (the red zone and more). */
const FRAME_SLACK = 256;

/** A frame whose stack pointer moves by amounts only known at run time (alloca, VLAs) gets this much. */
const DYNAMIC_FRAME = 1 << 20;

const NO_LOCALS: FrameLocals = { at: () => null, slot: () => null, declared: new Map(), typed: new Map() };

/** The function's declaration: its data types' names and types where they fit the code, else its classes'. */
export function declaration(name: string, p: PrototypeC, typing: FunctionTyping | null): string {
  // 16 bytes are a value the output can pass on the stack only; in registers or returned they are not yet.
  if (p.returns.cls === 'int128' || p.params.some((x) => x.cls === 'int128' && x.location.kind !== 'stack'))
    throw new Unsupported('a 128-bit integer passed or returned in registers');
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

/**
 * The function's C definition, and for each of its lines the addresses of the instructions it came from.
 * Throws Unsupported when the code uses what the output cannot express yet.
 */
export function functionC(
  df: DataFlow,
  program: Program,
  conv: CallingConvention,
  name: string,
  proto: PrototypeC,
  typing: FunctionTyping,
): { text: string; lines: number[][]; irreducible: boolean } {
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
    entryRead: new Set(),
    homes: new Map(),
    tables: new Map(),
    // Its callbacks read the context as translation fills it in (locals, propagation).
    access: new TypedAccess({
      df,
      typings: program.typings,
      local: (addr, w) => {
        const home = homeAt(ctx, addr, w);
        if (home !== undefined) return ctx.typing.params[home]!;
        const name = ctx.locals.at(addr, w);
        return name === null ? null : { name, type: ctx.locals.typed.get(name) ?? null };
      },
      param: (r) => {
        const i = ctx.paramAt.get(r);
        return i === undefined ? null : ctx.typing.params[i]!;
      },
      inlined: (r, ver) => ctx.inline.get(`${r}:${ver}`),
      variable: (e) => (e.w === ctx.varWidth[e.r] ? variable(ctx, e.r) : null),
    }),
    names: fn.regs.names,
    varWidth: variableWidths(df),
    arm,
    inline: new Map(),
    dead: new Set(),
    locals: NO_LOCALS,
    flagClass: flagClasses(df),
    merged: { read: new Map(), feeds: new Map() },
  };
  propagation(ctx);
  ctx.merged = mergedFlags(df, (ver) => ctx.flagClass.has(ver));
  // A live phi merging a register's entry value reads it from the register's variable.
  for (const b of fn.blocks)
    for (const s of b.stmts)
      if (s.k === 'phi' && s.args.includes(0) && !ctx.dead.has(`${s.r}:${s.ver}`)) ctx.entryRead.add(s.r);
  ctx.locals = frameLocals(df, (s) => s.k !== 'set' || !ctx.dead.has(`${s.r}:${s.ver}`), typing.locals);
  // Homes only where the frame's slots are locals: an escaped frame address could write one unseen.
  if (ctx.locals.declared.size) {
    const { homes, seeded } = paramHomes(df, registerParams(proto, conv));
    ctx.homes = homes;
    // A slot the parameter initialises is the source's parameter variable: of its type, when it has none.
    for (const [off, i] of seeded) {
      const type = typing.params[i]!.type;
      const name = type && ctx.locals.slot(off, type.size);
      if (name && !ctx.locals.typed.has(name)) ctx.locals.typed.set(name, type);
    }
  }
  if (fn.undecoded) throw new Unsupported(`${fn.undecoded} undecoded instructions`);
  switchTables(ctx);
  const { body: tree, flags, irreducible } = structure(flowGraph(ctx, new Set(df.ssa.order)));
  const body = printC(simplify(dropUnread(tree)));
  const head = `${declaration(name, proto, typing)} {`;
  // The head, declarations, set-up and closing brace come from no instruction.
  const before = [head, ...prologue(ctx, body.lines.join('\n'), flags)];
  return {
    text: [...before, ...body.lines, '}'].join('\n'),
    lines: [...before.map(() => []), ...body.at, []],
    irreducible,
  };
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
  // Whether each inlined value reads memory, through the values written in its place.
  const loads = new Map<string, boolean>();
  const readsMemory = (e: Expr): boolean => {
    let found = false;
    forEachLoad(e, () => (found = true));
    forEachRegRead(e, (r) => (found ||= loads.get(`${r.r}:${r.ver}`) ?? false));
    return found;
  };
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
      const load = readsMemory(s.e);
      if (load && b.stmts.slice(i + 1, uses[0]!.stmt).some(writesMemory)) return;
      loads.set(key, load);
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

const writesMemory = (s: Stmt) => s.k === 'store' || s.k === 'call' || s.k === 'effect';

/** Each register's variable width: its definitions' widest value (a register's versions share one type). */
function variableWidths(df: DataFlow): number[] {
  const { fn } = df.ssa;
  const w = fn.regs.widths.map((x) => (x > 16 ? 0 : x));
  for (const b of fn.blocks) for (const s of b.stmts) if (s.k === 'set') w[s.r] = Math.max(w[s.r] ?? 0, s.e.w);
  // 10 bytes are an x87 register's long double.
  return w.map((x) => (x > 8 && x < 16 && x !== 10 ? 16 : x === 3 ? 4 : x > 4 && x < 8 ? 8 : x));
}

/**
 * Declarations of what `body` uses — register variables, frame locals, saved flags operands, the frame
 * array the stack pointer points into — and the entry values: parameters into their registers.
 */
/** Declarations and set-up before the body: its variables, flags (`flags`: goto elimination's), frame. */
function prologue(ctx: Context, body: string, flags: readonly string[]): string[] {
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
  const routes = flags.filter((f) => used.has(f));
  if (routes.length) lines.push(`  bool ${routes.map((f) => `${f} = false`).join(', ')};`);
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
  for (const [ver, conds] of ctx.merged.read)
    for (const cc of conds) if (used.has(`fk_${ver}_${cc}`)) lines.push(`  int fk_${ver}_${cc} = 0;`);
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
  // Only where the variable is read before it is assigned: elsewhere the body reads the parameter.
  if (!vars.has(v) || !ctx.entryRead.has(r)) return [];
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
    const at = () => origins(ctx, s.at, stmtOperands(s));
    if (s.k === 'branch') {
      const taken = succ.find((x) => fn.blocks[x]!.start !== b.end) ?? succ[0];
      const fall = succ.find((x) => x !== taken) ?? taken;
      if (taken === undefined)
        return { body: [...body, { k: 'line', text: 'abort();', at: at(), ends: true }], exit: { k: 'end' } };
      const cond = s.c.k === 'cond' ? condC(ctx, s.c.cc, s.c.flags) : exprC(ctx, s.c);
      return { body, exit: { k: 'branch', cond, at: at(), taken, fall: fall! } };
    }
    if (s.k === 'jump') {
      if (s.target.k === 'const' && succ.length === 1) return { body, exit: { k: 'next' } };
      // A table read at an index: the switch it was compiled from.
      const table = ctx.tables.get(`${bi}:${si}`);
      if (table) {
        const cases = [...table.cases].map(([to, values]) => ({ values, to }));
        const from = [...origins(ctx, s.at, [s.target, table.index]), ...table.retired];
        return { body, exit: { k: 'table', value: exprC(ctx, table.index), at: from, cases } };
      }
      // A computed jump (a switch's table): the target compared with each successor's address, as it is or
      // as computed from a data copy's base.
      const deltas = ['0', ...ctx.program.copyDeltas()];
      const pre: CStmt[] = [{ k: 'line', text: `uint64_t t = ${exprC(ctx, s.target)};`, at: at() }];
      const cases = succ.map((to) => {
        const start = `${fn.blocks[to]!.start}ull`;
        return { test: deltas.map((d) => `t == ${start} + ${d}`).join(' || '), to };
      });
      return { body, exit: { k: 'switch', pre, at: [s.at], cases } };
    }
    const lines = stmtC(ctx, s);
    // An assignment of a register's variable or a local can go if nothing reads what it writes.
    const assigns =
      s.k === 'set' && s.r !== fn.regs.flags
        ? variable(ctx, s.r)
        : s.k === 'store'
          ? (ctx.locals.at(s.addr, s.w) ?? undefined)
          : undefined;
    // A return or tail call ends the block (and writes no variable).
    const ends = s.k === 'ret' || (s.k === 'call' && s.tail);
    if (lines.length)
      body.push({ k: 'line', text: lines.join('\n'), at: at(), ...(ends ? { ends } : assigns ? { assigns } : {}) });
    if (ends) return { body, exit: { k: 'end' } };
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
        if (!saved && ctx.merged.feeds.has(s.ver))
          throw new Unsupported('a condition on merged flags one of whose operations the output cannot state');
        if (!saved) return [];
        const v = flagVar(ctx, s.ver);
        const out = [`fa_${v} = ${exprC(ctx, saved.flags.a)};`, `fb_${v} = ${exprC(ctx, saved.flags.b)};`];
        if (saved.c) out.push(`fc_${v} = ${exprC(ctx, saved.c)};`);
        // The conditions a merge of differently shaped flags reads later, computed here (merged-flags.ts).
        const here: Expr = { k: 'reg', r: s.r, ver: s.ver, w: fn.regs.addressSize };
        for (const m of ctx.merged.feeds.get(s.ver) ?? []) out.push(`fk_${m.ver}_${m.cc} = ${condC(ctx, m.cc, here)};`);
        return out;
      }
      const vw = ctx.varWidth[s.r]!;
      return [`${variable(ctx, s.r)} = ${referenceOf(ctx, s.r, s.ver, vw) ?? fit(exprC(ctx, s.e), s.e.w, vw)};`];
    case 'store':
      // A parameter's spill to its home: the output reads the parameter there instead.
      if (homeAt(ctx, s.addr, s.w) !== undefined) return [];
      return [unalignedStore(ctx, s.addr, s.v) ?? memoryWrite(ctx, s.addr, s.w, fit(exprC(ctx, s.v), s.v.w, s.w))];
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

/** Instructions that stop a Linux or Windows user-mode program where they stand. */
const FAULTS = new Set([
  ...['hlt', 'ud2', 'int3', 'trap', 'int1', 'cli', 'sti', 'in', 'out'],
  ...['insb', 'insw', 'insd', 'outsb', 'outsw', 'outsd'],
]);

/**
 * The effects the output can state: `rep stos` and `movs` as the loops they are (direction flag clear, as
 * the ABI says), each register they write set to where it ends.
 */
function effectC(ctx: Context, s: Extract<Stmt, { k: 'effect' }>): string[] {
  // A trap ends the program where the machine would fault, as do the privileged instructions a user-mode
  // program faults on (cli, in, out; int1 traps); MIPS's conditional traps when their comparison holds.
  if (FAULTS.has(s.name)) return ['abort();'];
  const trap = /^trap_(ge|geu|lt|ltu|eq|ne)$/.exec(s.name);
  if (trap && s.reads.length === 2) {
    const cond = trap[1]!;
    const [a, b] = s.reads.map((e) => {
      const v = exprC(ctx, e);
      return cond === 'ge' || cond === 'lt' ? signedAs(v, e.w) : v;
    });
    const op = { ge: '>=', geu: '>=', lt: '<', ltu: '<', eq: '==', ne: '!=' }[cond]!;
    return [`if (${a} ${op} ${b}) abort();`];
  }
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
 * The jump tables of the function's computed jumps (jump-table.ts). Once a jump is a switch on its index,
 * what computed its target alone (the table read, the base added) is written nowhere: it is marked dead.
 */
function switchTables(ctx: Context): void {
  const { df } = ctx;
  const { fn } = df.ssa;
  const usable = (r: number, ver: number) => !ctx.inline.has(`${r}:${ver}`) && !ctx.dead.has(`${r}:${ver}`);
  fn.blocks.forEach((b, bi) =>
    b.stmts.forEach((s, si) => {
      if (s.k !== 'jump' || s.target.k === 'const') return;
      const starts = new Map(b.succ.map((x) => [fn.blocks[x]!.start, x]));
      const at = { block: bi, stmt: si };
      const table = jumpTable(df, ctx.program.image, at, s.target, starts, usable, (load, from, to) =>
        unchangedLocal(ctx, load, from, to),
      );
      if (!table) return;
      const retired: number[] = [];
      ctx.tables.set(`${bi}:${si}`, { ...table, retired });
      const index = new Set<string>();
      forEachRegRead(table.index, (x) => index.add(`${x.r}:${x.ver}`));
      const retiredSites = new Set([`${bi}:${si}`]);
      // A use by a statement the output does not write (flags nothing reads) does not keep a value.
      const unwritten = (u: { block: number; stmt: number }) => {
        const st = fn.blocks[u.block]!.stmts[u.stmt]!;
        return retiredSites.has(`${u.block}:${u.stmt}`) || (st.k === 'set' && ctx.dead.has(`${st.r}:${st.ver}`));
      };
      const work: Expr[] = [s.target];
      for (let steps = 0; work.length && steps < 256; steps++)
        forEachRegRead(work.pop()!, (x) => {
          const key = `${x.r}:${x.ver}`;
          const site = x.ver > 0 ? df.ssa.defs[x.r]?.[x.ver] : undefined;
          const def = site && site.block >= 0 ? fn.blocks[site.block]!.stmts[site.stmt] : undefined;
          if (index.has(key) || def?.k !== 'set' || ctx.dead.has(key)) return;
          if (!df.uses(x.r, x.ver).every(unwritten)) return;
          if (df.phiUsers(x.r, x.ver).some((v) => !ctx.dead.has(`${x.r}:${v}`))) return;
          ctx.dead.add(key);
          retiredSites.add(`${site!.block}:${site!.stmt}`);
          retired.push(def.at);
          work.push(def.e);
        });
    }),
  );
}

/**
 * Whether the local `load` reads (at `from`) still holds that value at `to`: `to` is reached from `from`
 * along a straight line of blocks (each the next's only predecessor) with no store to the local between.
 */
function unchangedLocal(ctx: Context, load: Extract<Expr, { k: 'load' }>, from: DefSite, to: DefSite): boolean {
  const { df } = ctx;
  const v = df.evaluate(load.addr);
  if (v.kind !== 'sp' || (ctx.locals.at(load.addr, load.w) === null && homeAt(ctx, load.addr, load.w) === undefined))
    return false;
  const line = [to.block];
  while (line[line.length - 1] !== from.block) {
    const pred = df.ssa.fn.blocks[line[line.length - 1]!]!.pred;
    if (pred.length !== 1 || line.length > 8) return false;
    line.push(pred[0]!);
  }
  const between = (a: { block: number; stmt: number }) =>
    line.includes(a.block) &&
    (a.block !== from.block || a.stmt > from.stmt) &&
    (a.block !== to.block || a.stmt < to.stmt);
  return !df.slots.some((a) => a.store && a.off < v.off + load.w && v.off < a.off + a.w && between(a));
}
