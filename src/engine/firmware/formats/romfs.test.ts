// The romfs reader against genromfs images (plain, with aligned file data, inside other bytes), a
// hand-built image whose pointers loop, and damaged images.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { seededRandom } from '../../../shared/seeded-random.js';
import { assertSurvivesDamage } from '../../../../test/helpers/firmware/hostile.js';
import { inTempDir, missingTool, runTool } from '../../../../test/helpers/firmware/tools.js';
import { assertMatchesTree, writeTree } from '../../../../test/helpers/firmware/tree.js';
import { entriesFound, readContext } from '../../../../test/helpers/firmware/unpack.js';
import { noise } from '../../../../test/helpers/samples.js';
import { romfsFormat } from './romfs.js';

const GENROMFS = missingTool('genromfs', 'genromfs');

/** Nesting, empty files and dirs, a big file, links of both kinds, a fifo, and a device when root. */
function makeTree(root: string, scale = 1): void {
  writeTree(root, {
    'etc/motd': 'romfs\n',
    empty: '',
    'empty-dir': { dir: true },
    'usr/share/blob': noise(200_000 * scale, 1),
    'usr/share/deep/er/fifteen': 'exactly 15 byte',
    'usr/share/motd-hard': { hardlink: 'etc/motd' },
    'usr/motd-link': { symlink: '../etc/motd' },
    dangling: { symlink: '/missing' },
    'dev/fifo': { fifo: true },
    'dev/null': { device: [1, 3] },
  });
}

for (const args of [[], ['-a', '512'], ['-V', 'a volume name of some length']]) {
  test(`genromfs ${args.join(' ')}`, (t) => {
    if (GENROMFS) return t.skip(GENROMFS);
    inTempDir((dir) => {
      makeTree(join(dir, 'src'));
      runTool('genromfs', ['-f', join(dir, 'fs'), '-d', join(dir, 'src'), ...args]);
      const image = readFileSync(join(dir, 'fs'));
      const framed = Buffer.concat([Buffer.alloc(64, 0x11), image, Buffer.from('tail')]);
      const { size, entries, problems } = entriesFound(romfsFormat, framed, 64);
      assert.equal(size, image.length);
      assert.deepEqual(problems, []);
      assert.ok(entries.some((e) => e.kind === 'hardlink'));
      assertMatchesTree(entries, join(dir, 'src'));
      if (args[0] === '-a') {
        const data = entries.find((e) => e.path === 'usr/share/blob')!.data!;
        assert.equal((data.byteOffset - 64 - framed.byteOffset) % 512, 0, 'file data aligned as asked');
      }
    });
  });
}

/** A hand-built image: a superblock, then headers from `headers` (each given its checksum), padded to 1 KiB. */
function handBuilt(headers: { next: number; type: number; info: number; name: string; data?: string }[]): Buffer {
  const b = Buffer.alloc(1024);
  b.write('-rom1fs-', 0, 'latin1');
  b.writeUInt32BE(b.length, 8);
  b.write('v', 16);
  let at = 32;
  for (const h of headers) {
    const data = Buffer.from(h.data ?? '');
    b.writeUInt32BE(h.next | h.type, at);
    b.writeUInt32BE(h.info, at + 4);
    b.writeUInt32BE(data.length, at + 8);
    b.write(h.name, at + 16);
    const dataAt = at + 16 + ((h.name.length + 16) & ~15);
    b.writeUInt32BE(-sum(b, at, dataAt) >>> 0, at + 12);
    data.copy(b, dataAt);
    at = (dataAt + data.length + 15) & ~15;
  }
  b.writeUInt32BE(-sum(b, 0, 512) >>> 0, 12);
  return b;
}

function sum(b: Buffer, from: number, to: number): number {
  let s = 0;
  for (let at = from; at < to; at += 4) s = (s + b.readUInt32BE(at)) | 0;
  return s;
}

test('loops of next and directory pointers end their lists with a problem', () => {
  const image = handBuilt([
    { next: 64, type: 1, info: 32, name: 'd' },
    { next: 64, type: 2, info: 0, name: 'f', data: 'abc' },
  ]);
  const { entries: got, problems } = entriesFound(romfsFormat, image);
  assert.deepEqual(
    got.map((e) => `${e.kind} ${e.path}`),
    ['dir d', 'file f'],
  );
  assert.equal(Buffer.from(got[1]!.data!).toString(), 'abc');
  assert.equal(problems.length, 2, problems.join('\n'));
});

test('a bad superblock checksum is no romfs', () => {
  const image = handBuilt([{ next: 0, type: 2, info: 0, name: 'f', data: 'x' }]);
  image[40]! ^= 1;
  assert.equal(romfsFormat.probe(image, 0, readContext()), null);
});

test('damaged images end fast with only DecodeError or OutputLimitError', (t) => {
  if (GENROMFS) return t.skip(GENROMFS);
  inTempDir((dir) => {
    makeTree(join(dir, 'src'), 0.05);
    runTool('genromfs', ['-f', join(dir, 'fs'), '-d', join(dir, 'src')]);
    const image = readFileSync(join(dir, 'fs'));
    assertSurvivesDamage(romfsFormat, image, {
      random: seededRandom(0x726f),
      cases: 400,
      maxHits: 6,
      ms: 2000,
      // Most cases hit the headers (the first KiB) and re-seal the superblock checksum so they get read.
      span: (i) => (i % 4 ? 1024 : Infinity),
      after: (bytes, i) => {
        if (i % 4 === 0) return;
        const b = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length);
        b.write('-rom1fs-', 0, 'latin1');
        b.writeUInt32BE(0, 12);
        b.writeUInt32BE(-sum(b, 0, Math.min(512, b.readUInt32BE(8) & ~3)) >>> 0, 12);
      },
    });
  });
});
