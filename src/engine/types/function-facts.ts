// What one function's own code says of its signature, before the functions are combined: which argument
// registers and stack slots it reads before writing (and how it uses them), what its call sites set up
// for each callee, whether it writes a return value, and what it does with the values its calls return.
import type { DataFlow, SlotAccess } from '../ir/dataflow.js';
import type { Stmt } from '../ir/ir.js';
import type { CallingConvention } from '../ir/lifter.js';
import { definitionOf, dominates } from '../ir/ssa.js';
import { globalAccesses, type GlobalAccess } from './globals.js';
import { targetAddress } from './callees.js';
import { traceValue, type Evidence, type OutgoingArguments } from './value-trace.js';

export interface ArgUse {
  /** Position in the convention's argument registers, or the stack slot index (stack arguments). */
  pos: number;
  ev: Evidence;
  /** Width in bytes of the slot read (stack arguments). */
  width: number;
}

export interface CallSiteFacts {
  /** The called address, when direct. */
  target: number | null;
  /** Per integer argument register: the width it was set at before the call, or 0 when not set. */
  intSet: number[];
  /** Per integer argument register: the frame slot (offset from the entry stack pointer) it was loaded from. */
  intFromSlot: (number | null)[];
  floatSet: number[];
  /** Stack argument slots written just before the call (i386). */
  stackSet: number;
  /** The caller reads the returned value: its evidence (null when unused). */
  result: Evidence | null;
  floatResult: Evidence | null;
  tail: boolean;
}

export interface FunctionFacts {
  intArgs: ArgUse[];
  floatArgs: ArgUse[];
  stackArgs: ArgUse[];
  /** gcc's variadic prologue tests `al` (the count of vector registers used) on entry. */
  variadic: boolean;
  /**
   * Of a variadic function, the argument registers its prologue stores to the register save area (the
   * unnamed ones, from the first after the named parameters to the last): saving them is not using them.
   */
  savedVarargs: number;
  /**
   * The return register at the returns: `dedicated` is the widest value written there that nothing but a
   * return reads (what `return x;` compiles to; a scratch value left in it is read by something else);
   * `passThrough` the calls whose result reaches a return untouched (`return g(x);`, or a void tail);
   * `untouched` when some return leaves the register as it was on entry (C cannot mix `return;` and
   * `return x;`, so the function is void unless its callers say otherwise). `float`: the width of a
   * floating-point value computed for the return (0: none). For functions nothing in the binary calls, the
   * weaker signs: `kept`, calls whose result is in the register at a return though other code reads it too
   * (`p = malloc(n); p[0] = 1; return p;`), and `address`, an address the code formed is returned.
   */
  returns: {
    dedicated: number;
    float: number;
    count: number;
    passThrough: number[];
    untouched: boolean;
    kept: number[];
    address: boolean;
  };
  /**
   * Targets of its tail calls: a function that only tail-calls returns what its callee returns, and where
   * the stack pointer is back at its entry value the callee reads its caller's stack arguments.
   */
  tailCallees: { target: number; stackPassThrough: boolean }[];
  /** Tail jumps through a pointer with the frame gone, the stack pointer back at its entry value. */
  pointerTails: number;
  /** Bytes the function pops on return (`ret n`). */
  pops: number;
  /** Its stack variables: frame slots below the entry stack pointer, each with the widest access to it. */
  frame: { offset: number; size: number }[];
  /** Memory it accesses at constant addresses (globals, if the image has data there). */
  globals: GlobalAccess[];
  calls: CallSiteFacts[];
}

