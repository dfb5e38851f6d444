import { test } from 'node:test';
import assert from 'node:assert/strict';
import { CodeBytes } from './code-bytes.js';
import { scanAarch64, scanArm } from './plt-arm.js';
import { scanMipsPlt, scanMipsStubs } from './plt-mips.js';
import { scanX86 } from './plt-x86.js';

type Scan = (code: CodeBytes, vaddr: number, sink: (stub: number, slot: number) => void) => void;

const le32 = (...words: number[]): number[] =>
  words.flatMap((w) => [w & 0xff, (w >>> 8) & 0xff, (w >>> 16) & 0xff, w >>> 24]);
const be32 = (...words: number[]): number[] =>
  words.flatMap((w) => [w >>> 24, (w >>> 16) & 0xff, (w >>> 8) & 0xff, w & 0xff]);

// Each case: bytes at `vaddr`, the decoder, and the (stub, slot) pairs it must report. Byte sequences are
// copied from real binaries (corpus, or binutils' PLT templates) with their addresses.
const CASES: {
  label: string;
  vaddr: number;
  bytes: number[];
  little?: boolean;
  scan: Scan;
  want: [number, number][];
}[] = [
  {
    label: 'x86-64 .plt entry: jmp *disp(%rip); push; jmp',
    vaddr: 0x1030,
    bytes: [0xff, 0x25, 0xca, 0xff, 0x01, 0x00, 0x68, 0x00, 0, 0, 0, 0xe9, 0xe0, 0xff, 0xff, 0xff],
    scan: (c, v, s) => scanX86(c, 0, c.bytes.length, v, true, null, s),
    want: [[0x1030, 0x1030 + 6 + 0x1ffca]],
  },
  {
    label: 'x86-64 .plt.sec entry: endbr64; bnd jmp *disp(%rip)',
    vaddr: 0x1100,
    bytes: [0xf3, 0x0f, 0x1e, 0xfa, 0xf2, 0xff, 0x25, 0x10, 0x00, 0x00, 0x00, 0x0f, 0x1f, 0x44, 0x00, 0x00],
    scan: (c, v, s) => scanX86(c, 0, c.bytes.length, v, true, null, s),
    want: [[0x1100, 0x1100 + 11 + 0x10]],
  },
  {
    label: 'x86-64 .plt.got pair (8-byte entries)',
    vaddr: 0x10b0,
    bytes: [0xff, 0x25, 0x12, 0x00, 0x00, 0x00, 0x66, 0x90, 0xff, 0x25, 0x20, 0x00, 0x00, 0x00, 0x66, 0x90],
    scan: (c, v, s) => scanX86(c, 0, c.bytes.length, v, true, null, s),
    want: [
      [0x10b0, 0x10b6 + 0x12],
      [0x10b8, 0x10be + 0x20],
    ],
  },
  {
    label: 'i386 non-PIC: jmp *abs32',
    vaddr: 0x8048300,
    bytes: [0xff, 0x25, 0x0c, 0xa0, 0x04, 0x08, 0x68, 0, 0, 0, 0, 0xe9, 0, 0, 0, 0],
    scan: (c, v, s) => scanX86(c, 0, c.bytes.length, v, false, null, s),
    want: [[0x8048300, 0x804a00c]],
  },
  {
    label: 'i386 PIC: jmp *disp32(%ebx), GOT base 0x22ff4',
    vaddr: 0x1040,
    bytes: [0xff, 0xa3, 0x10, 0x00, 0x00, 0x00, 0x68, 0x08, 0, 0, 0, 0xe9, 0, 0, 0, 0],
    scan: (c, v, s) => scanX86(c, 0, c.bytes.length, v, false, 0x22ff4, s),
    want: [[0x1040, 0x23004]],
  },
  {
    label: 'x86 PLT0 push/jmp is reported too (callers drop its resolver slot)',
    vaddr: 0x1020,
    bytes: [0xff, 0x35, 0xca, 0xff, 0x01, 0x00, 0xff, 0x25, 0xcc, 0xff, 0x01, 0x00, 0x0f, 0x1f, 0x40, 0x00],
    scan: (c, v, s) => scanX86(c, 0, c.bytes.length, v, true, null, s),
    want: [[0x1026, 0x102c + 0x1ffcc]],
  },
  {
    label: 'AArch64: adrp x16; ldr x17, [x16, #0]; add; br (lz4 aarch64 memcpy@plt)',
    vaddr: 0x9e0,
    bytes: le32(0x90000190, 0xf9400211, 0x91000210, 0xd61f0220),
    scan: (c, v, s) => scanAarch64(c, 0, c.bytes.length, v, s),
    want: [[0x9e0, 0x30000]],
  },
  {
    label: 'AArch64 with bti c: stub starts at the bti',
    vaddr: 0x1000,
    bytes: le32(0xd503245f, 0x90000090, 0xf9400a11, 0x91004210, 0xd61f0220),
    scan: (c, v, s) => scanAarch64(c, 0, c.bytes.length, v, s),
    want: [[0x1000, 0x11000 + 0x10]],
  },
  {
    label: 'ARM PLT with Thumb bx-pc prefix (lz4 armhf calloc@plt)',
    vaddr: 0x59c,
    bytes: le32(0xe7fd4778, 0xe28fc600, 0xe28cca14, 0xe5bcfa64),
    scan: (c, v, s) => scanArm(c, 0, c.bytes.length, v, s),
    want: [
      [0x59c, 0x1500c],
      [0x5a0, 0x1500c],
    ],
  },
  {
    label: 'ARM long PLT: three adds',
    vaddr: 0x8000,
    bytes: le32(0xe28fc601, 0xe28cc601, 0xe28cca01, 0xe5bcf004),
    scan: (c, v, s) => scanArm(c, 0, c.bytes.length, v, s),
    want: [[0x8000, 0x8008 + 0x100000 + 0x100000 + 0x1000 + 4]],
  },
  {
    label: 'ARM BE32 code (big-endian words)',
    vaddr: 0x5a0,
    little: false,
    bytes: be32(0xe28fc600, 0xe28cca14, 0xe5bcfa64),
    scan: (c, v, s) => scanArm(c, 0, c.bytes.length, v, s),
    want: [[0x5a0, 0x1500c]],
  },
  {
    label: 'Thumb-2 PLT: movw/movt ip; add ip, pc; ldr.w pc, [ip]',
    vaddr: 0x400,
    // movw ip, #0x1234; movt ip, #0x1; add ip, pc; ldr.w pc, [ip, #0]
    bytes: [0x41, 0xf2, 0x34, 0x2c, 0xc0, 0xf2, 0x01, 0x0c, 0xfc, 0x44, 0xdc, 0xf8, 0x00, 0xf0],
    scan: (c, v, s) => scanArm(c, 0, c.bytes.length, v, s),
    want: [[0x400, 0x400 + 12 + 0x11234]],
  },
  {
    label: 'MIPS non-PIC .plt: lui t7; lw t9, lo(t7) (negative %lo)',
    vaddr: 0x400400,
    little: false,
    bytes: be32(0x3c0f0042, 0x8df98010, 0x03200008, 0x25f88010),
    scan: (c, v, s) => scanMipsPlt(c, 0, c.bytes.length, v, s),
    want: [[0x400400, 0x420000 - 0x7ff0]],
  },
  {
    label: 'not a stub: random bytes',
    vaddr: 0,
    bytes: [0x55, 0x48, 0x89, 0xe5, 0xff, 0xd0, 0xc3, 0x90, 0, 0, 0, 0],
    scan: (c, v, s) => scanX86(c, 0, c.bytes.length, v, true, null, s),
    want: [],
  },
];

