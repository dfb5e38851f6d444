import { test } from 'node:test';
import assert from 'node:assert/strict';
import { halfwords, recoverFixture, starts, words } from '../../../test/helpers/engine/cfg.js';

const thumbEntry = (vaddr: number) => [{ vaddr, kind: 'entry' as const, thumb: true }];
const text = (vaddr: number, bytes: number[]) => ({ name: '.text', vaddr, bytes, exec: true });

test('recover (Thumb): a tbb table has as many entries as its cmp guard allows', async () => {
  // Cases need not follow the table in order: stopping at the lowest case read B's bytes as entries
  // (02 → 0x100c) and swallowed B into A's switch.
  const code = [
    ...halfwords(0x2802, 0xd80d, 0xe8df, 0xf000), // cmp r0, #2; bhi 0x1020; tbb [pc, r0]
    0x0c,
    0x0c,
    0x0c,
    0x00, // table: three cases at 0x1020, one pad byte
    ...halfwords(0x2202, 0x4770), // 0x100c B: movs r2, #2; bx lr
    ...halfwords(0xbf00, 0xbf00, 0xbf00, 0xbf00, 0xbf00, 0xbf00, 0xbf00, 0xbf00), // nop padding
    ...halfwords(0x2000, 0x4770), // 0x1020: movs r0, #0; bx lr
  ];
  const g = await recoverFixture({ arch: 'arm', sections: [text(0x1000, code)], entryPoints: thumbEntry(0x1000) });
  assert.deepEqual(starts(g), [0x1000, 0x100c]);
});

test('recover (Thumb): the whole tbb table is data, not only its first word', async () => {
  const nops = (n: number) => halfwords(...new Array<number>(n).fill(0xbf00));
  const code = [
    ...halfwords(0x2805, 0xd805, 0xe8df, 0xf000), // cmp r0, #5; bhi 0x1010; tbb [pc, r0]
    0x04,
    0x04,
    0x04,
    0x04,
    0x70,
    0x47,
    0x00,
    0x00, // 0x1008: entries 4-5 read as `bx lr` at 0x100c
    ...halfwords(0x4770), // 0x1010: case 0-3
    ...nops(0x42), // to 0x1096
    ...halfwords(0x4770), // 0x1096: case 5 (0x1008 + 2 * 0x47)
    ...nops(0x28), // to 0x10e8
    ...halfwords(0x4770), // 0x10e8: case 4 (0x1008 + 2 * 0x70)
  ];
  const g = await recoverFixture({ arch: 'arm', sections: [text(0x1000, code)], entryPoints: thumbEntry(0x1000) });
  assert.deepEqual(starts(g), [0x1000]);
});

test('recover (Thumb): adr + ldr.w [rA, rI, lsl #2] + bx is a switch on a table of offsets', async () => {
  const code = [
    ...halfwords(0x2b01, 0xd809, 0xa202), // cmp r3, #1; bhi 0x2018; adr r2, 0x2010
    ...halfwords(0xf852, 0x3023, 0x441a, 0x4710, 0xbf00), // ldr.w r3, [r2, r3, lsl #2]; add r2, r3; bx r2; nop
    ...words(0x9, 0xd), // 0x2010: cases at 0x2018 and 0x201c (Thumb bit set)
    ...halfwords(0x2000, 0x4770, 0x2001, 0x4770), // 0x2018, 0x201c: the cases
  ];
  const g = await recoverFixture({ arch: 'arm', sections: [text(0x2000, code)], entryPoints: thumbEntry(0x2000) });
  assert.deepEqual(starts(g), [0x2000], 'the second case is not a function of its own');
});

test("recover (Thumb): libgcc's computed jump into the code right after it stays in the function", async () => {
  const code = [
    ...halfwords(0xa201, 0xeb02, 0x1303, 0x469f), // adr r2, 0x3008; add.w r3, r2, r3, lsl #4; mov pc, r3
    ...halfwords(0x2000, 0x4770), // 0x3008: movs r0, #0; bx lr
  ];
  const g = await recoverFixture({ arch: 'arm', sections: [text(0x3000, code)], entryPoints: thumbEntry(0x3000) });
  assert.deepEqual(starts(g), [0x3000]);
});

test('recover (Thumb): nop.w padding and adr-addressed double literals are not functions', async () => {
  const code = [
    ...halfwords(0xa301, 0xe9d3, 0x2300, 0x4770), // adr r3, 0x4008; ldrd r2, r3, [r3]; bx lr
    ...words(0xbf00f000, 0x47702000), // 0x4008: a double that decodes as Thumb code ending in bx lr
    ...halfwords(0xbf00, 0xf3af, 0x8000), // nop; nop.w
    ...halfwords(0x2000, 0x4770), // 0x4016: movs r0, #0; bx lr (a real function, found by gap scanning)
  ];
  const g = await recoverFixture({ arch: 'arm', sections: [text(0x4000, code)], entryPoints: thumbEntry(0x4000) });
  assert.deepEqual(starts(g), [0x4000, 0x4016]);
});

test('recover (Thumb): plain instructions that run into the next function are data, not a function', async () => {
  const code = [
    ...halfwords(0x2000, 0x4770), // 0x5000: movs r0, #0; bx lr
    ...words(0x05265c00), // 0x5004: a 32-bit constant (ldrb r0, [r0, r0]; lsls r6, r4, #20)
    ...halfwords(0xb510, 0xbd10), // 0x5008: push {r4, lr}; pop {r4, pc}, called from 0x5000's caller
  ];
  const g = await recoverFixture({
    arch: 'arm',
    sections: [text(0x5000, code)],
    entryPoints: [...thumbEntry(0x5000), { vaddr: 0x5008, kind: 'init', thumb: true }],
  });
  assert.deepEqual(starts(g), [0x5000, 0x5008]);
});
