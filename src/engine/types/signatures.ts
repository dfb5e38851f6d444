// Signature recovery for every function of a binary: each function's own facts (function-facts.ts), then
// combined across the call graph to a fixed point — an argument a function only passes on counts when its
// callee takes it (wrappers and tail calls inherit their callee's prototype), the registers every call
// site sets up count as arguments, a result any caller reads makes a function non-void, and pointer
// evidence flows from callee parameters back to the values callers pass. Library functions the prototype
// database knows take part as callees with their declared parameters (callees.ts).
import type { FunctionBlocks } from '../cfg/index.js';
import { dataFlow } from '../ir/dataflow.js';
import type { FunctionLifter } from '../ir/lift-function.js';
import type { CallingConvention } from '../ir/lifter.js';
import { toSsa } from '../ir/ssa.js';
import { libraryTakes, targetAddress, type Callee, type Callees, type ParamType } from './callees.js';
import type { CoarseClass } from './ctype.js';
import { functionFacts, type ArgUse, type CallSiteFacts, type FunctionFacts } from './function-facts.js';
import { argUseAt, paramIndexOf } from './param-slots.js';
import { mergeStructures } from './structures.js';
import type { RecoveredParam, RecoveredSignature } from './recovered-signature.js';
import type { Evidence, Passed } from './value-trace.js';

/** Interprocedural passes at most (each pass only adds arguments and pointer evidence). */
const MAX_ROUNDS = 8;

interface Analysed {
  facts: FunctionFacts;
  conv: CallingConvention;
  addressSize: number;
}