for (const { label, vaddr, bytes, little, scan, want } of CASES) {
  test(`PLT decoder: ${label}`, () => {
    const got: [number, number][] = [];
    scan(new CodeBytes(Uint8Array.from(bytes), little ?? true), vaddr, (stub, slot) => got.push([stub, slot]));
    assert.deepEqual(got, want);
  });
}

const MIPS_STUBS: { label: string; words: number[]; want: [number, number][] }[] = [
  {
    label: 'lz4 mipsel .MIPS.stubs: lw t9; move t7, ra; jalr t9; li t8, N',
    words: [0x8f998010, 0x03e07825, 0x0320f809, 0x24180042, 0x8f998010, 0x03e07825, 0x0320f809, 0x24180040],
    want: [
      [0x21780, 66],
      [0x21790, 64],
    ],
  },
  {
    label: 'large index: lui t8, hi; ori t8, t8, lo',
    words: [0x8f998010, 0x3c180001, 0x03e07825, 0x0320f809, 0x37180002],
    want: [[0x21780, 0x10002]],
  },
];

for (const { label, words, want } of MIPS_STUBS) {
  test(`MIPS stub decoder: ${label}`, () => {
    const got: [number, number][] = [];
    scanMipsStubs(new CodeBytes(Uint8Array.from(le32(...words)), true), 0, words.length * 4, 0x21780, (stub, sym) =>
      got.push([stub, sym]),
    );
    assert.deepEqual(got, want);
  });
}
