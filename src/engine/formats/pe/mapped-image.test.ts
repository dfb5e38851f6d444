import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { fileOffsetOf } from '../image.js';
import { parsePe } from './index.js';
import { fileFromMappedImage } from './mapped-image.js';

const EXE = path.resolve(
  process.cwd(),
  '..',
  'shared',
  'corpus',
  'bin',
  'lz4',
  'lz4-1.10.0_win-x86_64_mingw-gcc12_O2_stripped.exe',
);

/** The file as the Windows loader maps it: headers, then each section's raw data at its RVA. */
function mapped(file: Buffer): Uint8Array {
  const pe = file.readUInt32LE(0x3c);
  const opt = pe + 24;
  const image = new Uint8Array(file.readUInt32LE(opt + 56));
  image.set(file.subarray(0, file.readUInt32LE(opt + 60)));
  const table = opt + file.readUInt16LE(pe + 20);
  for (let i = 0; i < file.readUInt16LE(pe + 6); i++) {
    const s = table + i * 40;
    const raw = file.subarray(file.readUInt32LE(s + 20), file.readUInt32LE(s + 20) + file.readUInt32LE(s + 16));
    image.set(
      raw.subarray(0, Math.min(raw.length, image.length - file.readUInt32LE(s + 12))),
      file.readUInt32LE(s + 12),
    );
  }
  return image;
}

test('a PE dumped from memory reads as the file it was loaded from', (t) => {
  if (!existsSync(EXE)) return t.skip(`the corpus is absent (${EXE})`);
  const file = readFileSync(EXE);
  const image = mapped(file);
  // As mapped, the raw offsets of the file's section table point at the wrong bytes.
  const asIs = parsePe(image);
  const original = parsePe(file);
  const entry = original.identity.entryPoint!;
  const at = (img: ReturnType<typeof parsePe>) =>
    Buffer.from(img.bytes.subarray(fileOffsetOf(img, entry), fileOffsetOf(img, entry) + 64));
  assert.notDeepEqual(at(asIs), at(original));

  const unmapped = parsePe(fileFromMappedImage(image)!);
  assert.deepEqual(at(unmapped), at(original));
  assert.deepEqual(
    unmapped.imports.map((i) => [i.library, i.name, i.slot]),
    original.imports.map((i) => [i.library, i.name, i.slot]),
  );
  assert.deepEqual(
    unmapped.sections.map((s) => [s.name, s.vaddr, s.exec]),
    original.sections.map((s) => [s.name, s.vaddr, s.exec]),
  );
  assert.deepEqual(unmapped.diagnostics, []);
});

test('bytes that are no PE, or whose headers run off the end, are left alone', () => {
  assert.equal(fileFromMappedImage(Uint8Array.of(0x4d, 0x5a)), null);
  const noSignature = new Uint8Array(0x200);
  noSignature.set([0x4d, 0x5a]);
  noSignature[0x3c] = 0x80;
  assert.equal(fileFromMappedImage(noSignature), null);
  // A section table past the end: the headers are kept, nothing is read beyond the bytes.
  const cut = new Uint8Array(0x98 + 8);
  cut.set([0x4d, 0x5a]);
  cut[0x3c] = 0x40;
  cut.set([0x50, 0x45, 0, 0, 0x64, 0x86, 0xff, 0xff], 0x40);
  assert.equal(fileFromMappedImage(cut)!.length, cut.length);
});