/** Signatures of the functions `graph` recovered, by function index (null where the CPU has no lifter). */
export function recoverSignatures(
  lifter: FunctionLifter,
  layouts: FunctionBlocks[],
  callees: Callees,
): (RecoveredSignature | null)[] {
  const analysed: (Analysed | null)[] = layouts.map((layout, fi) => {
    const fn = lifter.lift(fi, layout);
    const abi = lifter.abiOf(fi);
    if (!fn || !abi) return null;
    return {
      facts: functionFacts(dataFlow(toSsa(fn)), abi.convention),
      conv: abi.convention,
      addressSize: fn.regs.addressSize,
    };
  });
  const calleeOf = (a: Analysed, address: number | null): Callee | null => callees.at(address, a.conv, a.addressSize);
  const sites = callSitesByCallee(analysed, calleeOf);
  const counts = analysed.map((a) => (a ? { int: 0, float: 0, stack: 0 } : null));
  // Pointer parameters by key (slotKey): seeded with the arguments each function uses as addresses itself.
  const pointers = analysed.map((a) =>
    a
      ? new Set([
          ...a.facts.intArgs.filter((u) => u.ev.address).map((u) => slotKey(false, u.pos)),
          ...a.facts.stackArgs.filter((u) => u.ev.address).map((u) => slotKey(true, u.pos)),
        ])
      : null,
  );
  const nonVoid = analysed.map(() => false);
  /** Stack slots a callee takes. */
  const stackOf = (c: Callee | null): number =>
    c?.kind === 'function' ? (counts[c.index]?.stack ?? 0) : (c?.callee.stack.length ?? 0);
  const pointerParam = (c: Callee | null, p: Passed): boolean =>
    c?.kind === 'function'
      ? (pointers[c.index]?.has(slotKey(p.stack, p.pos)) ?? false)
      : (p.stack ? c?.callee.stack : c?.callee.ints)?.[p.pos]?.cls === 'pointer';
  const returns = (c: Callee | null): boolean =>
    c?.kind === 'function' ? nonVoid[c.index]! : c ? c.callee.returns.cls !== 'void' : false;
  // `return g(x);` and `g(x);` compile alike as a tail call: the callee's result counts only where no
  // caller ignores it (callers that exist and never read the result say void).
  const ignored = sites.map((s) => {
    const direct = s.filter((c) => !c.tail);
    return direct.length > 0 && direct.every((c) => c.result === null && c.floatResult === null);
  });
  const passedOn = analysed.map((a, fi) => {
    if (!a || a.facts.returns.untouched || ignored[fi]) return [];
    return [...a.facts.tailCallees.map((t) => t.target), ...a.facts.returns.passThrough].map((t) => calleeOf(a, t));
  });
  // Every exit a jump through a pointer (`return p->method(x);`): its result is passed on, more often a
  // value than not (40 of the 50 such functions in the corpus).
  const forwards = analysed.map(
    (a, fi) =>
      !!a &&
      !ignored[fi] &&
      a.facts.pointerTails > 0 &&
      a.facts.returns.count === 0 &&
      a.facts.tailCallees.length === 0,
  );

  for (let round = 0, changed = true; changed && round < MAX_ROUNDS; round++) {
    changed = false;
    analysed.forEach((a, fi) => {
      if (!a) return;
      const calleeAt = (stmt: { target: Parameters<typeof targetAddress>[0] }) =>
        calleeOf(a, targetAddress(stmt.target, a.addressSize));
      const takes = (call: Passed, kind: 'int' | 'float') => {
        const c = calleeAt(call.stmt);
        // A call's arguments list the integer registers, then the vector ones; stack slots count apart.
        const k = call.stack ? 'stack' : kind;
        const pos = k === 'float' ? call.pos - a.conv.intArgs.length : call.pos;
        if (c?.kind === 'library') return libraryTakes(c.callee, k, pos);
        const n = c ? counts[c.index] : null;
        return n ? pos < n[k] : false;
      };
      const live = (u: ArgUse, kind: 'int' | 'float') => u.ev.used || u.ev.passed.some((p) => takes(p, kind));
      // A variadic function's unnamed registers, stored to its save area, are not parameters.
      const named = a.conv.intArgs.length - a.facts.savedVarargs;
      const c = counts[fi]!;
      const siteStack = consensus(sites[fi]!, (s) => s.stackSet);
      const int = highest(a.facts.intArgs, (u) => u.pos < named && live(u, 'int'));
      const float =
        a.conv.floatArgs.length && !a.facts.variadic ? highest(a.facts.floatArgs, (u) => live(u, 'float')) : 0;
      const inherited = a.facts.tailCallees.map((t) => (t.stackPassThrough ? stackOf(calleeOf(a, t.target)) : 0));
      const stack = Math.max(
        highest(a.facts.stackArgs, (u) => live(u, 'int'), a.conv.stackSlot),
        siteStack,
        ...inherited,
      );
      if (int > c.int || float > c.float || stack > c.stack) {
        c.int = Math.max(c.int, int);
        c.float = Math.max(c.float, float);
        c.stack = Math.max(c.stack, stack);
        changed = true;
      }
      // Nothing in the binary calls it (an entry point or export): its own code is all the evidence.
      // (A float result leaves the integer register as it was: that says nothing of the float.)
      const root =
        sites[fi]!.length === 0 &&
        (a.facts.returns.float > 0 ||
          (!a.facts.returns.untouched &&
            (a.facts.returns.address || a.facts.returns.kept.some((t) => returns(calleeOf(a, t))))));
      if (!nonVoid[fi] && (returnsValue(a.facts, sites[fi]!) || forwards[fi] || root || passedOn[fi]!.some(returns))) {
        nonVoid[fi] = true;
        changed = true;
      }
      // Pointer evidence from callees: an argument passed on as a callee's pointer parameter is a pointer,
      // unless it is read or spilled narrower than an address.
      for (const [stack, uses] of [[false, a.facts.intArgs] as const, [true, a.facts.stackArgs] as const])
        for (const u of uses)
          for (const p of narrowerThan(u.ev, a.addressSize) ? [] : u.ev.passed)
            if (!pointers[fi]!.has(slotKey(stack, u.pos)) && pointerParam(calleeAt(p.stmt), p)) {
              pointers[fi]!.add(slotKey(stack, u.pos));
              changed = true;
            }
    });
  }
  // What a function passes on makes it non-void only if no callee it passes on is void: a non-void
  // function cannot end in a void call, so a mix (`g(x);` here, `h(x);` there) says the callees' results
  // are dropped. Checked once the fixed point has settled which callees are void, undoing in turn.
  for (let changed = true; changed;) {
    changed = false;
    analysed.forEach((a, fi) => {
      if (!a || !nonVoid[fi] || returnsValue(a.facts, sites[fi]!)) return;
      if (passedOn[fi]!.some((c) => c !== null && !returns(c))) {
        nonVoid[fi] = false;
        changed = true;
      }
    });
  }
  const sigs = analysed.map((a, fi) =>
    a ? signatureOf(a, counts[fi]!, pointers[fi]!, nonVoid[fi]!, sites[fi]!) : null,
  );
  inheritFromCallees(analysed, sigs, (a, stmt) => calleeOf(a, targetAddress(stmt.target, a.addressSize)));
  mergeStructures(analysed, sigs, (fi, stmt) => {
    const c = calleeOf(analysed[fi]!, targetAddress(stmt.target, analysed[fi]!.addressSize));
    return c?.kind === 'function' ? c.index : null;
  });
  analysed.forEach((a, fi) => {
    if (a && sigs[fi]) typeFrameFromLibraries(a, sigs[fi]!, (t) => calleeOf(a, t));
    const sig = sigs[fi];
    if (!a || !sig || sig.returns.cls === 'void' || a.facts.returns.untouched) return;
    const lib = [...a.facts.tailCallees.map((t) => t.target), ...a.facts.returns.passThrough]
      .map((t) => calleeOf(a, t))
      .find((c) => c?.kind === 'library' && c.callee.returns.cls !== 'void');
    if (lib?.kind === 'library') sig.returns = { ...lib.callee.returns };
  });
  return sigs;
}

