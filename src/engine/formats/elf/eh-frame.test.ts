import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { UnwindRange } from '../image.js';
import { Cursor, readEncoded } from './eh-frame.js';
import { DataBuilder, buildElf, type SectionSpec } from '../../../../test/helpers/engine/elf.js';
import { parseElf } from './index.js';
import { ehFrame } from '../../../../test/helpers/engine/sample-program.js';
import { ElfView } from './view.js';

const LEB: { bytes: number[]; signed: boolean; want: number; bad?: boolean }[] = [
  { bytes: [0x02], signed: false, want: 2 },
  { bytes: [0x7f], signed: true, want: -1 },
  { bytes: [0xe5, 0x8e, 0x26], signed: false, want: 624485 },
  { bytes: [0xc0, 0xbb, 0x78], signed: true, want: -123456 },
  { bytes: [0x80, 0x80, 0x80, 0x80, 0x10], signed: false, want: 2 ** 32 },
  { bytes: [0x80, 0x80], signed: false, want: 0, bad: true },
  { bytes: new Array(11).fill(0x80), signed: false, want: 0, bad: true },
];

for (const { bytes, signed, want, bad } of LEB) {
  test(`Cursor.leb(${signed ? 'signed' : 'unsigned'}) of [${bytes.join(',')}]`, () => {
    const c = new Cursor(new ElfView(Uint8Array.from(bytes), true, true), 0, bytes.length);
    assert.equal(c.leb(signed), want);
    assert.equal(c.bad, bad ?? false);
  });
}

const ENCODED: { label: string; enc: number; bytes: number[]; field: number; is64?: boolean; want: number | null }[] = [
  { label: 'absptr 64', enc: 0x00, bytes: [0x10, 0x20, 0, 0, 0, 0, 0, 0], field: 0, is64: true, want: 0x2010 },
  { label: 'pcrel|sdata4 backwards', enc: 0x1b, bytes: [0xf0, 0xff, 0xff, 0xff], field: 0x1000, want: 0xff0 },
  {
    label: 'pcrel|sdata4 wraps in 32-bit',
    enc: 0x1b,
    bytes: [0x00, 0x00, 0x00, 0x80],
    field: 0x1000,
    is64: false,
    want: 0x80001000,
  },
  { label: 'udata2', enc: 0x02, bytes: [0x34, 0x12], field: 0, want: 0x1234 },
  { label: 'sleb128 pcrel', enc: 0x19, bytes: [0x7c], field: 0x100, want: 0xfc },
  { label: 'datarel without a data base', enc: 0x3b, bytes: [1, 0, 0, 0], field: 0, want: null },
  { label: 'indirect', enc: 0x9b, bytes: [1, 0, 0, 0], field: 0, want: null },
  { label: 'omit', enc: 0xff, bytes: [1, 0, 0, 0], field: 0, want: null },
  { label: 'unknown format 5', enc: 0x05, bytes: [1, 0, 0, 0], field: 0, want: null },
  { label: 'truncated udata8', enc: 0x04, bytes: [1, 0, 0], field: 0, want: null },
];

for (const { label, enc, bytes, field, is64, want } of ENCODED) {
  test(`readEncoded: ${label}`, () => {
    const wide = is64 ?? true;
    const view = new ElfView(Uint8Array.from(bytes), true, wide);
    const c = new Cursor(view, 0, bytes.length);
    assert.equal(readEncoded(c, enc, wide ? 8 : 4, field, { text: null, data: null }, wide), want);
  });
}

const TEXT = 0x11000;
const EH = 0x12000;

function withFrames(
  frame: Uint8Array,
  extra: { name?: string; sections?: SectionSpec[]; hdr?: Uint8Array } = {},
): UnwindRange[] {
  const sections: SectionSpec[] = [
    { name: '.text', type: 1, flags: 6, addr: TEXT, data: new Uint8Array(0x100) },
    { name: extra.name ?? '.eh_frame', type: 1, flags: 2, addr: EH, data: frame },
    ...(extra.sections ?? []),
  ];
  if (extra.hdr) sections.push({ name: '.eh_frame_hdr', type: 1, flags: 2, addr: 0x11800, data: extra.hdr });
  const segments = extra.hdr ? [{ type: 0x6474e550, flags: 4, addr: 0x11800, size: extra.hdr.length }] : [];
  const image = parseElf(buildElf({ bits: 64, little: true, machine: 62, sections, segments }));
  return image.unwind;
}

test('eh_frame: zR CIE with pcrel|sdata4 FDEs', () => {
  assert.deepEqual(
    withFrames(
      ehFrame(true, EH, [
        [TEXT, 0x10],
        [TEXT + 0x40, 0x20],
      ]),
    ),
    [
      { start: TEXT, end: TEXT + 0x10 },
      { start: TEXT + 0x40, end: TEXT + 0x60 },
    ],
  );
});

