// Boot-image readers against images the real tools make (mkimage for uImage and FIT), TRX built to its
// documented layout, and executables carved from noise: the payloads come back byte for byte.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { test } from 'node:test';
import { fdtFormat } from '../../src/engine/firmware/formats/fdt.js';
import { trxFormat } from '../../src/engine/firmware/formats/trx.js';
import { uimageFormat } from '../../src/engine/firmware/formats/uimage.js';
import { inTempDir, missingTool, runTool } from '../helpers/firmware/tools.js';
import { entriesOf, unpackInMemory } from '../helpers/firmware/unpack.js';
import { noise } from '../helpers/samples.js';

const CORPUS = resolve(process.cwd(), '..', 'shared', 'corpus', 'bin');
const sha = (b: Uint8Array) => createHash('sha256').update(b).digest('hex');

for (const [comp, pack] of [
  ['lzma', ['xz', '--format=lzma', '-c']],
  ['gzip', ['gzip', '-c']],
  ['none', null],
] as const) {
  test(`uImage (${comp}): the kernel comes back decompressed, named as the header names it`, (t) => {
    const missing = missingTool('mkimage', 'u-boot-tools');
    if (missing) return t.skip(missing);
    inTempDir((dir) => {
      const kernel = Buffer.concat([noise(100_000, 3), Buffer.alloc(50_000, 0x41)]);
      const packed = pack ? runTool(pack[0], pack.slice(1) as string[], { input: kernel }) : kernel;
      writeFileSync(join(dir, 'payload'), packed);
      runTool('mkimage', [
        '-A',
        'mips',
        '-O',
        'linux',
        '-T',
        'kernel',
        '-C',
        comp,
        '-a',
        '0x80000000',
        '-e',
        '0x80000000',
        '-n',
        'Linux-4.14.90',
        '-d',
        join(dir, 'payload'),
        join(dir, 'uImage'),
      ]);
      const image = readFileSync(join(dir, 'uImage'));
      const got = entriesOf(uimageFormat, Buffer.concat([image, Buffer.alloc(100, 0xff)]))!;
      assert.equal(got.size, image.length);
      assert.deepEqual([...got.files.keys()], ['Linux-4.14.90']);
      assert.ok(got.files.get('Linux-4.14.90')!.equals(kernel));
      // A header with one bit flipped fails its CRC: no uImage there.
      image.writeUInt8(image[40]! ^ 1, 40);
      assert.equal(uimageFormat.probe(image, 0, { remaining: () => 1 << 30, password: null, problem: () => {} }), null);
    });
  });
}

test('uImage (multi): each part of a multi-file image', (t) => {
  const missing = missingTool('mkimage', 'u-boot-tools');
  if (missing) return t.skip(missing);
  inTempDir((dir) => {
    const parts = [noise(1001, 4), noise(3000, 5)];
    parts.forEach((p, i) => writeFileSync(join(dir, `p${i}`), p));
    runTool('mkimage', [
      '-A',
      'arm',
      '-O',
      'linux',
      '-T',
      'multi',
      '-C',
      'none',
      '-n',
      'multi',
      '-d',
      `${join(dir, 'p0')}:${join(dir, 'p1')}`,
      join(dir, 'img'),
    ]);
    const got = entriesOf(uimageFormat, readFileSync(join(dir, 'img')))!;
    assert.deepEqual([...got.files.values()].map(sha), parts.map(sha));
  });
});

