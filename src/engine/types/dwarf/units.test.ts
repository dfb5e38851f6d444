import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Writer } from '../../../../test/helpers/engine/dwarf.js';
import { DwarfFormatError } from './byte-reader.js';
import { UT } from './constants.js';
import { readUnitHeader } from './units.js';

test('DWARF 5 compile unit header: unit_type before address size, then the abbreviation offset', () => {
  const bytes = new Writer().u32(0x20).u16(5).u8(UT.compile).u8(8).u32(0x1234).bytes();
  const h = readUnitHeader(bytes, true, 0, false);
  assert.deepEqual(
    { ...h },
    {
      offset: 0,
      end: 0x24,
      version: 5,
      unitType: UT.compile,
      addressSize: 8,
      offsetSize: 4,
      abbrevOffset: 0x1234,
      dieStart: 12,
      signature: null,
      typeOffset: 0,
    },
  );
});

test('DWARF 5 type unit header: signature and type offset; skeleton units skip their dwo_id', () => {
  const typeUnit = new Writer().u32(0x30).u16(5).u8(UT.type).u8(4).u32(0).u64(0x1122334455667788n).u32(0x19);
  const h = readUnitHeader(typeUnit.bytes(), true, 0, false);
  assert.equal(h.signature, '8877665544332211');
  assert.equal(h.typeOffset, 0x19);
  assert.equal(h.dieStart, 24);
  const skeleton = new Writer().u32(0x30).u16(5).u8(UT.skeleton).u8(8).u32(0).u64(1n);
  assert.equal(readUnitHeader(skeleton.bytes(), true, 0, false).dieStart, 20);
});

test('64-bit DWARF 4: the 0xffffffff escape, an 8-byte length and 8-byte offsets', () => {
  const bytes = new Writer(false).u32(0xffffffff).u64(0x40).u16(4).u64(0x88).u8(8).bytes();
  const h = readUnitHeader(bytes, false, 0, false);
  assert.equal(h.offsetSize, 8);
  assert.equal(h.end, 12 + 0x40);
  assert.equal(h.abbrevOffset, 0x88);
  assert.equal(h.dieStart, 23);
});

test('DWARF 4 .debug_types units carry a signature after the address size', () => {
  const bytes = new Writer().u32(0x30).u16(4).u32(0).u8(8).u64(7n).u32(0x17).bytes();
  const h = readUnitHeader(bytes, true, 0, true);
  assert.equal(h.unitType, UT.type);
  assert.equal(h.signature, '0700000000000000');
  assert.equal(h.typeOffset, 0x17);
});

test('headers a reader cannot trust are refused', () => {
  const bad = [
    new Writer().u32(0xfffffff0).u16(4).bytes(), // reserved length
    new Writer().u32(0x10).u16(6).u32(0).u8(8).bytes(), // version 6
    new Writer().u32(0x10).u16(1).u32(0).u8(8).bytes(), // version 1
    new Writer().u32(0x10).u16(4).u32(0).u8(3).bytes(), // address size 3
    new Writer().u32(0x10).u16(5).u8(1).bytes(), // truncated
  ];
  for (const bytes of bad) assert.throws(() => readUnitHeader(bytes, true, 0, false), DwarfFormatError);
});