/**
 * An integer argument the function only passes on takes the type its callee gives that parameter (a few
 * rounds: wrappers of wrappers).
 */
function inheritFromCallees(
  analysed: (Analysed | null)[],
  sigs: (RecoveredSignature | null)[],
  calleeAt: (a: Analysed, stmt: Passed['stmt']) => Callee | null,
): void {
  const paramOf = (c: Callee | null, p: Passed): ParamType | undefined => {
    if (c?.kind === 'library') return (p.stack ? c.callee.stack : c.callee.ints)[p.pos];
    const sig = c ? sigs[c.index] : null;
    if (!sig || !analysed[c!.index]) return undefined;
    return sig.params[paramIndexOf(sig, analysed[c!.index]!.conv, p)];
  };
  for (let round = 0; round < 4; round++) {
    let changed = false;
    analysed.forEach((a, fi) => {
      const sig = sigs[fi];
      if (!a || !sig) return;
      sig.params.forEach((p, i) => {
        const u = argUseAt(a.facts, a.conv, p.location);
        if (!u) return;
        const callees = u.ev.passed.map((pass) => paramOf(calleeAt(a, pass.stmt), pass));
        // A library's declaration names the type the class only guesses at, where the two agree.
        const declared = callees.find((t) => t && 'declared' in t && t.declared && t.cls === p.cls);
        if (declared && 'declared' in declared && !p.declared) {
          sig.params[i] = { ...p, declared: declared.declared! };
          changed = true;
        }
        // Its own evidence wins; a word-sized value only moved and compared says nothing either way.
        if (u.ev.address || u.ev.arithmetic || u.ev.float || narrowerThan(u.ev, a.addressSize)) return;
        const theirs = callees.find((t) => t);
        if (theirs && (theirs.cls !== p.cls || theirs.width !== p.width)) {
          sig.params[i] = { ...sig.params[i]!, cls: theirs.cls, width: theirs.width };
          changed = true;
        }
      });
    });
    if (!changed) return;
  }
}

function callSitesByCallee(
  analysed: (Analysed | null)[],
  calleeOf: (a: Analysed, address: number | null) => Callee | null,
): CallSiteFacts[][] {
  const out: CallSiteFacts[][] = analysed.map(() => []);
  for (const a of analysed)
    for (const c of a?.facts.calls ?? []) {
      const callee = calleeOf(a!, c.target);
      if (callee?.kind === 'function') out[callee.index]!.push(c);
    }
  return out;
}

/**
 * The argument registers in parameter order, and the convention they make. i386 reads eax, edx, ecx (gcc's
 * regparm); a function that takes ecx but never touches eax is Microsoft's fastcall (ecx, edx) or, with ecx
 * alone, thiscall.
 */