export function functionFacts(df: DataFlow, conv: CallingConvention): FunctionFacts {
  const { fn } = df.ssa;
  const outgoing = outgoingArguments(df, conv);
  const stackSet = stackArgumentsSet(outgoing);
  const entry = (r: number) => traceValue(df, { r, ver: 0 }, outgoing);
  const intArgs = conv.intArgs.map((r, pos) => ({ pos, ev: entry(r), width: 0 }));
  const floatArgs = conv.floatArgs.map((r, pos) => ({ pos, ev: entry(r), width: 0 }));
  const stackArgs = stackArguments(df, conv, outgoing);
  const al = df.uses(conv.intReturn, 0).some((u) => u.node.w === 1);
  const facts: FunctionFacts = {
    intArgs,
    floatArgs,
    stackArgs,
    variadic: false,
    savedVarargs: 0,
    returns: { dedicated: 0, float: 0, count: 0, passThrough: [], untouched: false, kept: [], address: false },
    tailCallees: [],
    pointerTails: 0,
    pops: 0,
    frame: frameSlots(df, conv),
    globals: globalAccesses(df),
    calls: [],
  };
  if (conv.floatArgs.length > 0 && conv.intArgs.length > 0) {
    // gcc's prologue tests al when the save area takes vector registers too; without float va_args it
    // stores only the integer ones, and two or more in a row are as telling.
    const saved = registerSaveArea(df, conv);
    facts.variadic = al || saved >= 2;
    if (facts.variadic) facts.savedVarargs = saved;
  }
  for (const b of df.ssa.order)
    for (const s of fn.blocks[b]!.stmts) {
      if (s.k === 'ret') readReturn(df, s, conv, facts);
      else if (s.k === 'call') {
        const site = callSite(df, s, conv, outgoing, stackSet.get(s) ?? 0);
        facts.calls.push(site);
        const sp = df.evaluate(s.args[s.args.length - 1]!);
        const atEntry = sp.kind === 'sp' && sp.off === 0;
        if (s.tail && site.target !== null) facts.tailCallees.push({ target: site.target, stackPassThrough: atEntry });
        // An unresolved switch's jump keeps the frame; a tail call through a pointer has torn it down.
        else if (s.tail && atEntry) facts.pointerTails++;
      }
    }
  return facts;
}

/**
 * How many trailing argument registers the entry block stores, unchanged, to consecutive slots ending with
 * the last one: gcc's va_start save area.
 */
function registerSaveArea(df: DataFlow, conv: CallingConvention): number {
  const entry = df.ssa.order[0];
  const stored = new Map<number, number>(); // position → slot offset
  for (const a of df.slots) {
    if (!a.store || a.block !== entry || a.value.k !== 'reg' || a.value.ver !== 0) continue;
    const pos = conv.intArgs.indexOf(a.value.r);
    if (pos >= 0 && !stored.has(pos)) stored.set(pos, a.off);
  }
  const last = conv.intArgs.length - 1;
  let n = 0;
  while (
    n <= last &&
    stored.get(last - n) !== undefined &&
    stored.get(last - n) === stored.get(last)! - n * conv.stackSlot
  )
    n++;
  return n;
}

/**
 * Loads above the return address that no store to the slot precedes on every path: the stack arguments,
 * each traced through all such loads of its slot. A slot rewritten later (i386 tail calls pass their
 * arguments in the caller's own) is still read first.
 */
function stackArguments(df: DataFlow, conv: CallingConvention, outgoing: OutgoingArguments): ArgUse[] {
  const stores = df.slots.filter((a) => a.store);
  const bySlot = new Map<number, SlotAccess[]>();
  for (const a of df.slots) {
    if (a.store || a.off < conv.stackArgsAt || (a.off - conv.stackArgsAt) / conv.stackSlot > 63) continue;
    if (stores.some((st) => st.off === a.off && dominates(df.ssa, st, a))) continue;
    const list = bySlot.get(a.off);
    if (list) list.push(a);
    else bySlot.set(a.off, [a]);
  }
  const out = new Map<number, ArgUse>();
  // A slot off the grid (a byte of a wider argument) belongs to the argument its slot starts. Loads of
  // another width than the first read copy more or less than the argument (a vector move of two at once).
  for (const [off, loads] of [...bySlot].sort((x, y) => x[0] - y[0])) {
    const pos = Math.floor((off - conv.stackArgsAt) / conv.stackSlot);
    const width = loads[0]!.w;
    const same = loads.filter((a) => a.w === width);
    if (!out.has(pos)) out.set(pos, { pos, ev: traceValue(df, { loads: same }, outgoing), width });
  }
  return [...out.values()].sort((x, y) => x.pos - y.pos);
}

