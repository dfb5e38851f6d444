import { test } from 'node:test';
import assert from 'node:assert/strict';
import { recoverFixture, starts } from '../../../test/helpers/engine/cfg.js';

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
