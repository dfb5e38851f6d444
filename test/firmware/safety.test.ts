// The safety suite (issue 14): each hostile input ends with recorded problems, bounded bytes written and
// nothing outside the output directory — on disk, through the job's own writer.
import assert from 'node:assert/strict';
import { existsSync, lstatSync, mkdirSync, readdirSync, readFileSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { gzipSync } from 'node:zlib';
import { cpioFormat } from '../../src/engine/firmware/formats/cpio.js';
import { tarFormat } from '../../src/engine/firmware/formats/tar.js';
import { ExtractionOutput, FIRMWARE_FORMATS, unpackImage } from '../../src/engine/index.js';
import { directoryWriter } from '../../src/jobs/output-directory.js';
import { cpioNewc, tar, zip } from '../helpers/firmware/builders.js';
import { inTempDir, missingTool, runTool } from '../helpers/firmware/tools.js';
import { entriesOf, unpackInMemory } from '../helpers/firmware/unpack.js';

/** Unpacks onto disk under dir/out; returns the report and every path made, relative to dir. */
function unpackOnDisk(dir: string, image: Uint8Array, limits = { maxBytes: 1 << 30, maxFiles: 100_000 }) {
  const root = join(dir, 'out');
  mkdirSync(root);
  const output = new ExtractionOutput(directoryWriter(root), limits);
  const report = unpackImage(image, output, {
    formats: FIRMWARE_FORMATS,
    maxDepth: 10,
    password: null,
    timeUp: () => false,
  });
  const made: string[] = [];
  const walk = (d: string) => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      made.push(join(d, e.name).slice(dir.length + 1));
      assert.ok(e.isFile() || e.isDirectory(), `${e.name} is neither a file nor a directory`);
      if (e.isDirectory()) walk(join(d, e.name));
    }
  };
  walk(dir);
  return { report, made };
}

const text = (s: string) => Buffer.from(s);

test('names with .., absolute names, NULs: refused or made relative, never written outside', () => {
  inTempDir((dir) => {
    const evil = [
      { name: '../escape.txt', data: text('x') },
      { name: '/etc/passwd', data: text('root') },
      { name: 'a/../../up.txt', data: text('y') },
      { name: 'ok.txt', data: text('fine') },
    ];
    const image = Buffer.concat([tar(evil), Buffer.alloc(512), zip(evil), cpioNewc(evil)]);
    const { report, made } = unpackOnDisk(dir, image);
    assert.ok(
      made.every((p) => p === 'out' || p.startsWith('out/')),
      made.join(', '),
    );
    assert.equal(existsSync(join(dir, 'escape.txt')) || existsSync(join(dir, 'up.txt')), false);
    for (const format of ['tar', 'zip', 'cpio']) {
      const chunk = report.chunks.find((c) => c.format === format)!;
      assert.ok(chunk, `${format} found`);
      const written = report.files.filter((f) => f.chunk === chunk.id).map((f) => f.path.slice(chunk.dir.length + 1));
      assert.deepEqual(written.sort(), ['etc/passwd', 'ok.txt'], format);
    }
    assert.equal(report.problems.filter((p) => /climbs out with \.\./.test(p.message)).length, 6);
  });
});

test('a symbolic link out, then a write through it; devices, FIFOs and hard links: recorded, never made', () => {
  inTempDir((dir) => {
    const image = tar([
      { name: 'etc', type: '2', link: '/etc' },
      { name: 'etc/shadow', data: text('written inside, not through the link') },
      { name: 'dev/null', type: '3' },
      { name: 'run/fifo', type: '6' },
      { name: 'hard', type: '1', link: '/etc/passwd' },
    ]);
    const { report, made } = unpackOnDisk(dir, image);
    assert.ok(made.every((p) => !lstatSync(join(dir, p)).isSymbolicLink()));
    assert.deepEqual(
      report.links.map((l) => [l.path.split('/').slice(1).join('/'), l.kind, l.target]),
      [
        ['etc', 'symlink', '/etc'],
        ['dev/null', 'device', null],
        ['run/fifo', 'fifo', null],
        ['hard', 'hardlink', '/etc/passwd'],
      ],
    );
    const shadow = report.files.find((f) => f.path.endsWith('etc/shadow'))!;
    assert.equal(readFileSync(join(dir, 'out', shadow.path), 'utf8'), 'written inside, not through the link');
  });
});

test('the writer refuses a path that resolves outside, and never writes through an existing link', () => {
  inTempDir((dir) => {
    const root = join(dir, 'out');
    mkdirSync(root);
    symlinkSync(join(dir, 'target'), join(root, 'planted'));
    const w = directoryWriter(root);
    assert.throws(() => w.writeFile('../outside', text('x')), /outside the output directory/);
    assert.throws(() => w.writeFile('planted', text('x')), /EEXIST/);
    assert.equal(existsSync(join(dir, 'target')), false);
  });
});