/**
 * Slots below the entry stack pointer, widest access each; register saves (a register's entry value stored
 * and nothing else, outside the argument registers) are the frame's housekeeping, not variables.
 */
function frameSlots(df: DataFlow, conv: CallingConvention): { offset: number; size: number }[] {
  const args = new Set([...conv.intArgs, ...conv.floatArgs]);
  const bySlot = new Map<number, { size: number; save: boolean }>();
  for (const a of df.slots) {
    if (a.off >= 0) continue;
    const save = a.store ? a.value.k === 'reg' && a.value.ver === 0 && !args.has(a.value.r) : true;
    const slot = bySlot.get(a.off);
    if (!slot) bySlot.set(a.off, { size: a.w, save: a.store && save });
    else {
      slot.size = Math.max(slot.size, a.w);
      if (a.store) slot.save &&= save;
    }
  }
  return [...bySlot]
    .filter(([, s]) => !s.save)
    .map(([offset, s]) => ({ offset, size: s.size }))
    .sort((a, b) => a.offset - b.offset);
}

function readReturn(df: DataFlow, s: Extract<Stmt, { k: 'ret' }>, conv: CallingConvention, facts: FunctionFacts): void {
  facts.pops = Math.max(facts.pops, s.pop);
  facts.returns.count++;
  const [intRet, floatRet] = s.reads;
  const { fn } = df.ssa;
  if (intRet?.k === 'reg' && (intRet.ver === 0 || restoredEntry(df, intRet.r, intRet.ver)))
    facts.returns.untouched = true;
  else if (intRet?.k === 'reg' && intRet.ver > 0) {
    const def = definitionOf(df.ssa, intRet.r, intRet.ver);
    const width = dedicatedWidth(df, intRet.r, intRet.ver, conv, 0);
    if (width > 0) facts.returns.dedicated = Math.max(facts.returns.dedicated, width);
    else if (def?.k === 'call' && returnBound(df, intRet.r, intRet.ver, 0) && def.target.k === 'const')
      facts.returns.passThrough.push(Number(BigInt.asUintN(fn.regs.addressSize * 8, def.target.v)));
    if (def?.k === 'call') {
      const t = targetAddress(def.target, fn.regs.addressSize);
      if (t !== null) facts.returns.kept.push(t);
    }
    const v = df.valueOf(intRet.r, intRet.ver);
    if (v.kind === 'const' && v.ref) facts.returns.address = true;
  }
  // A vector register left holding a zeroing or copying temporary is read by something else first.
  if (floatRet?.k === 'reg' && floatRet.ver > 0 && dedicatedWidth(df, floatRet.r, floatRet.ver, conv, 0) > 0)
    facts.returns.float = Math.max(facts.returns.float, scalarWidth(definitionOf(df.ssa, floatRet.r, floatRet.ver)));
}

/**
 * The register reloaded from a frame slot that holds nothing but its own entry value: clang's `push rax`
 * … `pop rax`, which only keeps the stack aligned, leaves the return register as the caller had it.
 */
function restoredEntry(df: DataFlow, r: number, ver: number): boolean {
  const def = definitionOf(df.ssa, r, ver);
  if (def?.k !== 'set' || def.e.k !== 'load') return false;
  const a = df.evaluate(def.e.addr);
  if (a.kind !== 'sp') return false;
  const stores = df.storesAt(a.off);
  return stores.length > 0 && stores.every((st) => st.value.k === 'reg' && st.value.r === r && st.value.ver === 0);
}