function registerOrder(a: Analysed, count: number): { positions: number[]; convention: string | null } {
  const positions = [...Array(count).keys()];
  if (a.conv.name !== 'cdecl' || count === 0) return { positions, convention: null };
  if (count < 3) return { positions, convention: 'regparm' };
  const touched = (i: number) => {
    const ev = a.facts.intArgs[i]?.ev;
    return !!ev && (ev.used || ev.passed.length > 0);
  };
  if (touched(0)) return { positions, convention: 'regparm' };
  return touched(1) ? { positions: [2, 1], convention: 'fastcall' } : { positions: [2], convention: 'thiscall' };
}

/** Frame variables loaded and passed to a library parameter take its declared type, where the sizes agree. */
function typeFrameFromLibraries(
  a: Analysed,
  sig: RecoveredSignature,
  calleeAt: (address: number | null) => Callee | null,
): void {
  for (const call of a.facts.calls) {
    const c = calleeAt(call.target);
    if (c?.kind !== 'library') continue;
    call.intFromSlot.forEach((off, i) => {
      const param = c.callee.ints[i];
      const slot = off === null ? undefined : sig.frame.find((v) => v.offset === off);
      if (slot && param?.declared && !slot.declared && param.width === slot.size) slot.declared = param.declared;
    });
  }
}

/** Read or spilled at less than a word: an integer of that width, whatever callees say. */
const narrowerThan = (ev: Evidence, word: number): boolean =>
  [...ev.readWidths].some((w) => w < word) || (ev.spillWidth !== null && ev.spillWidth < word);

/** A parameter's key among a function's pointer parameters: register positions ≥ 0, stack slots < 0. */
const slotKey = (stack: boolean, pos: number): number => (stack ? -1 - pos : pos);

/** Highest position that `live` accepts, plus one: an unused parameter below a used one still exists. */
function highest(uses: ArgUse[], live: (u: ArgUse) => boolean, slot = 0): number {
  let n = 0;
  // A stack argument wider than a slot (an i386 `long long` or `double`) spans several.
  for (const u of uses) if (live(u)) n = Math.max(n, u.pos + (slot ? Math.max(1, Math.ceil(u.width / slot)) : 1));
  return n;
}

/** What every (non-tail) call site agrees on: the smallest count among them. */
function consensus(sites: CallSiteFacts[], count: (s: CallSiteFacts) => number): number {
  const direct = sites.filter((s) => !s.tail);
  return direct.length ? Math.min(...direct.map(count)) : 0;
}

/** Non-void when a caller reads the result, or the function returns a value it computed for that. */
function returnsValue(facts: FunctionFacts, sites: CallSiteFacts[]): boolean {
  const direct = sites.filter((s) => !s.tail);
  const reading = direct.filter((s) => s.result !== null || s.floatResult !== null).length;
  const computed = facts.returns.dedicated > 0 && !facts.returns.untouched;
  // A value computed for the return, or one a good share of the callers read: one caller reading the
  // register after the call (through a phi its other path defines) is weak evidence alone.
  return computed || (reading > 0 && reading * RESULT_READERS >= direct.length);
}

/** One in this many callers reading the result makes a function non-void on their word alone. */
const RESULT_READERS = 3;

