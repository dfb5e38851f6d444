// MIPS operations the decompiler states with helpers or formulas, checked by running: the unaligned word
// instructions (lwl/lwr, swl/swr) touch exactly the bytes the machine does (a synthetic MIPS32 function of
// each pair, both byte orders, run at every alignment; outside the word nothing changes); madd/msubu
// accumulate the 64-bit product into hi:lo; a conditional trap (teq) aborts exactly when its comparison holds.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildElf } from '../../../test/helpers/engine/elf.js';
import { hasCommand } from '../../../test/helpers/commands.js';
import { recoverBinaryFunctions } from '../recover-binary.js';
import { decompile } from './index.js';

const I = (op: number, base: number, rt: number, off: number) => ((op << 26) | (base << 21) | (rt << 16) | off) >>> 0;
/** SPECIAL (opcode 0) and SPECIAL2 (28) register forms. */
const R = (funct: number, rs: number, rt: number, rd = 0, op = 0) =>
  ((op << 26) | (rs << 21) | (rt << 16) | (rd << 11) | funct) >>> 0;
const JR_RA = 0x03e00008;
const NOP = 0;
const [A0, A1, A2, A3, V0] = [4, 5, 6, 7, 2];
const [LWL, LWR, SWL, SWR] = [34, 38, 42, 46];
const [MTHI, MTLO, MFHI, MFLO, TEQ, ADDU] = [0x11, 0x13, 0x10, 0x12, 0x34, 0x21];
const [MADD, MSUBU] = [0, 5];
/** The functions, 32 bytes apart from START, by name. */
const NAMES = ['load', 'store', 'madd_hi', 'msubu_lo', 'checked'];
const START = 0x400000;

/**
 * load(p): the word at p in the target's byte order; store(p, v): v's bytes at p; madd_hi(a, b, lo, hi) and
 * msubu_lo(a, b, lo, hi): one half of hi:lo ± a × b; checked(a, b): traps when b == 0, else returns a.
 */
function program(little: boolean): Buffer {
  // Little-endian: the word's high bytes end at p + 3 (lwl), its low bytes start at p (lwr); big-endian mirrored.
  const [hi, lo] = little ? [3, 0] : [0, 3];
  const functions = [
    [I(LWL, A0, V0, hi), I(LWR, A0, V0, lo), JR_RA, NOP],
    [I(SWL, A0, A1, hi), I(SWR, A0, A1, lo), JR_RA, NOP],
    [R(MTLO, A2, 0), R(MTHI, A3, 0), R(MADD, A0, A1, 0, 28), R(MFHI, 0, 0, V0), JR_RA, NOP],
    [R(MTLO, A2, 0), R(MTHI, A3, 0), R(MSUBU, A0, A1, 0, 28), R(MFLO, 0, 0, V0), JR_RA, NOP],
    [R(TEQ, A1, 0), R(ADDU, A0, 0, V0), JR_RA, NOP],
  ];
  const code = new Uint8Array(functions.length * 32);
  const view = new DataView(code.buffer);
  functions.forEach((words, f) => words.forEach((w, i) => view.setUint32(f * 32 + i * 4, w, little)));
  const sections = [{ name: '.text', type: 1, flags: 6, addr: START, data: code }];
  return Buffer.from(buildElf({ bits: 32, little, machine: 8, type: 2, entry: START, sections }));
}

// The target's addresses are 32 bits: the bytes live in a page mapped below 4 GiB so they survive as them.
const CHECK = (little: boolean) => `
#include <assert.h>
#include <sys/mman.h>
int main(int argc, char **argv) {
  (void)argv;
  uint8_t *m = mmap((void *)0x20000000, 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0);
  assert(m == (uint8_t *)0x20000000);
  for (unsigned at = 0; at < 4; at++) {
    for (unsigned i = 0; i < 12; i++) m[i] = (uint8_t)(0x10 + i);
    uint32_t want = 0;
    for (unsigned i = 0; i < 4; i++) want |= (uint32_t)m[4 + at + i] << (8 * (${little ? 'i' : '3 - i'}));
    assert((uint32_t)load(m + 4 + at) == want);
    store(m + 4 + at, 0xa1b2c3d4u);
    for (unsigned i = 0; i < 12; i++) {
      unsigned k = i - 4 - at;
      uint8_t expect = i >= 4 + at && i < 8 + at ? (uint8_t)(0xa1b2c3d4u >> (8 * (${little ? 'k' : '3 - k'}))) : (uint8_t)(0x10 + i);
      assert(m[i] == expect);
    }
  }
  uint64_t p = 0x0000000500000009ull + (uint64_t)((int64_t)-7 * 123456789);
  assert((uint32_t)madd_hi(-7, 123456789, 9, 5) == (uint32_t)(p >> 32));
  uint64_t q = 0x0000000100000002ull - (uint64_t)0xfffffff0u * 3u;
  assert((uint32_t)msubu_lo(0xfffffff0, 3, 2, 1) == (uint32_t)q);
  assert(checked(42, 1) == 42);
  return argc > 1 ? (int)checked(1, 0) : 0;
}
`;

for (const little of [true, false])
  test(`decompile: MIPS ${little ? 'little' : 'big'}-endian lwl/lwr, swl/swr, madd/msubu and teq compute what the machine does`, async (t) => {
    if (!hasCommand('gcc')) return t.skip('gcc absent');
    const { image, graph, decoders } = await recoverBinaryFunctions(program(little), {});
    const names = graph.functions.map((f) => NAMES[(f.start - START) / 32] ?? `f_${f.start.toString(16)}`);
    const roots = NAMES.map((n) => names.indexOf(n));
    assert.ok(!roots.includes(-1), `every function recovered: ${names.join(', ')}`);
    const out = decompile(image, graph, decoders, roots, names);
    for (const f of out.functions) assert.ok(f.text, `${f.name}: ${f.error}`);
    assert.match(out.source, /bl_lwl\(/);
    assert.match(out.source, /bl_swr\(/);
    const dir = mkdtempSync(join(tmpdir(), 'binlens-mips-'));
    try {
      writeFileSync(join(dir, 'check.c'), `${out.source}\n${CHECK(little)}`);
      execFileSync('gcc', ['-w', 'check.c', '-o', 'check'], { cwd: dir, stdio: 'pipe' });
      execFileSync('./check', { cwd: dir, stdio: 'pipe' });
      // With a divisor of zero the trap fires: abort(), as the machine would fault.
      assert.equal(spawnSync('./check', ['trap'], { cwd: dir }).signal, 'SIGABRT');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