test('an overlapping-entries zip bomb: the shared block is extracted once, the rest refused', () => {
  const zeros = new Uint8Array(1 << 20);
  const bomb = zip(
    Array.from({ length: 200 }, (_, i) => ({ name: `f${i}`, data: zeros })),
    true,
  );
  const { report } = unpackInMemory(bomb);
  assert.equal(report.files.length, 1);
  assert.equal(report.problems.filter((p) => /overlaps the entry before it/.test(p.message)).length, 199);
  assert.ok(report.bytesWritten <= 1 << 20);
});

test('a 42.zip-style nested bomb stops at the byte budget, recorded, in bounded time', (t) => {
  const missing = missingTool('zip', 'zip');
  if (missing) return t.skip(missing);
  inTempDir((dir) => {
    // 16 MiB of zeros, then four levels of 8 copies: 64 GiB if it were all written.
    runTool('sh', ['-c', 'head -c 16777216 /dev/zero > z && zip -q l0.zip z'], { cwd: dir });
    for (let level = 1; level <= 4; level++) {
      const copies = Array.from({ length: 8 }, (_, i) => `c${i}.zip`);
      runTool(
        'sh',
        [
          '-c',
          `${copies.map((c) => `cp l${level - 1}.zip ${c}`).join(' && ')} && zip -q l${level}.zip ${copies.join(' ')} && rm ${copies.join(' ')}`,
        ],
        { cwd: dir },
      );
    }
    const bomb = readFileSync(join(dir, 'l4.zip'));
    const started = Date.now();
    const maxBytes = 256 << 20;
    const { report } = unpackInMemory(bomb, { maxBytes });
    assert.ok(report.bytesWritten <= maxBytes);
    // The budget ends it while decoding (an entry would pass what is left) or at a write.
    assert.ok(report.problems.some((p) => /budget .* is spent|decompressed output passes/.test(p.message)));
    assert.ok(report.bytesWritten > 0);
    assert.ok(Date.now() - started < 60_000);
  });
});

test('headers claiming terabytes (tar) and 4 GiB (zip): refused without allocating them', () => {
  const tb = 2 ** 40;
  const image = Buffer.concat([
    tar([
      { name: 'small', data: text('ok') },
      { name: 'huge', data: text('tiny'), claimedSize: tb },
    ]),
    zip([{ name: 'liar', data: text('four'), claimedSize: 0xfffffff0 }]),
  ]);
  const { report } = unpackInMemory(image);
  assert.deepEqual(report.files.map((f) => f.path.split('/').pop()).sort(), ['small']);
  assert.ok(
    report.problems.some((p) => /liar: size or CRC-32 differs/.test(p.message)),
    JSON.stringify(report.problems),
  );
});

test('nesting deeper than 10 levels is recorded, not followed', () => {
  let data: Uint8Array = text('the bottom');
  for (let i = 0; i < 12; i++) data = gzipSync(data);
  const { report } = unpackInMemory(data);
  assert.equal(report.files.length, 10);
  assert.ok(report.problems.some((p) => /deeper than 10 levels/.test(p.message)));
});

test('100 000 tiny files: the file budget holds, and it is quick', () => {
  const archive = cpioNewc(
    Array.from({ length: 100_000 }, (_, i) => ({ name: `d${i % 100}/f${i}`, data: text(String(i)) })),
  );
  const started = Date.now();
  const { report } = unpackInMemory(archive, { maxFiles: 20_000 });
  assert.equal(report.files.length, 20_000);
  assert.ok(report.problems.some((p) => /budget \(20000 files/.test(p.message)));
  const all = unpackInMemory(archive);
  assert.equal(all.report.files.length, 100_000);
  assert.ok(Date.now() - started < 60_000, `${Date.now() - started} ms`);
});

test('what the firmware fuzz target found stays fixed: extents within the data, pointers past 2 GiB', (t) => {
  // A tar cut inside its last member's padding, and a cpio with no trailer cut inside its padding: the
  // archive ends at the data's end, never past it.
  const archive = tar([{ name: 'a', data: text('x'.repeat(100)) }]);
  const cutTar = archive.subarray(0, 512 + 100 + 10);
  assert.equal(entriesOf(tarFormat, cutTar)!.size, cutTar.length);
  const members = cpioNewc([
    { name: 'a', data: text('1') },
    { name: 'b', data: text('2') },
  ]);
  const cutCpio = members.subarray(0, members.indexOf('TRAILER!!!') - 110 - 1);
  assert.ok(entriesOf(cpioFormat, cutCpio)!.size <= cutCpio.length);
  // A romfs header whose next pointer is 0xfffffff0: a problem, not a RangeError.
  const missing = missingTool('genromfs', 'genromfs');
  if (missing) return t.skip(missing);
  inTempDir((dir) => {
    mkdirSync(join(dir, 'src'));
    runTool('sh', ['-c', 'echo hello > src/a && echo world > src/b'], { cwd: dir });
    runTool('genromfs', ['-f', 'rom.img', '-d', 'src', '-V', 'rom'], { cwd: dir });
    const image = readFileSync(join(dir, 'rom.img'));
    image.writeUInt32BE((0xfffffff0 | (image.readUInt32BE(32) & 15)) >>> 0, 32);
    const { report } = unpackInMemory(image);
    assert.ok(
      report.problems.every((p) => !/internal error/.test(p.message)),
      JSON.stringify(report.problems),
    );
  });
});