/** The width of the scalar a vector register's definition writes (a deposit's or extension's part). */
function scalarWidth(def: Stmt | undefined): number {
  if (def?.k !== 'set') return 8;
  const e = def.e;
  if (e.k === 'bin' && e.op === 'deposit') return e.b.w;
  if (e.k === 'un' && e.op === 'zext') return e.a.w;
  return Math.min(e.w, 8);
}

/** Nothing reads the value but returns, directly or through phis that only returns read. */
function returnBound(df: DataFlow, r: number, ver: number, depth: number): boolean {
  if (depth > 8) return false;
  return (
    df.uses(r, ver).every((u) => buildsReturn(df, r, u, depth)) &&
    df.phiUsers(r, ver).every((p) => returnBound(df, r, p, depth + 1))
  );
}

/**
 * A use that is a return, or the value a partial write goes into when what it makes is returned
 * (`xor eax, eax; …; sete al; ret`: the zero is the return value's upper bytes).
 */
function buildsReturn(df: DataFlow, r: number, u: ReturnType<DataFlow['uses']>[number], depth: number): boolean {
  const s = df.ssa.fn.blocks[u.block]!.stmts[u.stmt]!;
  if (s.k === 'ret') return true;
  return (
    s.k === 'set' &&
    s.r === r &&
    s.e.k === 'bin' &&
    s.e.op === 'deposit' &&
    s.e.a === u.node &&
    returnBound(df, r, s.ver, depth + 1)
  );
}

/**
 * The width of a value computed to be returned (`return x;`): defined here, on every path, and read by
 * nothing but returns; 0 when any path leaves the register untouched, holding a callee's result, or a
 * temporary something else reads.
 */
function dedicatedWidth(df: DataFlow, r: number, ver: number, conv: CallingConvention, depth: number): number {
  if (ver <= 0 || depth > 8 || !returnBound(df, r, ver, 0)) return 0;
  const def = definitionOf(df.ssa, r, ver);
  if (def?.k === 'set') return widthOf(def.e);
  if (def?.k !== 'phi') return 0;
  // Paths that return a callee's result (`return g(x);`) count when another path sets the value itself.
  let width = 0;
  for (const arg of def.args) {
    const w = dedicatedArg(df, r, arg, conv, depth + 1);
    if (w === 0) return 0;
    width = Math.max(width, w);
  }
  return width;
}

/** dedicatedArg's answer for a callee's result: accepted, but no width of its own. */
const CALL_RESULT = -1;

/** A phi argument: a value set for the return (it may also flow into the phi only). */
function dedicatedArg(df: DataFlow, r: number, ver: number, conv: CallingConvention, depth: number): number {
  if (ver <= 0) return 0;
  const def = definitionOf(df.ssa, r, ver);
  if (!df.uses(r, ver).every((u) => buildsReturn(df, r, u, depth))) return 0;
  if (def?.k === 'set') return widthOf(def.e);
  if (def?.k === 'call') return CALL_RESULT;
  return def?.k === 'phi' ? dedicatedWidth(df, r, ver, conv, depth) : 0;
}

/** The written width of a register definition: a zero-extended 32-bit value is 4 bytes wide. */
function widthOf(e: Extract<Stmt, { k: 'set' }>['e']): number {
  if (e.k === 'un' && e.op === 'zext') return widthOf(e.a);
  if (e.k === 'const') return 4;
  return e.w;
}

