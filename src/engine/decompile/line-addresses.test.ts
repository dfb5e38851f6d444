// The line map of decompiled C (DecompiledFunction.lines) on lz4 functions of the corpus (../shared/corpus;
// skipped when absent): one entry per line of the text, every address an instruction of the function, nearly
// every instruction with an effect on some line, each `ret` on a `return` line and each conditional branch on
// the line that tests it, with the compare it reads.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { corpusFile } from '../../../test/helpers/engine/fuzzy.js';
import { functionBlocks } from '../cfg/index.js';
import { fileOffsetOf, type BinaryImage } from '../formats/image.js';
import type { Stmt } from '../ir/ir.js';
import { FunctionLifter } from '../ir/lift-function.js';
import { recoverBinaryFunctions } from '../recover-binary.js';
import { decompile, type DecompiledFunction } from './index.js';

const LZ4 = 'bin/lz4/lz4-1.10.0_linux-x86_64_gcc12_O2';
const ROOTS = ['LZ4_compressBound', 'LZ4_decompress_safe', 'LZ4_compress_default'];
/** Lines that test a condition. */
const CONTROL = /^(if \(|\} else if \(|while \(|for \(|\} while \(|switch \()/;

interface Mapped {
  f: DecompiledFunction & { text: string };
  /** The text's lines, trimmed. */
  text: string[];
  /** Addresses of the function's instructions. */
  insns: Set<number>;
  /** Its IR statements, in block order. */
  stmts: Stmt[];
}

let decompiled: Promise<{ image: BinaryImage; mapped: Mapped[] }> | null = null;

/** The functions `ROOTS` reach, decompiled (once), each with its instructions and IR; null when the corpus is absent. */
async function lz4(t: Parameters<typeof corpusFile>[0]) {
  const bytes = corpusFile(t, LZ4);
  return bytes && (decompiled ??= mappedFunctions(bytes));
}

async function mappedFunctions(bytes: Uint8Array) {
  const { image, graph, decoders } = await recoverBinaryFunctions(bytes, {});
  const index = (name: string) =>
    graph.functions.findIndex((f) => f.start === image.symbols.find((s) => s.name === name)!.vaddr);
  const out = decompile(image, graph, decoders, ROOTS.map(index));
  const lifter = new FunctionLifter(image, graph, decoders, image.identity.platform);
  const layouts = functionBlocks(graph);
  const mapped = out.functions.flatMap((f): Mapped[] => {
    if (f.text === null) return [];
    const fi = graph.functions.findIndex((g) => g.start === f.address);
    const g = graph.functions[fi]!;
    const insns = new Set<number>();
    for (let b = g.firstBlock; b < g.firstBlock + g.blockCount; b++)
      for (let k = graph.blocks.firstInsn[b]!; k < graph.blocks.firstInsn[b]! + graph.blocks.insns[b]!; k++)
        insns.add(graph.insns.addr[k]!);
    const stmts = lifter.lift(fi, layouts[fi]!)!.blocks.flatMap((b) => b.stmts);
    return [{ f: { ...f, text: f.text }, text: f.text.split('\n').map((l) => l.trim()), insns, stmts }];
  });
  return { image, mapped };
}

/** The trimmed lines whose map holds `address`. */
const linesAt = (m: Mapped, address: number) => m.text.filter((_, i) => m.f.lines[i]!.includes(address));

test('decompile lines: each line of C maps to instructions of its function, and nearly every instruction with an effect is on a line', async (t) => {
  const found = await lz4(t);
  if (!found) return;
  assert.deepEqual(found.mapped.map((m) => m.f.name).slice(0, ROOTS.length), ROOTS, 'the roots decompile');
  let effects = 0;
  let covered = 0;
  for (const m of found.mapped) {
    const { f } = m;
    assert.equal(f.lines.length, m.text.length, `${f.name}: one entry per line`);
    assert.deepEqual([f.lines[0], f.lines.at(-1)], [[], []], `${f.name}: its head and closing brace come from none`);
    f.lines.forEach((line, i) => {
      assert.ok(
        line.every((a, k) => k === 0 || a > line[k - 1]!),
        `${f.name} line ${i + 1}: ascending, unique`,
      );
      for (const a of line)
        assert.ok(m.insns.has(a), `${f.name} line ${i + 1}: 0x${a.toString(16)} is its instruction`);
    });
    // An instruction has an effect when it lifts to more than phis and direct jumps (which the structure states).
    const mapped = new Set(f.lines.flat());
    const effect = new Set(
      m.stmts.filter((s) => s.k !== 'phi' && !(s.k === 'jump' && s.target.k === 'const')).map((s) => s.at),
    );
    effects += effect.size;
    covered += [...effect].filter((a) => mapped.has(a)).length;
  }
  // Measured: 1569 of 1570; what no line states is bookkeeping the C drops (a spill nothing reads back).
  t.diagnostic(`${covered} of ${effects} instructions with an effect are on a line`);
  assert.ok(covered / effects >= 0.98, `${covered} of ${effects}`);
});

test('decompile lines: every ret is on a return line, every conditional branch on the line that tests it', async (t) => {
  const found = await lz4(t);
  if (!found) return;
  const { image, mapped } = found;
  for (const m of mapped)
    for (const s of m.stmts) {
      if (s.k !== 'ret' && s.k !== 'branch') continue;
      const on = linesAt(m, s.at);
      const where = `${m.f.name} 0x${s.at.toString(16)}: ${JSON.stringify(on)}`;
      assert.ok(on.length, where);
      if (s.k === 'ret') assert.ok([0xc3, 0xc2].includes(image.bytes[fileOffsetOf(image, s.at)]!), `${where}: a ret`);
      assert.ok(
        on.every((l) => (s.k === 'ret' ? l.startsWith('return') : CONTROL.test(l))),
        where,
      );
    }
  // LZ4_compressBound: `cmp edi, 0x7e000000; ja …` is its one test, `ret` its one return.
  const bound = mapped.find((m) => m.f.name === 'LZ4_compressBound')!;
  const branches = bound.stmts.flatMap((s, i) => (s.k === 'branch' ? [i] : []));
  assert.equal(branches.length, 1);
  const jcc = bound.stmts[branches[0]!]!;
  const flags = bound.stmts.slice(0, branches[0]!).findLast((s) => s.k === 'set' && s.e.k === 'flags')!;
  const test = linesAt(bound, jcc.at);
  assert.equal(test.length, 1);
  assert.match(test[0]!, /^if \(/);
  assert.deepEqual(linesAt(bound, flags.at), test, 'the compare is on the line of the branch that reads it');
  const rets = bound.stmts.filter((s) => s.k === 'ret');
  assert.equal(rets.length, 1);
  assert.deepEqual(
    linesAt(bound, rets[0]!.at).map((l) => l.split(' ')[0]),
    ['return'],
  );
});
