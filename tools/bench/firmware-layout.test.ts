import assert from 'node:assert/strict';
import { test } from 'node:test';
import { trxFormat } from '../../src/engine/firmware/formats/trx.js';
import { FlashLayout, noise, TRX_HEADER_SIZE, writeTrxHeader } from './firmware-layout.js';

/** The TRX checksum as documented, one bit at a time: seed 0xffffffff, reflected 0xEDB88320, no final xor. */
function trxRegister(bytes: Uint8Array): number {
  let r = 0xffffffff;
  for (const b of bytes) {
    r ^= b;
    for (let i = 0; i < 8; i++) r = r & 1 ? (r >>> 1) ^ 0xedb88320 : r >>> 1;
  }
  return r >>> 0;
}

test('noise is the same for a seed and differs between seeds', () => {
  assert.deepEqual(noise(64, 5), noise(64, 5));
  assert.notDeepEqual(noise(64, 5), noise(64, 6));
});

test('the layout records each part where it starts, after the filler', () => {
  const layout = new FlashLayout()
    .noise(100, 1)
    .padTo(0x100, 0xff)
    .part('a', new Uint8Array([1, 2, 3]))
    .padTo(0x10, 0x00)
    .part('b', new Uint8Array([4]));
  const bytes = layout.bytes();
  assert.deepEqual(layout.parts, [
    { offset: 0x100, label: 'a' },
    { offset: 0x110, label: 'b' },
  ]);
  assert.equal(bytes.length, 0x111);
  assert.ok(bytes.subarray(100, 0x100).every((b) => b === 0xff));
  assert.deepEqual([...bytes.subarray(0x100, 0x103)], [1, 2, 3]);
  assert.ok(bytes.subarray(0x103, 0x110).every((b) => b === 0));
});

test('the TRX header holds the documented fields and checksum, and the engine reads its partitions', () => {
  const layout = new FlashLayout().part('trx', new Uint8Array(TRX_HEADER_SIZE));
  const at = [layout.size];
  layout.filler(noise(300, 1)).padTo(0x200, 0xff);
  at.push(layout.size);
  layout.filler(noise(500, 2));
  const image = layout.bytes();
  writeTrxHeader(image, at);
  const v = new DataView(image.buffer, image.byteOffset, image.byteLength);
  assert.equal(Buffer.from(image.subarray(0, 4)).toString('latin1'), 'HDR0');
  assert.equal(v.getUint32(4, true), image.length);
  assert.equal(v.getUint32(8, true), trxRegister(image.subarray(12)));
  assert.equal(v.getUint16(14, true), 1);
  assert.deepEqual(
    [16, 20, 24].map((o) => v.getUint32(o, true)),
    [TRX_HEADER_SIZE, 0x200, 0],
  );
  const ctx = { remaining: () => 1 << 20, password: null, problem: () => {} };
  const probed = trxFormat.probe(image, 0, ctx);
  assert.ok(probed);
  const parts = [...probed.entries(ctx)].map((e) => e.data!.length);
  assert.deepEqual(parts, [0x200 - TRX_HEADER_SIZE, 500]);
  image[100]! ^= 1;
  assert.equal(trxFormat.probe(image, 0, ctx), null, 'a changed byte breaks the checksum');
});