function callSite(
  df: DataFlow,
  s: Extract<Stmt, { k: 'call' }>,
  conv: CallingConvention,
  outgoing: OutgoingArguments,
  stackSet: number,
): CallSiteFacts {
  const { fn, defs } = df.ssa;
  const setWidth = (read: { ver: number; r: number }): number => {
    if (read.ver <= 0) return 0;
    const at = defs[read.r]![read.ver]!;
    const def = fn.blocks[at.block]!.stmts[at.stmt]!;
    // A value left over from an earlier call's clobber is not an argument set up for this one.
    if (def.k !== 'set' && def.k !== 'phi') return 0;
    return def.k === 'set' ? widthOf(def.e) : conv.stackSlot;
  };
  const regs = s.args.slice(0, -1);
  const intSet = conv.intArgs.map((_, i) => {
    const a = regs[i];
    return a?.k === 'reg' ? setWidth(a) : 0;
  });
  const intFromSlot = conv.intArgs.map((_, i) => {
    const a = regs[i];
    if (a?.k !== 'reg' || a.ver <= 0) return null;
    const at = defs[a.r]![a.ver]!;
    const def = fn.blocks[at.block]!.stmts[at.stmt]!;
    let e = def.k === 'set' ? def.e : null;
    while (e?.k === 'un' && (e.op === 'zext' || e.op === 'sext')) e = e.a;
    if (e?.k !== 'load') return null;
    const addr = df.evaluate(e.addr);
    return addr.kind === 'sp' && addr.off < 0 ? addr.off : null;
  });
  const floatSet = conv.floatArgs.map((_, i) => {
    const a = regs[conv.intArgs.length + i];
    return a?.k === 'reg' ? setWidth(a) : 0;
  });
  const target = targetAddress(s.target, fn.regs.addressSize);
  const writeVer = (r: number) => s.vers[s.writes.indexOf(r)] ?? -1;
  const traced = (r: number | null): Evidence | null => {
    if (r === null || s.tail) return null;
    const ver = writeVer(r);
    if (ver < 0) return null;
    const ev = traceValue(df, { r, ver }, outgoing);
    // A vector register is also read by partial moves into it: only what floating-point code does counts.
    // Nor is being passed on: every call reads every vector argument register.
    if (r === conv.floatReturn) return ev.float || ev.spillWidth !== null ? ev : null;
    // Nor is reaching the next call's argument registers untouched (i386 regparm reads eax at every call).
    return ev.used ? ev : null;
  };
  return {
    target,
    intSet,
    intFromSlot,
    floatSet,
    stackSet,
    result: traced(conv.intReturn),
    floatResult: traced(conv.floatReturn),
    tail: s.tail,
  };
}

/** Per call, how many consecutive stack argument slots, from the first, its own block writes before it. */
function stackArgumentsSet(outgoing: OutgoingArguments): Map<Stmt, number> {
  const written = new Map<Stmt, Set<number>>();
  for (const arg of outgoing.values()) {
    const set = written.get(arg.stmt);
    if (set) set.add(arg.pos);
    else written.set(arg.stmt, new Set([arg.pos]));
  }
  const out = new Map<Stmt, number>();
  for (const [call, set] of written) {
    let n = 0;
    while (set.has(n)) n++;
    out.set(call, n);
  }
  return out;
}

/**
 * The stores that set up calls' stack arguments (i386, where code passes most arguments on the stack):
 * in the call's block, after the previous call, at the call's stack pointer plus a slot. 64-bit
 * conventions pass the first four or six arguments in registers; stores near the stack pointer are then
 * mostly locals.
 */
function outgoingArguments(df: DataFlow, conv: CallingConvention): OutgoingArguments {
  const out: OutgoingArguments = new Map();
  if (conv.name !== 'cdecl') return out;
  const { fn } = df.ssa;
  const byBlock = new Map<number, SlotAccess[]>();
  for (const a of df.slots) {
    if (!a.store) continue;
    const list = byBlock.get(a.block);
    if (list) list.push(a);
    else byBlock.set(a.block, [a]);
  }
  fn.blocks.forEach((block, bi) => {
    let after = -1;
    block.stmts.forEach((s, si) => {
      if (s.k !== 'call') return;
      const sp = df.evaluate(s.args[s.args.length - 1]!);
      if (sp.kind === 'sp')
        for (const a of byBlock.get(bi) ?? []) {
          const rel = a.off - sp.off;
          if (a.stmt <= after || a.stmt >= si || rel < 0 || rel % conv.stackSlot !== 0 || rel >= 64) continue;
          out.set(block.stmts[a.stmt]!, { stmt: s, pos: rel / conv.stackSlot });
        }
      after = si;
    });
  });
  return out;
}
