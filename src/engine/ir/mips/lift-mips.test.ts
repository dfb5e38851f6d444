import { test } from 'node:test';
import assert from 'node:assert/strict';
import { words } from '../../../../test/helpers/engine/cfg.js';
import { exprText, liftFixture, liftLines, signaturesOf, stmtText } from '../../../../test/helpers/engine/ir.js';

test('lift (MIPS32 little-endian): lui/addiu, loads and stores, hi:lo products, slt, movn, the FPU compare and branch', async () => {
  const lines = await liftLines(
    'mipsel',
    words(
      0x3c021234, // lui v0, 0x1234
      0x24425678, // addiu v0, v0, 0x5678
      0x8fa40010, // lw a0, 16(sp)
      0xafbf001c, // sw ra, 28(sp)
      0x00850018, // mult a0, a1
      0x00001012, // mflo v0
      0x0085102a, // slt v0, a0, a1
      0x0085100b, // movn v0, a0, a1
      0x462e603c, // c.lt.d $f12, $f14
      0x45010002, // bc1t +12
      0x462e6000, // add.d $f0, $f12, $f14
      0x44856000, // mtc1 a1, $f12
      0x03e00008, // jr ra
    ),
  );
  assert.deepEqual(lines, [
    ['v0 = 0x12340000'],
    ['v0 = (v0:4 add 0x5678)'],
    ['a0 = [(sp:4 add 0x10)]:4'],
    ['[(sp:4 add 0x1c)]:4 = ra:4'],
    ['tmp1 = (sext8(a0:4) mul sext8(a1:4))', 'lo = trunc4(tmp1:8)', 'hi = trunc4((tmp1:8 shr 0x20))'],
    ['v0 = lo:4'],
    ['v0 = slt(sub(a0:4, a1:4))'],
    ['v0 = (ne(sub(a1:4, 0x0)) ? a0:4 : v0:4)'],
    ['fcc = slt(fcmp(f12:8, f14:8))'],
    ['branch fcc:1'],
    ['f0 = (f12:8 fadd f14:8)'],
    ['f12 = (f12:8 deposit a1:4)'],
    ['ret'],
  ]);
});

test('lift (MIPS32 big-endian): the same words in the other byte order', async () => {
  const be = (...w: number[]) => w.flatMap((x) => [x >>> 24, (x >>> 16) & 0xff, (x >>> 8) & 0xff, x & 0xff]);
  const lines = await liftLines('mips', be(0x3c021234, 0x24425678));
  assert.deepEqual(lines, [['v0 = 0x12340000'], ['v0 = (v0:4 add 0x5678)']]);
});

test('lift (MIPS32): a delay slot runs before its branch, which compares the registers as they were before the slot', async () => {
  const code = words(
    0x10800003, // beqz a0, 0x1010
    0x24840001, //   addiu a0, a0, 1 (delay slot)
    0x03e00008, // jr ra
    0x00801021, //   move v0, a0 (delay slot: the returned value)
    0x03e00008, // 0x1010: jr ra
    0x24020000, //   li v0, 0
  );
  const fns = await liftFixture({
    arch: 'mips',
    sections: [{ name: '.text', vaddr: 0x1000, bytes: code, exec: true }],
    entryPoints: [{ vaddr: 0x1000, kind: 'entry' }],
  });
  const fn = fns.get(0x1000)!.ssa.fn;
  const text = fn.blocks.map((b) => b.stmts.filter((s) => s.k !== 'phi').map((s) => stmtText(s, fn.regs.names)));
  // Block 0 sets what the ABI fixes on entry: t9 holds the function's address.
  assert.deepEqual(text[0], ['t9 = 0x1000']);
  assert.deepEqual(text[1], ['tmp0 = eq(sub(a0:4, 0x0))', 'a0 = (a0:4 add 0x1)', 'branch tmp0:1']);
  assert.deepEqual(text[2], ['v0 = a0:4', 'ret']);
});

test('data flow (MIPS32 PIC): calls through GOT slots off gp reach the import, also after gp is reloaded from its save slot', async () => {
  const code = words(
    0x27bdffe0, // addiu sp, sp, -32
    0xafbf001c, // sw ra, 28(sp)
    0xafbc0010, // sw gp, 16(sp)        (gp = .got + 0x7ff0 on entry)
    0x8f998020, // lw t9, -0x7fe0(gp)   (the slot at 0x2010: strlen)
    0x0320f809, // jalr t9
    0x00000000, //   nop
    0x8fbc0010, // lw gp, 16(sp)        (the call clobbered gp)
    0x8f998020, // lw t9, -0x7fe0(gp)
    0x0320f809, // jalr t9
    0x00000000, //   nop
    0x8fbf001c, // lw ra, 28(sp)
    0x03e00008, // jr ra
    0x27bd0020, //   addiu sp, sp, 32
  );
  const fns = await liftFixture({
    arch: 'mips',
    sections: [
      { name: '.text', vaddr: 0x1000, bytes: code, exec: true },
      { name: '.got', vaddr: 0x2000, bytes: new Array(0x20).fill(0), exec: false },
    ],
    entryPoints: [{ vaddr: 0x1000, kind: 'entry' }],
    imports: [{ name: 'strlen', library: null, slot: 0x2010, stubs: [] }],
  });
  const fn = fns.get(0x1000)!.ssa.fn;
  const calls = fn.blocks.flatMap((b) => b.stmts.filter((s) => s.k === 'call'));
  assert.deepEqual(
    calls.map((c) => c.k === 'call' && exprText(c.target, fn.regs.names)),
    ['[0x2010]:4', '[0x2010]:4'],
  );
});

test('signatures (O32): a0/a1 arguments, a result set in the return’s delay slot, a stack argument at entry sp + 16', async () => {
  const code = words(
    // 0x1000 f(int a, int *p): *p = a; return a << 1; (arithmetic: an int, not a word-sized pointer)
    0xaca40000, // sw a0, 0(a1)
    0x03e00008, // jr ra
    0x00041040, //   sll v0, a0, 1
    // 0x100c g(): int local; return f(5, &local) * 2;
    0x27bdffe0, // addiu sp, sp, -32
    0xafbf001c, // sw ra, 28(sp)
    0x27a50018, // addiu a1, sp, 24
    0x0c000400, // jal 0x1000
    0x24040005, //   li a0, 5
    0x00021040, // sll v0, v0, 1
    0x8fbf001c, // lw ra, 28(sp)
    0x03e00008, // jr ra
    0x27bd0020, //   addiu sp, sp, 32
    // 0x1030 h(a, b, c, d, int e): return e + 1;
    0x8fa20010, // lw v0, 16(sp)
    0x03e00008, // jr ra
    0x24420001, //   addiu v0, v0, 1
  );
  const sigs = await signaturesOf({
    arch: 'mips',
    sections: [{ name: '.text', vaddr: 0x1000, bytes: code, exec: true }],
    entryPoints: [
      { vaddr: 0x100c, kind: 'entry' },
      { vaddr: 0x1030, kind: 'init' },
    ],
  });
  const f = sigs.get(0x1000)!;
  assert.equal(f.convention, 'o32');
  assert.deepEqual(
    f.params.map((p) => p.cls),
    ['int32', 'pointer'],
  );
  assert.equal(f.returns.cls, 'int32');
  const g = sigs.get(0x100c)!;
  assert.deepEqual(g.params, []);
  assert.equal(g.returns.cls, 'int32');
  const h = sigs.get(0x1030)!;
  assert.deepEqual(
    h.params.filter((p) => p.location.kind === 'stack').map((p) => p.location),
    [{ kind: 'stack', offset: 16 }],
  );
});
