import { test } from 'node:test';
import assert from 'node:assert/strict';
import { words } from '../../../../test/helpers/engine/cfg.js';
import { CORPUS } from '../../../../test/helpers/engine/disasm.js';
import { corpusArgumentCounts, liftFixture, liftLines, signaturesOf } from '../../../../test/helpers/engine/ir.js';

test('lift (AArch64): writeback updates the base after the access; a pair loaded over its own base is written base last', async () => {
  const lines = await liftLines(
    'arm64',
    words(
      0xa9be7bfd, // stp x29, x30, [sp, #-0x20]!
      0xa8c27bfd, // ldp x29, x30, [sp], #0x20
      0xf8408c20, // ldr x0, [x1, #8]!
      0xb8404420, // ldr w0, [x1], #4
      0xa9400400, // ldp x0, x1, [x0]
    ),
  );
  assert.deepEqual(lines, [
    ['[(sp:8 add -0x20)]:8 = x29:8', '[((sp:8 add -0x20) add 0x8)]:8 = x30:8', 'sp = (sp:8 add -0x20)'],
    ['x29 = [sp:8]:8', 'x30 = [(sp:8 add 0x8)]:8', 'sp = (sp:8 add 0x20)'],
    ['x0 = [(x1:8 add 0x8)]:8', 'x1 = (x1:8 add 0x8)'],
    ['x0 = zext8([x1:8]:4)', 'x1 = (x1:8 add 0x4)'],
    ['x1 = [((x0:8 add 0x0) add 0x8)]:8', 'x0 = [(x0:8 add 0x0)]:8'],
  ]);
});

test('lift (AArch64): W writes zero-extend, the zero register reads 0, flags are set from the old operands', async () => {
  const lines = await liftLines(
    'arm64',
    words(
      0x2a0103e0, // mov w0, w1
      0x39400000, // ldrb w0, [x0]
      0x93407c20, // sxtw x0, w1
      0xab010000, // adds x0, x0, x1
      0x1a9f17e0, // cset w0, eq
      0xb4000040, // cbz x0, #+8
      0x5400000b, // b.lt
      0x1e612800, // fadd d0, d0, d1
      0x1e612000, // fcmp d0, d1
      0x1e620000, // scvtf d0, w0
    ),
  );
  assert.deepEqual(lines, [
    ['x0 = zext8(x1:4)'],
    ['x0 = zext8(zext4([(x0:8 add 0x0)]:1))'],
    ['x0 = sext8(x1:4)'],
    ['nzcv = add(x0:8, x1:8)', 'x0 = (x0:8 add x1:8)'],
    ['x0 = zext8(eq(nzcv:8))'],
    ['branch eq(sub(x0:8, 0x0))'],
    ['branch slt(nzcv:8)'],
    ['v0 = zext16((v0:8 fadd v1:8))'],
    ['nzcv = fcmp(v0:8, v1:8)'],
    ['v0 = zext16(itof8(x0:4))'],
  ]);
});

test('lift (AArch64): a frame set up by stp with writeback: spills and reloads land at entry-sp offsets', async () => {
  const code = words(
    0xa9be7bfd, // stp x29, x30, [sp, #-0x20]!
    0x910003fd, // mov x29, sp
    0xb9001fe0, // str w0, [sp, #0x1c]
    0xf9000be1, // str x1, [sp, #0x10]
    0xb9401fe0, // ldr w0, [sp, #0x1c]
    0xf9400be1, // ldr x1, [sp, #0x10]
    0xb9000020, // str w0, [x1]
    0xa8c27bfd, // ldp x29, x30, [sp], #0x20
    0xd65f03c0, // ret
  );
  const fns = await liftFixture({
    arch: 'arm64',
    sections: [{ name: '.text', vaddr: 0x1000, bytes: code, exec: true }],
    entryPoints: [{ vaddr: 0x1000, kind: 'entry' }],
  });
  const df = fns.get(0x1000)!;
  assert.deepEqual(
    df.slots.map((s) => `${s.store ? 'store' : 'load'} ${s.off} ${s.w}`),
    ['store -32 8', 'store -24 8', 'store -4 4', 'store -16 8', 'load -4 4', 'load -16 8', 'load -32 8', 'load -24 8'],
  );
  // After the ldp the stack pointer is back at its entry value.
  const last = df.ssa.fn.blocks
    .at(-1)!
    .stmts.filter((s) => s.k === 'set' && s.r === df.ssa.fn.regs.sp)
    .at(-1)!;
  assert.equal(last.k, 'set');
  if (last.k === 'set') assert.deepEqual(df.valueOf(last.r, last.ver), { kind: 'sp', off: 0 });
});

test('signatures (AAPCS64): int and pointer arguments in x0/x1, a result the caller doubles; a double in d0 both ways', async () => {
  const code = words(
    // 0x1000 f(int a, int *p): *p = a; return a + 1;
    0xb9000020, // str w0, [x1]
    0x11000400, // add w0, w0, #1
    0xd65f03c0, // ret
    // 0x100c g(): return f(5, &local) * 2;
    0xa9be7bfd, // stp x29, x30, [sp, #-0x20]!
    0x910003fd, // mov x29, sp
    0x910073e1, // add x1, sp, #0x1c
    0x528000a0, // mov w0, #5
    0x97fffff9, // bl 0x1000
    0x531f7800, // lsl w0, w0, #1
    0xa8c27bfd, // ldp x29, x30, [sp], #0x20
    0xd65f03c0, // ret
    // 0x102c h(double x): return x + x;
    0x1e602800, // fadd d0, d0, d0
    0xd65f03c0, // ret
    // 0x1034 k(): return (int)h(1.0);
    0xa9bf7bfd, // stp x29, x30, [sp, #-0x10]!
    0x1e6e1000, // fmov d0, #1.0
    0x97fffffc, // bl 0x102c
    0x1e780000, // fcvtzs w0, d0
    0xa8c17bfd, // ldp x29, x30, [sp], #0x10
    0xd65f03c0, // ret
  );
  const sigs = await signaturesOf({
    arch: 'arm64',
    sections: [{ name: '.text', vaddr: 0x1000, bytes: code, exec: true }],
    entryPoints: [
      { vaddr: 0x100c, kind: 'entry' },
      { vaddr: 0x1034, kind: 'init' },
    ],
  });
  const f = sigs.get(0x1000)!;
  assert.equal(f.convention, 'aapcs64');
  assert.deepEqual(
    f.params.map((p) => p.cls),
    ['int32', 'pointer'],
  );
  assert.equal(f.returns.cls, 'int32');
  const g = sigs.get(0x100c)!;
  assert.deepEqual(g.params, []);
  assert.equal(g.returns.cls, 'int32');
  const h = sigs.get(0x102c)!;
  assert.deepEqual(
    h.params.map((p) => p.cls),
    ['float64'],
  );
  assert.equal(h.returns.cls, 'float64');
});

test('signatures (AAPCS64): exact argument count against DWARF on lz4 aarch64 gcc -O2 ≥ 0.9', async (t) => {
  const counts = await corpusArgumentCounts('lz4', 'lz4-1.10.0_linux-aarch64_gcc12_O2');
  if (!counts) {
    t.skip(`${CORPUS} absent: no type truth to compare with`);
    return;
  }
  assert.ok(counts.functions > 100, `${counts.functions} functions matched by address`);
  assert.ok(
    counts.exact / counts.functions >= 0.9,
    `exact argument count ${(counts.exact / counts.functions).toFixed(3)}`,
  );
});
