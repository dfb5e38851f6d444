import { test } from 'node:test';
import assert from 'node:assert/strict';
import { halfwords, words } from '../../../../test/helpers/engine/cfg.js';
import { exprText, liftFixture, liftLines, signaturesOf } from '../../../../test/helpers/engine/ir.js';

test('lift (Thumb): push/pop lists, writeback after the access, ldrd over its own base, IT-block instructions guarded and not setting flags', async () => {
  const lines = await liftLines(
    'thumb',
    halfwords(
      0xb510, // push {r4, lr}
      0xf851, // ldr r0, [r1, #4]!
      0x0f04,
      0xe9d0, // ldrd r0, r1, [r0]
      0x0100,
      0x2800, // cmp r0, #0
      0xbf08, // it eq
      0x2001, // moveq r0, #1 (movs outside an IT block)
      0x1c40, // adds r0, r0, #1
      0xb108, // cbz r0, +6
      0xbd10, // pop {r4, pc}
    ),
  );
  assert.deepEqual(lines, [
    ['[(sp:4 add -0x8)]:4 = r4:4', '[(sp:4 add -0x4)]:4 = lr:4', 'sp = (sp:4 sub 0x8)'],
    ['r0 = [(r1:4 add 0x4)]:4', 'r1 = (r1:4 add 0x4)'],
    ['r1 = [(r0:4 add 0x4)]:4', 'r0 = [r0:4]:4'],
    ['cpsr = sub(r0:4, 0x0)'],
    [],
    ['r0 = (eq(cpsr:4) ? 0x1 : r0:4)'],
    ['cpsr = add(r0:4, 0x1)', 'r0 = (r0:4 add 0x1)'],
    ['branch eq(sub(r0:4, 0x0))'],
    ['r4 = [sp:4]:4', 'sp = (sp:4 add 0x8)', 'ret'],
  ]);
});

test('lift (Thumb): VFP loads, arithmetic, and vcmp flags reaching the cpsr through vmrs', async () => {
  const lines = await liftLines(
    'thumb',
    halfwords(
      ...[0xed90, 0x0b00], // vldr d0, [r0]
      ...[0xee30, 0x0b01], // vadd.f64 d0, d0, d1
      ...[0xeeb4, 0x0bc1], // vcmpe.f64 d0, d1
      ...[0xeef1, 0xfa10], // vmrs APSR_nzcv, fpscr
      ...[0xeebd, 0x0bc0], // vcvt.s32.f64 s0, d0
      ...[0xee10, 0x0a10], // vmov r0, s0
    ),
  );
  assert.deepEqual(lines, [
    ['d0 = [r0:4]:8'],
    ['d0 = (d0:8 fadd d1:8)'],
    ['fpscr = fcmp(d0:8, d1:8)'],
    ['cpsr = fpscr:4'],
    ['d0 = (d0:8 deposit ftoi4(d0:8))'],
    ['r0 = d0:4'],
  ]);
});

test('lift (A32): conditional execution selects; a conditional flag-setting add goes through the scratch register', async () => {
  const lines = await liftLines(
    'arm',
    words(
      0x02800001, // addeq r0, r0, #1
      0x02900001, // addseq r0, r0, #1
      0xe4910004, // ldr r0, [r1], #4
      0xe8b00006, // ldm r0!, {r1, r2}
      0xe92d4010, // push {r4, lr}
      0xe59f0004, // ldr r0, [pc, #4]
      0xe12fff33, // blx r3
      0xe12fff1e, // bx lr
    ),
  );
  assert.deepEqual(lines, [
    ['r0 = (eq(cpsr:4) ? (r0:4 add 0x1) : r0:4)'],
    ['tmp0 = (eq(cpsr:4) ? add(r0:4, 0x1) : cpsr:4)', 'r0 = (eq(cpsr:4) ? (r0:4 add 0x1) : r0:4)', 'cpsr = tmp0:4'],
    ['r0 = [r1:4]:4', 'r1 = (r1:4 add 0x4)'],
    ['r1 = [r0:4]:4', 'r2 = [(r0:4 add 0x4)]:4', 'r0 = (r0:4 add 0x8)'],
    ['[(sp:4 add -0x8)]:4 = r4:4', '[(sp:4 add -0x4)]:4 = lr:4', 'sp = (sp:4 sub 0x8)'],
    ['r0 = [0x1020]:4'],
    ['call r3:4'],
    ['ret'],
  ]);
});