function signatureOf(
  a: Analysed,
  count: { int: number; float: number; stack: number },
  pointers: Set<number>,
  nonVoid: boolean,
  sites: CallSiteFacts[],
): RecoveredSignature {
  const params: RecoveredParam[] = [];
  const registers = registerOrder(a, count.int);
  for (const i of registers.positions) {
    const u = a.facts.intArgs[i];
    const siteWidth = Math.max(0, ...sites.map((s) => s.intSet[i] ?? 0));
    // A register holds a word at most: a wider read is a vector move of it (movq xmm0, rdi).
    const width = Math.min(paramWidth(u?.ev, siteWidth, a.addressSize), Math.max(a.addressSize, 8));
    const pointer =
      (u?.ev.address ?? false) || pointers.has(slotKey(false, i)) || wordSizedOpaque(u?.ev, width, a.addressSize);
    params.push({
      location: { kind: 'int', index: i },
      width: pointer ? a.addressSize : width,
      cls: classOf(width, pointer),
      ...fieldsOf(u?.ev, pointer),
    });
  }
  for (let i = 0; i < count.float; i++) {
    const u = a.facts.floatArgs[i];
    const w = u && u.ev.readWidths.has(4) && !u.ev.readWidths.has(8) ? 4 : 8;
    params.push({ location: { kind: 'float', index: i }, width: w, cls: w === 4 ? 'float32' : 'float64' });
  }
  for (let i = 0; i < count.stack;) {
    const u = a.facts.stackArgs.find((s) => s.pos === i);
    const width = u ? Math.max(u.width, a.conv.stackSlot) : a.conv.stackSlot;
    const slots = Math.max(1, Math.round(width / a.conv.stackSlot));
    const ev = u?.ev;
    const w = u ? paramWidth(ev, u.width, a.addressSize) : a.conv.stackSlot;
    const pointer = (ev?.address ?? false) || pointers.has(slotKey(true, i)) || wordSizedOpaque(ev, w, a.addressSize);
    params.push({
      location: { kind: 'stack', offset: a.conv.stackArgsAt + i * a.conv.stackSlot },
      width: pointer ? a.addressSize : w,
      cls: ev?.float ? (w === 4 ? 'float32' : 'float64') : classOf(w, pointer),
      ...fieldsOf(ev, pointer),
    });
    i += slots;
  }
  return {
    // i386: arguments popped by the callee are stdcall, in registers regparm, fastcall or thiscall.
    convention: a.facts.pops > 0 ? 'stdcall' : (registers.convention ?? a.conv.name),
    params,
    returns: nonVoid ? returnClass(a.facts, sites, a.addressSize) : { cls: 'void', width: 0 },
    variadic: a.facts.variadic,
    calleePops: a.facts.pops,
    frame: a.facts.frame.map((v) => ({ ...v })),
    globals: a.facts.globals,
  };
}

/** The fields accessed through a pointer parameter, in offset order. */
function fieldsOf(ev: Evidence | undefined, pointer: boolean): Pick<RecoveredParam, 'fields'> {
  if (!pointer || !ev?.fields.size) return {};
  return { fields: [...ev.fields].map(([offset, size]) => ({ offset, size })).sort((x, y) => x.offset - y.offset) };
}

/**
 * A word-sized value that is only moved, stored, compared with null or passed on is more often a pointer
 * than an integer in C (x86-64 corpus: 4 to 1): integers show themselves in arithmetic and comparisons.
 * Not where `int` is as wide as an address (32-bit targets): there the word is `int` as often as not
 * (i386 corpus: 3 integers to 2 pointers among such values).
 */
function wordSizedOpaque(ev: Evidence | undefined, width: number, word: number): boolean {
  return width === word && word > INT_SIZE && !!ev && ev.used && !ev.arithmetic && !ev.float;
}

/** C's `int` on every target the lifters cover (ILP32, LP64, LLP64). */
const INT_SIZE = 4;

/** The declared width: what -O0 code spills it at, else the widest it is read at, else what callers set. */
function paramWidth(ev: Evidence | undefined, siteWidth: number, word: number): number {
  if (ev?.spillWidth) return ev.spillWidth;
  if (ev && ev.readWidths.size) return Math.max(...ev.readWidths);
  return siteWidth || word;
}

function returnClass(facts: FunctionFacts, sites: CallSiteFacts[], word: number): { cls: CoarseClass; width: number } {
  const used = sites.map((s) => s.result).filter((e): e is Evidence => e !== null);
  // Half the callers at least: one caller's stray vector read is no double.
  const floatUsed = sites.filter((s) => s.floatResult).length * 2 >= Math.max(1, sites.length);
  if ((floatUsed && !used.length) || (!sites.length && facts.returns.float && !facts.returns.dedicated))
    return facts.returns.float === 4 ? { cls: 'float32', width: 4 } : { cls: 'float64', width: 8 };
  if (used.some((e) => e.address) || (!sites.length && facts.returns.address)) return { cls: 'pointer', width: word };
  // Callers that only pass the result on (no read at a width) say nothing of its width.
  const read = used.flatMap((e) => [...e.readWidths]);
  const width = read.length ? Math.max(...read) : facts.returns.dedicated || word;
  return { cls: classOf(width, false), width };
}

function classOf(width: number, pointer: boolean): CoarseClass {
  if (pointer) return 'pointer';
  if (width <= 1) return 'int8';
  if (width === 2) return 'int16';
  if (width <= 4) return 'int32';
  return width >= 16 ? 'int128' : 'int64';
}
