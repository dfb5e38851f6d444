// Test support for src/engine/ir and src/engine/types: a fixture image recovered, then its functions lifted,
// in SSA form with data flow, or with their recovered signatures; single instructions lifted, as text.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { functionBlocks } from '../../../src/engine/cfg/index.js';
import { createDecoder, type DecoderMode, type Decoders } from '../../../src/engine/disasm/index.js';
import { dataFlow, type DataFlow } from '../../../src/engine/ir/dataflow.js';
import type { Expr, Stmt } from '../../../src/engine/ir/ir.js';
import { FunctionLifter } from '../../../src/engine/ir/lift-function.js';
import { toSsa } from '../../../src/engine/ir/ssa.js';
import { MODE_PROFILES, isaProfile } from '../../../src/engine/isa/index.js';
import { recoverBinaryFunctions } from '../../../src/engine/recover-binary.js';
import { recoverFunctionSignatures, type RecoveredSignature } from '../../../src/engine/types/index.js';
import { fixtureImage, recoverFixture, type FixtureSpec } from './cfg.js';
import { CORPUS } from './disasm.js';

/** The decoders recovery used on the fixture (ARM: Thumb too). */
async function decodersOf(spec: FixtureSpec): Promise<Decoders> {
  const isa = isaProfile(spec.arch)!;
  const decoder = await createDecoder(isa.modeFor('little'));
  return isa.thumb ? { decoder, thumbDecoder: await createDecoder('thumb') } : { decoder };
}

/** Each recovered function of the fixture lifted, in SSA form, with its data flow. */
export async function liftFixture(spec: FixtureSpec): Promise<Map<number, DataFlow>> {
  const image = fixtureImage(spec);
  const graph = await recoverFixture(spec);
  const lifter = new FunctionLifter(image, graph, await decodersOf(spec), image.identity.platform);
  const layouts = functionBlocks(graph);
  const out = new Map<number, DataFlow>();
  graph.functions.forEach((f, fi) => {
    const fn = lifter.lift(fi, layouts[fi]!);
    if (fn) out.set(f.start, dataFlow(toSsa(fn)));
  });
  return out;
}

/** The fixture's functions' recovered signatures by start address. */
export async function signaturesOf(spec: FixtureSpec): Promise<Map<number, RecoveredSignature | null>> {
  const image = fixtureImage(spec);
  const graph = await recoverFixture(spec);
  const sigs = recoverFunctionSignatures(image, graph, await decodersOf(spec));
  return new Map(graph.functions.map((f, i) => [f.start, sigs[i]!]));
}

/** An expression as compact text: `x1:8` a register read at 8 bytes, `[a]:4` a load, `(a add b)`, `zext8(a)`. */
export function exprText(e: Expr, names: readonly string[]): string {
  const t = (x: Expr) => exprText(x, names);
  switch (e.k) {
    case 'const':
      return e.v < 0n && e.v > -0x10000n
        ? `-0x${(-e.v).toString(16)}`
        : `0x${BigInt.asUintN(e.w * 8, e.v).toString(16)}`;
    case 'reg':
      return `${names[e.r]}:${e.w}`;
    case 'load':
      return `[${t(e.addr)}]:${e.w}`;
    case 'bin':
      return `(${t(e.a)} ${e.op} ${t(e.b)})`;
    case 'un':
      return `${e.op}${e.w}(${t(e.a)})`;
    case 'flags':
      return `${e.op}(${t(e.a)}, ${t(e.b)})`;
    case 'cond':
      return `${e.cc}(${t(e.flags)})`;
    case 'select':
      return `(${t(e.c)} ? ${t(e.a)} : ${t(e.b)})`;
    case 'op':
      return `${e.name}(${e.args.map(t).join(', ')})`;
  }
}

/** A statement as compact text (calls and returns without the registers the driver adds). */
export function stmtText(s: Stmt, names: readonly string[]): string {
  const t = (x: Expr) => exprText(x, names);
  switch (s.k) {
    case 'set':
      return `${names[s.r]} = ${t(s.e)}`;
    case 'store':
      return `[${t(s.addr)}]:${s.w} = ${t(s.v)}`;
    case 'call':
      return `call ${t(s.target)}`;
    case 'branch':
      return `branch ${t(s.c)}`;
    case 'jump':
      return `jump ${t(s.target)}`;
    case 'ret':
      return 'ret';
    case 'effect':
      return `${s.name}(${s.reads.map(t).join(', ')}) -> ${s.writes.map((r) => names[r]).join(', ')}`;
    case 'phi':
      return `${names[s.r]} = phi`;
  }
}

/**
 * Each instruction of `bytes` (code at `vaddr`, decoded in `mode`) lifted in turn by its ISA's lifter, as
 * the text of its statements; an instruction that does not lift gives null.
 */
export async function liftLines(mode: DecoderMode, bytes: number[], vaddr = 0x1000): Promise<(string[] | null)[]> {
  const decoder = await createDecoder(mode);
  const ir = MODE_PROFILES[mode].ir!;
  const lifter = ir.lifter(decoder)!;
  const names = ir.registers(mode).names;
  const code = Uint8Array.from(bytes);
  const lines: (string[] | null)[] = [];
  for (let off = 0; off < code.length;) {
    const out: Stmt[] = [];
    const n = lifter.lift(code, off, vaddr + off, out);
    lines.push(n ? out.map((s) => stmtText(s, names)) : null);
    off += n || (mode === 'thumb' ? 2 : 4);
  }
  return lines;
}

/**
 * Signature recovery on a stripped corpus build against its DWARF twin's truth (../shared/corpus/types):
 * functions matched by address (GCC clones and runtime functions left out, as the corpus README says) and
 * how many of them got exactly the declared argument count; null when the corpus is absent.
 */
export async function corpusArgumentCounts(
  project: string,
  build: string,
): Promise<{ functions: number; exact: number } | null> {
  const truthFile = path.join(CORPUS, 'types', `${build}g.json`);
  const binary = path.join(CORPUS, 'bin', project, `${build}_stripped`);
  if (!existsSync(truthFile) || !existsSync(binary)) return null;
  const truth = JSON.parse(readFileSync(truthFile, 'utf8')) as {
    functions: { address: string; clone?: string; origin: string; params: unknown[] }[];
  };
  const { image, graph, decoders } = await recoverBinaryFunctions(readFileSync(binary), {});
  const sigs = recoverFunctionSignatures(image, graph, decoders);
  const byAddress = new Map(graph.functions.map((f, i) => [f.start, sigs[i]]));
  let functions = 0;
  let exact = 0;
  for (const f of truth.functions) {
    const sig = byAddress.get(Number(f.address));
    if (f.clone || f.origin === 'runtime' || !sig) continue;
    functions++;
    if (sig.params.length === f.params.length) exact++;
  }
  return { functions, exact };
}
