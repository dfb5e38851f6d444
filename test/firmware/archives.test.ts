// tar, cpio and zip readers against archives the real tools make of one source tree: every file's bytes,
// the link, encrypted zip entries with and without the password.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { arFormat } from '../../src/engine/firmware/formats/ar.js';
import { cpioFormat } from '../../src/engine/firmware/formats/cpio.js';
import { tarFormat } from '../../src/engine/firmware/formats/tar.js';
import { zipFormat } from '../../src/engine/firmware/formats/zip/index.js';
import { inTempDir, missingTool, runTool } from '../helpers/firmware/tools.js';
import { normalised, sourceTree } from '../helpers/firmware/tree.js';
import { entriesOf } from '../helpers/firmware/unpack.js';

const JUNK = Buffer.from('trailing junk that is no part of the archive');

for (const format of ['gnu', 'ustar', 'pax']) {
  test(`tar (${format}): every file, the link, and the archive's extent`, (t) => {
    const missing = missingTool('tar', 'tar');
    if (missing) return t.skip(missing);
    inTempDir((dir) => {
      const src = join(dir, 'src');
      const files = sourceTree(src);
      runTool('tar', [`--format=${format}`, '-cf', join(dir, 'a.tar'), '-C', src, '.']);
      const tar = readFileSync(join(dir, 'a.tar'));
      const got = entriesOf(tarFormat, Buffer.concat([tar, JUNK]))!;
      // The end-of-archive blocks end it; tar pads its last record with more zeros.
      assert.ok(got.size <= tar.length && tar.subarray(got.size).every((b) => b === 0), `extent ${got.size}`);
      assert.deepEqual(normalised(got.files), files);
      assert.deepEqual(
        got.entries.filter((e) => e.kind === 'symlink').map((e) => [e.path.replace(/^\.\//, ''), e.target]),
        [['bin/link', 'tool']],
      );
    });
  });
}

for (const format of ['newc', 'crc', 'odc', 'bin']) {
  test(`cpio (${format}): every file, the link, the trailer`, (t) => {
    const missing = missingTool('cpio', 'cpio');
    if (missing) return t.skip(missing);
    inTempDir((dir) => {
      const src = join(dir, 'src');
      const files = sourceTree(src);
      const list = runTool('sh', ['-c', 'find . -mindepth 1 | sort'], { cwd: src });
      const archive = runTool('cpio', ['-o', '-H', format, '--quiet'], { cwd: src, input: list });
      const got = entriesOf(cpioFormat, Buffer.concat([archive, JUNK]))!;
      assert.ok(
        got.size <= archive.length && got.size > archive.length - 512,
        `extent ${got.size} of ${archive.length}`,
      );
      assert.deepEqual(normalised(got.files), files);
      assert.deepEqual(got.entries.find((e) => e.kind === 'symlink')?.target, 'tool');
      assert.deepEqual(got.problems, []);
    });
  });
}

const ZIPS: [string, (src: string, out: string) => void, string | null][] = [
  ['deflate', (src, out) => runTool('zip', ['-qry', out, '.'], { cwd: src }), null],
  ['stored', (src, out) => runTool('zip', ['-qry0', out, '.'], { cwd: src }), null],
  ['bzip2', (src, out) => runTool('zip', ['-qry', '-Z', 'bzip2', out, '.'], { cwd: src }), null],
  ['ZipCrypto', (src, out) => runTool('zip', ['-qry', '-P', 's3cret', out, '.'], { cwd: src }), 's3cret'],
  [
    'AES-256 (7z)',
    (src, out) => runTool('7z', ['a', '-tzip', '-ps3cret', '-mem=AES256', out, '.'], { cwd: src }),
    's3cret',
  ],
  ['LZMA (7z)', (src, out) => runTool('7z', ['a', '-tzip', '-mm=LZMA', out, '.'], { cwd: src }), null],
];

for (const [name, make, password] of ZIPS) {
  test(`zip (${name}): every file${password ? ' with the password; a problem without it' : ''}`, (t) => {
    const missing = missingTool(name.includes('7z') ? '7z' : 'zip', name.includes('7z') ? 'p7zip-full' : 'zip');
    if (missing) return t.skip(missing);
    inTempDir((dir) => {
      const src = join(dir, 'src');
      const files = sourceTree(src);
      make(src, join(dir, 'a.zip'));
      const zip = readFileSync(join(dir, 'a.zip'));
      const got = entriesOf(zipFormat, Buffer.concat([zip, JUNK]), 0, password)!;
      assert.equal(got.size, zip.length);
      assert.deepEqual(normalised(got.files), files);
      assert.deepEqual(got.problems, []);
      if (!password) return;
      const locked = entriesOf(zipFormat, zip, 0, null)!;
      assert.equal(locked.files.size, 0);
      assert.ok(locked.problems.every((p) => /encrypted: give the archive's password/.test(p)));
      const wrong = entriesOf(zipFormat, zip, 0, 'wrong')!;
      assert.ok(
        wrong.problems.some((p) => /wrong password/.test(p)),
        wrong.problems.join('; '),
      );
    });
  });
}

test('ar: members of a Debian-style archive and a static library with long names', (t) => {
  const missing = missingTool('ar', 'binutils');
  if (missing) return t.skip(missing);
  inTempDir((dir) => {
    const files = new Map([
      ['debian-binary', Buffer.from('2.0\n')],
      ['a-member-name-longer-than-sixteen.o', Buffer.from('odd'.repeat(33))],
      ['data.tar.gz', Buffer.from('x'.repeat(1001))],
    ]);
    for (const [name, data] of files) runTool('sh', ['-c', `cat > '${name}'`], { cwd: dir, input: data });
    runTool('ar', ['rc', 'pkg.a', ...files.keys()], { cwd: dir });
    const archive = readFileSync(join(dir, 'pkg.a'));
    const got = entriesOf(arFormat, Buffer.concat([archive, JUNK]))!;
    assert.equal(got.size, archive.length);
    assert.deepEqual(got.files, files);
  });
});
