import { test } from 'node:test';
import assert from 'node:assert/strict';
import { DataBuilder, buildElf, stringTable, type SectionSpec } from '../../../../test/helpers/engine/elf.js';
import { parseElf } from './index.js';

const NAMES = ['f1', 'f2', 'f3', 'f4'];
const DYNSTR = 0x10800;
const DYNSYM = 0x10900;
const HASH = 0x10a00;
const DYNAMIC = 0x10b00;
const TEXT = 0x11000;

/**
 * A section-less file (e_shoff = 0, as sstrip leaves it) whose dynamic symbol count can only come from its
 * hash table. .dynstr sits before .dynsym, so the "symbols end where strings begin" fallback cannot help.
 */
function sectionless(hashTag: number, hash: Uint8Array): Uint8Array {
  const strs = stringTable(NAMES);
  const syms = new DataBuilder(true, true).u32(0).u8(0).u8(0).u16(0).u64(0).u64(0);
  NAMES.forEach((n, i) =>
    syms
      .u32(strs.offset(n))
      .u8(0x12)
      .u8(0)
      .u16(2)
      .u64(TEXT + i * 16)
      .u64(16),
  );
  // Past the table: bytes that would read as more exported functions if the count were wrong.
  for (let i = 0; i < 8; i++) syms.u32(1).u8(0x12).u8(0).u16(2).u64(TEXT).u64(16);
  const dyn = new DataBuilder(true, true);
  for (const [tag, value] of [
    [5, DYNSTR],
    [10, strs.data.length],
    [6, DYNSYM],
    [11, 24],
    [hashTag, HASH],
    [0, 0],
  ])
    dyn.u64(tag!).u64(value!);
  const sections: SectionSpec[] = [
    { name: '.dynstr', type: 3, flags: 2, addr: DYNSTR, data: strs.data },
    { name: '.dynsym', type: 11, flags: 2, addr: DYNSYM, data: syms.bytes() },
    { name: '.hash', type: 5, flags: 2, addr: HASH, data: hash },
    { name: '.dynamic', type: 6, flags: 3, addr: DYNAMIC, data: dyn.bytes() },
    { name: '.text', type: 1, flags: 6, addr: TEXT, data: new Uint8Array(64) },
  ];
  const bytes = buildElf({
    bits: 64,
    little: true,
    machine: 62,
    sections,
    segments: [{ type: 2, flags: 6, addr: DYNAMIC, size: dyn.length }],
  });
  const out = bytes.slice();
  const dv = new DataView(out.buffer);
  dv.setBigUint64(40, 0n, true); // e_shoff
  dv.setUint16(60, 0, true); // e_shnum
  dv.setUint16(62, 0, true); // e_shstrndx
  return out;
}

const gnuHash = (chain: number[]): Uint8Array =>
  new DataBuilder(true, true)
    .u32(1)
    .u32(1)
    .u32(1)
    .u32(6)
    .u64(0xffffffffffffffffn)
    .u32(1)
    .raw(new DataBuilder(true).u32(chain[0]!).u32(chain[1]!).u32(chain[2]!).u32(chain[3]!).bytes())
    .bytes();

const CASES: { label: string; tag: number; hash: Uint8Array; exports: number }[] = [
  {
    label: 'SysV DT_HASH: nchain',
    tag: 4,
    hash: new DataBuilder(true).u32(1).u32(5).u32(1).u32(0).u32(0).u32(0).u32(0).u32(0).bytes(),
    exports: 4,
  },
  { label: 'DT_GNU_HASH: last chain entry has the end bit', tag: 0x6ffffef5, hash: gnuHash([2, 4, 6, 9]), exports: 4 },
  { label: 'DT_GNU_HASH: chain ends early', tag: 0x6ffffef5, hash: gnuHash([2, 5, 6, 8]), exports: 2 },
];

for (const { label, tag, hash, exports } of CASES) {
  test(`dynamic symbol count without sections: ${label}`, () => {
    const image = parseElf(sectionless(tag, hash));
    assert.deepEqual(image.sections, []);
    assert.deepEqual(
      image.exports.map((e) => e.name),
      NAMES.slice(0, exports),
    );
  });
}

test('dynamic symbol count without sections: a GNU hash chain with no end bit stops at the end of the file', () => {
  const image = parseElf(sectionless(0x6ffffef5, gnuHash([2, 4, 6, 8])));
  assert.ok(image.exports.length >= 4);
});
