import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { seededRandom } from '../../../shared/seeded-random.js';
import { assertSurvivesDamage } from '../../../../test/helpers/firmware/hostile.js';
import { inTempDir, missingTool, runTool, toolPath } from '../../../../test/helpers/firmware/tools.js';
import { entriesFound, readContext } from '../../../../test/helpers/firmware/unpack.js';
import { noise } from '../../../../test/helpers/samples.js';
import { androidBootFormat } from './android-boot.js';

const skip = missingTool('mkbootimg', 'mkbootimg') ?? false;

type Parts = Partial<Record<'kernel' | 'ramdisk' | 'second' | 'recovery_dtbo' | 'dtb', Uint8Array>>;

/**
 * Debian's mkbootimg (29.0.6) counts pages with Python 3's float division, which breaks the recovery DTBO
 * offset of v1/v2 headers ("required argument is not an integer"): run it with that one function made whole.
 */
const MKBOOTIMG_FIXED = [
  'import importlib.machinery as m',
  `tool = m.SourceFileLoader('mkbootimg', ${JSON.stringify(toolPath('mkbootimg'))}).load_module()`,
  'tool.get_number_of_pages = lambda size, page: (size + page - 1) // page',
  'tool.main()',
].join('\n');

/** mkbootimg's image of `parts` with the given header version, page size and command line. */
function mkbootimg(parts: Parts, version: number, pageSize: number, cmdline: string): Uint8Array {
  return inTempDir((dir) => {
    const args = ['--header_version', String(version), '--pagesize', String(pageSize), '--cmdline', cmdline];
    for (const [name, data] of Object.entries(parts)) {
      writeFileSync(join(dir, name), data);
      args.push(`--${name}`, join(dir, name));
    }
    runTool('python3', ['-c', MKBOOTIMG_FIXED, ...args, '-o', join(dir, 'boot.img')]);
    return new Uint8Array(readFileSync(join(dir, 'boot.img')));
  });
}

/** The boot image at data[offset]: its parts by name (`files`), size and description. */
const extract = (data: Uint8Array, offset = 0) => entriesFound(androidBootFormat, data, offset);

const kernel = noise(100_003, 1);
const ramdisk = noise(50_001, 2);
const second = noise(3_000, 3);
const dtbo = noise(5_000, 4);
const dtb = noise(7_001, 5);
const longCmdline = `console=ttyMSM0,115200n8 ${'androidboot.hardware=qcom '.repeat(30)}`.trim();

test('android boot: mkbootimg images of header versions 0–3 give back every part', { skip }, () => {
  const cases: [number, number, Parts, string[]][] = [
    [0, 2048, { kernel, ramdisk, second }, ['kernel', 'ramdisk', 'second']],
    [0, 4096, { kernel }, ['kernel']],
    [1, 4096, { kernel, ramdisk, recovery_dtbo: dtbo }, ['kernel', 'ramdisk', 'recovery_dtbo']],
    [
      2,
      16384,
      { kernel, ramdisk, second, recovery_dtbo: dtbo, dtb },
      ['kernel', 'ramdisk', 'second', 'recovery_dtbo', 'dtb'],
    ],
    [3, 4096, { kernel, ramdisk }, ['kernel', 'ramdisk']],
  ];
  for (const [version, pageSize, parts, names] of cases) {
    for (const cmdline of ['', 'console=ttyS0', longCmdline]) {
      const image = mkbootimg(parts, version, pageSize, cmdline);
      const withJunk = Buffer.concat([Buffer.from('junk'), image, Buffer.from('more junk')]);
      const r = extract(withJunk, 4);
      const label = `v${version} page ${pageSize} cmdline ${cmdline.length}`;
      assert.equal(r.size, image.length, label);
      assert.deepEqual([...r.files.keys()], cmdline ? [...names, 'cmdline.txt'] : names, label);
      for (const name of names) assert.ok(r.files.get(name)!.equals(parts[name as keyof Parts]!), `${label} ${name}`);
      if (cmdline) assert.equal(r.files.get('cmdline.txt')!.toString('latin1'), cmdline, label);
    }
  }
});

test('android boot: a version 4 header (built by hand) ends after its boot signature', () => {
  const header = new Uint8Array(4096);
  const v = new DataView(header.buffer);
  header.set(Buffer.from('ANDROID!'));
  v.setUint32(8, kernel.length, true);
  v.setUint32(12, ramdisk.length, true);
  v.setUint32(20, 1584, true);
  v.setUint32(40, 4, true);
  header.set(Buffer.from('console=ttyS0'), 44);
  v.setUint32(1580, 4096, true);
  const pad = (b: Uint8Array) => Buffer.concat([b, new Uint8Array((4096 - (b.length % 4096)) % 4096)]);
  const signature = noise(4096, 6);
  const image = Buffer.concat([header, pad(kernel), pad(ramdisk), signature]);
  const r = extract(Buffer.concat([image, new Uint8Array(4096)]));
  assert.equal(r.size, image.length);
  assert.ok(r.files.get('kernel')!.equals(kernel));
  assert.ok(r.files.get('ramdisk')!.equals(ramdisk));
  assert.ok(r.files.get('boot_signature')!.equals(signature));
  assert.equal(r.files.get('cmdline.txt')!.toString(), 'console=ttyS0');
});

test("android boot: a Qualcomm version-0 image's device tree, sized where the version is", { skip }, () => {
  const image = mkbootimg({ kernel, ramdisk }, 0, 2048, 'console=ttyHSL0');
  const qcdt = noise(10_000, 7);
  const patched = Buffer.concat([image, qcdt]);
  new DataView(patched.buffer, patched.byteOffset).setUint32(40, qcdt.length, true);
  const r = extract(patched);
  assert.ok(r.files.get('dtb')!.equals(qcdt));
  assert.match(r.description ?? '', /Qualcomm/);
  // The last part's page padding may be missing at the end of the input; the part itself may not.
  assert.equal(r.size, patched.length);
  assert.equal(androidBootFormat.probe(patched.subarray(0, patched.length - 1), 0, readContext()), null);
});

test('android boot: impossible headers are no boot image', { skip }, () => {
  const image = mkbootimg({ kernel, ramdisk }, 0, 2048, '');
  const v = (b: Uint8Array) => new DataView(b.buffer, b.byteOffset);
  const badPage = image.slice();
  v(badPage).setUint32(36, 3000, true);
  const noKernel = image.slice();
  v(noKernel).setUint32(8, 0, true);
  const huge = image.slice();
  v(huge).setUint32(16, 0xffffffff, true);
  for (const bad of [badPage, noKernel, huge, image.subarray(0, 2047), image.subarray(0, image.length - 10_000)])
    assert.equal(androidBootFormat.probe(bad, 0, readContext()), null);
});

test('android boot: truncations and mutations end fast, only in null or entries', { skip }, () => {
  const image = mkbootimg({ kernel: kernel.subarray(0, 9000), ramdisk: ramdisk.subarray(0, 3000), dtb }, 2, 2048, 'x');
  // The changes land in the header (the first 1700 bytes), where each field matters.
  assertSurvivesDamage(androidBootFormat, image, { random: seededRandom(8), cases: 300, span: () => 1700 });
});