test('lift (Thumb): a frame below push {r4, lr}: locals at entry-sp offsets, sp back at its entry value at the return', async () => {
  const code = halfwords(
    0xb510, // push {r4, lr}
    0xb082, // sub sp, #8
    0x9001, // str r0, [sp, #4]
    0x9901, // ldr r1, [sp, #4]
    0xb002, // add sp, #8
    0xbd10, // pop {r4, pc}
  );
  const fns = await liftFixture({
    arch: 'arm',
    sections: [{ name: '.text', vaddr: 0x1000, bytes: code, exec: true }],
    entryPoints: [{ vaddr: 0x1000, kind: 'entry' }],
  });
  const df = fns.get(0x1000)!;
  // pop {r4, pc} reloads r4; the return address it pops is the return's (as x86's ret reads it).
  assert.deepEqual(
    df.slots.map((s) => `${s.store ? 'store' : 'load'} ${s.off} ${s.w}`),
    ['store -8 4', 'store -4 4', 'store -12 4', 'load -12 4', 'load -8 4'],
  );
  const sp = df.ssa.fn.blocks[0]!.stmts.filter((s) => s.k === 'set' && s.r === df.ssa.fn.regs.sp).at(-1)!;
  if (sp.k === 'set') assert.deepEqual(df.valueOf(sp.r, sp.ver), { kind: 'sp', off: 0 });
});

test('signatures (AAPCS-VFP, Thumb): r0/r1 arguments and r0 result; a push {r3, lr} alignment save is no argument; a double in d0', async () => {
  const code = halfwords(
    // 0x1000 f(int a, int *p): *p = a; return a << 1; (arithmetic: an int, not a word-sized pointer)
    0x6008, // str r0, [r1]
    0x0040, // lsls r0, r0, #1
    0x4770, // bx lr
    // 0x1006 g(): int local; return f(5, &local) * 2;
    0xb508, // push {r3, lr}
    0xb082, // sub sp, #8
    0xa901, // add r1, sp, #4
    0x2005, // movs r0, #5
    ...[0xf7ff, 0xfff7], // bl 0x1000
    0x0040, // lsls r0, r0, #1
    0xb002, // add sp, #8
    0xbd08, // pop {r3, pc}
    // 0x1018 h(double x): return x + x;
    ...[0xee30, 0x0b00], // vadd.f64 d0, d0, d0
    0x4770, // bx lr
    // 0x101e k(): return (int)h(1.0);
    0xb508, // push {r3, lr}
    ...[0xeeb7, 0x0b00], // vmov.f64 d0, #1.0
    ...[0xf7ff, 0xfff8], // bl 0x1018
    ...[0xeebd, 0x0bc0], // vcvt.s32.f64 s0, d0
    ...[0xee10, 0x0a10], // vmov r0, s0
    0xbd08, // pop {r3, pc}
  );
  const sigs = await signaturesOf({
    arch: 'arm',
    sections: [{ name: '.text', vaddr: 0x1000, bytes: code, exec: true }],
    entryPoints: [
      { vaddr: 0x1006, kind: 'entry' },
      { vaddr: 0x101e, kind: 'init' },
    ],
  });
  const f = sigs.get(0x1000)!;
  assert.equal(f.convention, 'aapcs-vfp');
  assert.deepEqual(
    f.params.map((p) => p.cls),
    ['int32', 'pointer'],
  );
  assert.equal(f.returns.cls, 'int32');
  const g = sigs.get(0x1006)!;
  assert.deepEqual(g.params, [], 'r3 saved and restored for alignment is not a parameter');
  assert.equal(g.returns.cls, 'int32');
  const h = sigs.get(0x1018)!;
  assert.deepEqual(
    h.params.map((p) => p.cls),
    ['float64'],
  );
  assert.equal(h.returns.cls, 'float64');
  assert.deepEqual(sigs.get(0x101e)!.params, []);
});

test('lift (A32): a literal-pool load from the code reads the constant there, and a call through it calls that constant', async () => {
  const code = words(
    0xe92d4010, // push {r4, lr}
    0xe59f3004, // ldr r3, [pc, #4]   (the word at 0x1010)
    0xe12fff33, // blx r3
    0xe8bd8010, // pop {r4, pc}
    0x00001014, // 0x1010: the literal, the address of the function after it
    0xe12fff1e, // 0x1014: bx lr
  );
  const fns = await liftFixture({
    arch: 'arm',
    sections: [{ name: '.text', vaddr: 0x1000, bytes: code, exec: true }],
    entryPoints: [{ vaddr: 0x1000, kind: 'entry', thumb: false }],
  });
  const fn = fns.get(0x1000)!.ssa.fn;
  const stmts = fn.blocks.flatMap((b) => b.stmts);
  assert.ok(
    stmts.some((s) => s.k === 'set' && fn.regs.names[s.r] === 'r3' && exprText(s.e, fn.regs.names) === '0x1014'),
  );
  const call = stmts.find((s) => s.k === 'call');
  assert.equal(call?.k === 'call' && exprText(call.target, fn.regs.names), '0x1014');
});