test('eh_frame: 64-bit DWARF lengths, augmentation "zPLR" and an absptr CIE', () => {
  const d = new DataBuilder(true, true);
  // CIE 1 (64-bit length): version 1, "zPLR", personality pcrel|sdata4 indirect, LSDA and FDE pcrel|sdata4.
  d.u32(0xffffffff)
    .u64(22)
    .u32(0)
    .u8(1)
    .ascii('zPLR\0')
    .u8(1)
    .u8(0x78)
    .u8(16)
    .u8(7)
    .u8(0x9b)
    .u32(0x100)
    .u8(0x1b)
    .u8(0x1b)
    .raw([0]);
  const fde1 = d.length;
  // FDE (64-bit length, 4-byte CIE pointer as in every .eh_frame): the distance back to offset 0.
  d.u32(0xffffffff)
    .u64(4 + 4 + 4 + 1 + 4 + 3)
    .u32(fde1 + 12)
    .u32(TEXT - (EH + fde1 + 16))
    .u32(0x30)
    .u8(4)
    .u32(0)
    .raw([0, 0, 0]);
  const cie2 = d.length;
  d.u32(12).u32(0).u8(1).ascii('\0').u8(1).u8(0x78).u8(16).raw([0, 0, 0]);
  const fde2 = d.length;
  d.u32(20)
    .u32(fde2 + 4 - cie2)
    .u64(TEXT + 0x80)
    .u64(0x10);
  d.u32(0);
  assert.deepEqual(withFrames(d.bytes()), [
    { start: TEXT, end: TEXT + 0x30 },
    { start: TEXT + 0x80, end: TEXT + 0x90 },
  ]);
});

test('eh_frame: damaged records are skipped or end the walk, never loop', () => {
  const d = new DataBuilder(true);
  // FDE whose CIE pointer points at itself (a cycle), then one pointing before the section.
  d.u32(12).u32(4).u32(0).u32(0x10);
  d.u32(12).u32(0x10000).u32(0).u32(0x10);
  // A record longer than the section.
  d.u32(0x7ffffff0).u32(0);
  assert.deepEqual(withFrames(d.bytes()), []);
});

test('eh_frame: found through PT_GNU_EH_FRAME when no section is named .eh_frame', () => {
  const frame = ehFrame(true, EH, [[TEXT + 0x20, 8]]);
  // version 1, eh_frame_ptr pcrel|sdata4, fde_count omitted, table omitted, eh_frame_ptr
  const hdr = new DataBuilder(true)
    .u8(1)
    .u8(0x1b)
    .u8(0xff)
    .u8(0xff)
    .u32(EH - (0x11800 + 4))
    .bytes();
  assert.deepEqual(withFrames(frame, { name: '.renamed', hdr }), [{ start: TEXT + 0x20, end: TEXT + 0x28 }]);
});

test('.debug_frame: CIE id 0xffffffff, absptr FDEs, CIE pointer from the section start', () => {
  const d = new DataBuilder(true, true);
  d.u32(12).u32(0xffffffff).u8(3).ascii('\0').u8(1).u8(0x78).u8(16).raw([0, 0, 0]);
  d.u32(20)
    .u32(0)
    .u64(TEXT + 0x40)
    .u64(0x18);
  const dbg: SectionSpec = { name: '.debug_frame', type: 1, data: d.bytes() };
  assert.deepEqual(withFrames(new Uint8Array(4), { sections: [dbg] }), [{ start: TEXT + 0x40, end: TEXT + 0x58 }]);
});

test('ARM .ARM.exidx: prel31 starts, with unknown ends (the table records none)', () => {
  const text = 0x8000;
  const exidx = 0x9000;
  const entry = (i: number, target: number): number[] => [(target - (exidx + i * 8)) & 0x7fffffff, 1];
  const words = [...entry(0, text + 0x40), ...entry(1, text), ...entry(2, text + 0x100)];
  const data = new DataBuilder(true);
  for (const w of words) data.u32(w);
  const image = parseElf(
    buildElf({
      bits: 32,
      little: true,
      machine: 40,
      base: 0x7000,
      sections: [
        { name: '.text', type: 1, flags: 6, addr: text, data: new Uint8Array(0x100) },
        { name: '.ARM.exidx', type: 0x70000001, flags: 0x82, addr: exidx, data: data.bytes() },
      ],
    }),
  );
  // The third entry starts at the end of .text: the linker's terminating CANTUNWIND entry, not a function.
  assert.deepEqual(image.unwind, [
    { start: text, end: text },
    { start: text + 0x40, end: text + 0x40 },
  ]);
});
