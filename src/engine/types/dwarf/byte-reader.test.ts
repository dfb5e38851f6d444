import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ByteReader, DwarfFormatError, MAX_NAME, stringAt } from './byte-reader.js';

const LEB: { bytes: number[]; signed: boolean; want: number | 'throws' }[] = [
  { bytes: [0x02], signed: false, want: 2 },
  { bytes: [0x7f], signed: false, want: 127 },
  { bytes: [0x7f], signed: true, want: -1 },
  { bytes: [0x80, 0x01], signed: false, want: 128 },
  { bytes: [0x80, 0x7f], signed: true, want: -128 },
  { bytes: [0xe5, 0x8e, 0x26], signed: false, want: 624485 },
  { bytes: [0xc0, 0xbb, 0x78], signed: true, want: -123456 },
  { bytes: [0x80, 0x80, 0x80, 0x80, 0x10], signed: false, want: 2 ** 32 },
  // 2^53 - 1, the largest exact number: seven 0xff and a 0x0f.
  { bytes: [0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x0f], signed: false, want: 2 ** 53 - 1 },
  // Ten bytes is the most a 64-bit value needs: accepted (the value is rounded, as every u64 here is).
  { bytes: [...new Array<number>(9).fill(0x80), 0x01], signed: false, want: 2 ** 63 },
  { bytes: new Array<number>(11).fill(0x80), signed: false, want: 'throws' },
  { bytes: new Array<number>(11).fill(0xff), signed: true, want: 'throws' },
  { bytes: [0x80, 0x80], signed: false, want: 'throws' },
  { bytes: [], signed: true, want: 'throws' },
];

for (const { bytes, signed, want } of LEB) {
  test(`LEB128 ${signed ? 'signed' : 'unsigned'} [${bytes.map((b) => b.toString(16)).join(' ')}]`, () => {
    const r = new ByteReader(Uint8Array.from(bytes), true);
    const read = (): number => (signed ? r.sleb() : r.uleb());
    if (want === 'throws') assert.throws(read, DwarfFormatError);
    else {
      assert.equal(read(), want);
      assert.equal(r.pos, bytes.length);
    }
  });
}

test('LEB128 stops at the reader end, not the array end', () => {
  const r = new ByteReader(Uint8Array.from([0x80, 0x01]), true, 0, 1);
  assert.throws(() => r.uleb(), DwarfFormatError);
});

test('fixed-size integers in both byte orders', () => {
  const bytes = Uint8Array.from([0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08]);
  assert.equal(new ByteReader(bytes, true).u32(), 0x04030201);
  assert.equal(new ByteReader(bytes, false).u32(), 0x01020304);
  assert.equal(new ByteReader(bytes, true).u24(), 0x030201);
  assert.equal(new ByteReader(bytes, false).u64(), 0x0102030405060708);
  assert.equal(new ByteReader(Uint8Array.from([0xff, 0xff, 0xff, 0xff]), true).u32(), 0xffffffff);
  assert.throws(() => new ByteReader(bytes, true, 6).u32(), DwarfFormatError);
  assert.throws(() => new ByteReader(bytes, true).uint(3), DwarfFormatError);
});

test('strings: UTF-8, unterminated ones refused, offsets outside a section are null', () => {
  const bytes = Uint8Array.from([0x61, 0xc3, 0xa9, 0x00, 0x62]);
  const r = new ByteReader(bytes, true);
  assert.equal(r.cstring(), 'aé');
  assert.equal(r.pos, 4);
  assert.throws(() => r.cstring(), DwarfFormatError);
  assert.equal(stringAt(bytes, 4), 'b');
  assert.equal(stringAt(bytes, 5), null);
  assert.equal(stringAt(bytes, -1), null);
  assert.equal(stringAt(null, 0), null);
  assert.equal(stringAt(new Uint8Array(100_000).fill(0x41), 0)?.length, MAX_NAME);
});