for (const external of [false, true]) {
  test(`FIT (${external ? 'external' : 'embedded'} data): the kernel decompressed, the device tree as it is`, (t) => {
    const missing = missingTool('mkimage', 'u-boot-tools') ?? missingTool('dtc', 'device-tree-compiler');
    if (missing) return t.skip(missing);
    inTempDir((dir) => {
      const kernel = noise(80_000, 6);
      writeFileSync(join(dir, 'kernel.gz'), runTool('gzip', ['-c'], { input: kernel }));
      const dtb = runTool('dtc', ['-I', 'dts', '-O', 'dtb'], {
        input: Buffer.from('/dts-v1/; / { model = "router"; };'),
      });
      writeFileSync(join(dir, 'board.dtb'), dtb);
      writeFileSync(
        join(dir, 'fit.its'),
        `/dts-v1/;
/ { description = "test"; #address-cells = <1>;
  images {
    kernel-1 { data = /incbin/("kernel.gz"); type = "kernel"; arch = "arm"; os = "linux"; compression = "gzip"; load = <0x80008000>; entry = <0x80008000>; };
    fdt-1 { data = /incbin/("board.dtb"); type = "flat_dt"; arch = "arm"; compression = "none"; };
  };
  configurations { default = "conf-1"; conf-1 { kernel = "kernel-1"; fdt = "fdt-1"; }; };
};`,
      );
      runTool('mkimage', [...(external ? ['-E'] : []), '-f', 'fit.its', 'fit.itb'], { cwd: dir });
      const fit = readFileSync(join(dir, 'fit.itb'));
      const got = entriesOf(fdtFormat, Buffer.concat([fit, noise(64, 7)]))!;
      assert.equal(got.size, fit.length);
      assert.ok(got.files.get('images/kernel-1')!.equals(kernel));
      assert.ok(got.files.get('images/fdt-1')!.equals(dtb));
    });
  });
}

/** CRC-32 one bit at a time (independent of the table-driven one the reader uses), left uninverted as TRX stores it. */
function trxCrc(bytes: Uint8Array): number {
  let c = 0xffffffff;
  for (const b of bytes) {
    c ^= b;
    for (let k = 0; k < 8; k++) c = c & 1 ? (c >>> 1) ^ 0xedb88320 : c >>> 1;
  }
  return c >>> 0;
}

test('TRX: the partitions between its offsets; a damaged image is none', () => {
  const parts = [noise(4000, 8), noise(9000, 9), noise(3000, 10)];
  const header = Buffer.alloc(28);
  const offsets = [28, 28 + 4000, 28 + 13000];
  const image = Buffer.concat([header, ...parts]);
  image.write('HDR0', 0, 'latin1');
  image.writeUInt32LE(image.length, 4);
  image.writeUInt16LE(1, 14);
  offsets.forEach((o, i) => image.writeUInt32LE(o, 16 + 4 * i));
  image.writeUInt32LE(trxCrc(image.subarray(12)), 8);
  const got = entriesOf(trxFormat, Buffer.concat([image, Buffer.alloc(64, 0xff)]))!;
  assert.equal(got.size, image.length);
  assert.deepEqual([...got.files.values()].map(sha), parts.map(sha));
  image.writeUInt8(image[100]! ^ 0xff, 100);
  assert.equal(entriesOf(trxFormat, image), null);
});

test('executables carved from noise: an ELF and a PE, each exactly', (t) => {
  const elf = join(CORPUS, 'lz4', 'lz4-1.10.0_linux-mipsel_gcc12_O2_stripped');
  const exe = join(CORPUS, 'lz4', 'lz4-1.10.0_win-x86_64_mingw-gcc12_O2_stripped.exe');
  if (!existsSync(elf) || !existsSync(exe)) return t.skip(`the corpus is absent (${CORPUS})`);
  const [a, b] = [readFileSync(elf), readFileSync(exe)];
  const blob = Buffer.concat([noise(1000, 11), a, Buffer.alloc(333, 0xff), b, noise(777, 12)]);
  const { report } = unpackInMemory(blob);
  const carved = report.files.map((f) => [f.sha256, f.executable, report.chunks[f.chunk]!.offset]);
  assert.deepEqual(carved, [
    [sha(a), true, 1000],
    [sha(b), true, 1000 + a.length + 333],
  ]);
  assert.match(report.files[0]!.type, /^ELF mips 32-bit little endian/);
});
