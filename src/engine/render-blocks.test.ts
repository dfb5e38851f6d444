import { test } from 'node:test';
import assert from 'node:assert/strict';
import { corpusEntries, readCorpus } from '../../test/helpers/engine/disasm.js';
import { analyze, type AnalyzeOptions } from './pipeline.js';
import { renderBlocks } from './render-blocks.js';

// push rbp; mov rbp, rsp; call helper; pop rbp; ret; int3; helper: xor eax, eax; ret
const code = Uint8Array.from([0x55, 0x48, 0x89, 0xe5, 0xe8, 3, 0, 0, 0, 0x5d, 0xc3, 0xcc, 0x31, 0xc0, 0xc3]);
const options: AnalyzeOptions = { binaryConfig: { isa: 'x86_64' }, symbols: { baseAddress: 0x401000, functions: [] } };

test('renderBlocks: text per block, call targets named', async () => {
  const r = await analyze(code, options);
  const main = r.functions.find((f) => f.vaddr === 0x401000)!;
  const lines = await renderBlocks(code, { options, thumb: false, blocks: main.blocks, names: { 0x40100c: 'helper' } });
  assert.deepEqual(lines, [
    ['0x401000: push rbp', '0x401001: mov rbp, rsp', '0x401004: call 0x40100c ; helper'],
    ['0x401009: pop rbp', '0x40100a: ret'],
  ]);
});

test('renderBlocks: bytes that do not decode or are not mapped end the block with (bad)', async () => {
  const blocks = [
    { start: 0x40100b, end: 0x40100f }, // int3 then a truncated xor: int3 decodes, the rest is fine too
    { start: 0x500000, end: 0x500004 }, // outside the blob
  ];
  assert.deepEqual(await renderBlocks(code, { options, thumb: false, blocks }), [
    ['0x40100b: int3', '0x40100c: xor eax, eax', '0x40100e: ret'],
    ['0x500000: (bad)'],
  ]);
});

test('renderBlocks: every corpus architecture renders its recovered blocks in full', async (t) => {
  const stripped = corpusEntries().filter((e) => e.stripped && e.path.includes('lz4-1.10.0_linux'));
  if (stripped.length === 0) return t.skip('../shared/corpus is not present');
  const byArch = new Map(stripped.map((e) => [e.arch, e]));
  for (const [arch, entry] of byArch) {
    const bytes = readCorpus(entry);
    const r = await analyze(bytes, {});
    for (const f of r.functions.filter((_, i) => i % 10 === 0)) {
      const lines = await renderBlocks(bytes, { options: {}, thumb: f.thumb, blocks: f.blocks });
      f.blocks.forEach((b, i) => {
        const at = `${arch} ${f.name} block 0x${b.start.toString(16)}`;
        assert.equal(lines[i]!.length, b.instructions, `${at}: ${lines[i]!.join(' | ')}`);
        assert.ok(
          lines[i]!.every((l) => !l.endsWith('(bad)')),
          `${at}: ${lines[i]!.join(' | ')}`,
        );
      });
    }
  }
});
