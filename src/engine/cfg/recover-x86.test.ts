import { test } from 'node:test';
import assert from 'node:assert/strict';
import { recoverFixture, starts, words } from '../../../test/helpers/engine/cfg.js';

test('recover (x86): a jump past the next known function start leaves the function (a .cold part)', async () => {
  // No unwind table bounds A: its jne to A.cold, placed after B, used to make A.cold a block of A.
  const code = [
    ...[0x85, 0xc0, 0x0f, 0x85, 0x18, 0x00, 0x00, 0x00, 0xc3], // 0x1000 A: test eax, eax; jne 0x1020; ret
    ...new Array<number>(7).fill(0xcc),
    ...[0x31, 0xc0, 0xc3], // 0x1010 B: xor eax, eax; ret
    ...new Array<number>(13).fill(0xcc),
    ...[0xb8, 0x01, 0x00, 0x00, 0x00, 0xc3], // 0x1020 A.cold: mov eax, 1; ret
  ];
  const g = await recoverFixture({
    arch: 'x86',
    sections: [{ name: '.text', vaddr: 0x1000, bytes: code, exec: true }],
    entryPoints: [
      { vaddr: 0x1000, kind: 'entry' },
      { vaddr: 0x1010, kind: 'init' },
    ],
  });
  assert.deepEqual(starts(g), [0x1000, 0x1010, 0x1020]);
  assert.equal(g.functions[0]!.end, 0x1009);
});

test('recover (x86): a switch table is read up to its bounds check, not into the table stored after it', async () => {
  // 0x1000: cmp esi, 2; ja 0x1030; lea rdx, [rip+0x2000]; movsxd rax, [rdx+rsi*4]; add rax, rdx; jmp rax,
  // three cases of `mov eax, n; ret`, the default `xor eax, eax; ret`.
  const code = [
    ...[0x83, 0xfe, 0x02, 0x77, 0x2b],
    ...[0x48, 0x8d, 0x15, 0xf4, 0x0f, 0x00, 0x00],
    ...[0x48, 0x63, 0x04, 0xb2, 0x48, 0x01, 0xd0, 0xff, 0xe0],
    ...[0xb8, 0x01, 0x00, 0x00, 0x00, 0xc3, 0xb8, 0x02, 0x00, 0x00, 0x00, 0xc3, 0xb8, 0x03, 0x00, 0x00, 0x00, 0xc3],
    ...new Array<number>(9).fill(0xcc),
    ...[0x31, 0xc0, 0xc3],
  ];
  // The table at 0x2000 (offsets from it), and right after it another switch's table, whose offsets from
  // its own base (0x200c) are cases of this function too, but from 0x2000 would land inside instructions.
  const offsets = (base: number, targets: number[]) => words(...targets.map((t) => t - base));
  const rodata = [...offsets(0x2000, [0x1015, 0x101b, 0x1021]), ...offsets(0x200c, [0x1015, 0x1021])];
  const g = await recoverFixture({
    arch: 'x86_64',
    sections: [
      { name: '.text', vaddr: 0x1000, bytes: code, exec: true },
      { name: '.rodata', vaddr: 0x2000, bytes: rodata },
    ],
    entryPoints: [{ vaddr: 0x1000, kind: 'entry' }],
  });
  const blockStarts = [...g.blocks.start].slice(0, g.functions[0]!.blockCount).sort((a, b) => a - b);
  assert.deepEqual(blockStarts, [0x1000, 0x1005, 0x1015, 0x101b, 0x1021, 0x1030]);
});
