// ARM (A32) operations that read the carry as a value or keep the flags conditionally, checked by running
// the decompiled C: adc and sbc finish a 64-bit add and subtract in register pairs, and a compare executed
// only when an earlier one was not equal (`cmp r0, #0; cmpne r1, #5`) leaves the flags the branch reads.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildElf } from '../../../test/helpers/engine/elf.js';
import { hasCommand } from '../../../test/helpers/commands.js';
import { recoverBinaryFunctions } from '../recover-binary.js';
import { decompile } from './index.js';

const BX_LR = 0xe12fff1e;
/** The functions, one after another from START (ARM's zero word is an instruction: no padding between). */
const NAMES = ['either', 'add_hi', 'sub_hi'];
const START = 0x400000;

/**
 * add_hi(alo, ahi, blo, bhi) and sub_hi(…): the high word of a ± b as 64-bit pairs; either(a, b): a == 0 || b == 5.
 */
function program(): { bytes: Buffer; starts: number[] } {
  const functions = [
    [0xe3500000, 0x13510005, 0x03a00001, 0x13a00000, BX_LR], // cmp r0, #0; cmpne r1, #5; moveq r0, #1; movne r0, #0
    [0xe0900002, 0xe0a10003, BX_LR], // adds r0, r0, r2; adc r0, r1, r3
    [0xe0500002, 0xe0c10003, BX_LR], // subs r0, r0, r2; sbc r0, r1, r3
  ];
  const words = functions.flat();
  const code = new Uint8Array(words.length * 4);
  const view = new DataView(code.buffer);
  words.forEach((w, i) => view.setUint32(i * 4, w, true));
  const sections = [{ name: '.text', type: 1, flags: 6, addr: START, data: code }];
  const starts = functions.map((_, f) => START + 4 * functions.slice(0, f).flat().length);
  return {
    bytes: Buffer.from(buildElf({ bits: 32, little: true, machine: 40, type: 2, entry: START, sections })),
    starts,
  };
}

const CHECK = `
#include <assert.h>
int main(void) {
  uint64_t v[] = {0, 1, 0xffffffffull, 0x100000000ull, 0x1ffffffffull, 0xfffffffffffffffeull, 0x123456789abcdefull};
  for (int i = 0; i < 7; i++)
    for (int j = 0; j < 7; j++) {
      uint64_t a = v[i], b = v[j];
      assert((uint32_t)add_hi((uint32_t)a, (uint32_t)(a >> 32), (uint32_t)b, (uint32_t)(b >> 32)) == (uint32_t)((a + b) >> 32));
      assert((uint32_t)sub_hi((uint32_t)a, (uint32_t)(a >> 32), (uint32_t)b, (uint32_t)(b >> 32)) == (uint32_t)((a - b) >> 32));
    }
  int32_t x[] = {0, 5, -1, 7};
  for (int i = 0; i < 4; i++)
    for (int j = 0; j < 4; j++) assert(either(x[i], x[j]) == (x[i] == 0 || x[j] == 5));
  return 0;
}
`;

test('decompile: ARM adc/sbc read the carry as a value, and a compare under a condition keeps or sets the flags', async (t) => {
  if (!hasCommand('gcc')) return t.skip('gcc absent');
  const { bytes, starts } = program();
  const { image, graph, decoders } = await recoverBinaryFunctions(bytes, {});
  const names = graph.functions.map((f) => NAMES[starts.indexOf(f.start)] ?? `f_${f.start.toString(16)}`);
  const roots = NAMES.map((n) => names.indexOf(n));
  assert.ok(!roots.includes(-1), `every function recovered: ${names.join(', ')}`);
  const out = decompile(image, graph, decoders, roots, names);
  for (const f of out.functions) assert.ok(f.text, `${f.name}: ${f.error}`);
  const dir = mkdtempSync(join(tmpdir(), 'binlens-arm-'));
  try {
    writeFileSync(join(dir, 'check.c'), `${out.source}\n${CHECK}`);
    execFileSync('gcc', ['-w', 'check.c', '-o', 'check'], { cwd: dir, stdio: 'pipe' });
    execFileSync('./check', { cwd: dir, stdio: 'pipe' });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
