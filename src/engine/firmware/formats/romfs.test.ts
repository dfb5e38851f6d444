// The romfs reader against genromfs images (plain, with aligned file data, inside other bytes), a
// hand-built image whose pointers loop, and damaged images.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { linkSync, lstatSync, mkdirSync, readdirSync, readFileSync, readlinkSync } from 'node:fs';
import { symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { seededRandom } from '../../../shared/seeded-random.js';
import { inTempDir, missingTool, runTool } from '../../../../test/helpers/firmware/tools.js';
import { DecodeError, OutputLimitError } from '../compression/errors.js';
import type { Entry, ReadContext } from '../format.js';
import { romfsFormat } from './romfs.js';

const GENROMFS = missingTool('genromfs', 'genromfs');
const ROOT = process.getuid?.() === 0;

function context(problems: string[] = []): ReadContext {
  return { remaining: () => 1 << 30, password: null, problem: (m) => problems.push(m) };
}

/** Nesting, empty files and dirs, a big file, links of both kinds, a fifo, and a device when root. */
function makeTree(root: string, scale = 1): void {
  const rnd = seededRandom(1);
  const bytes = (n: number) => Uint8Array.from({ length: n }, () => Math.floor(rnd() * 256));
  for (const d of ['etc', 'usr/share/deep/er', 'empty-dir', 'dev']) mkdirSync(join(root, d), { recursive: true });
  writeFileSync(join(root, 'etc/motd'), 'romfs\n');
  writeFileSync(join(root, 'empty'), '');
  writeFileSync(join(root, 'usr/share/blob'), bytes(200_000 * scale));
  writeFileSync(join(root, 'usr/share/deep/er/fifteen'), 'exactly 15 byte');
  linkSync(join(root, 'etc/motd'), join(root, 'usr/share/motd-hard'));
  symlinkSync('../etc/motd', join(root, 'usr/motd-link'));
  symlinkSync('/missing', join(root, 'dangling'));
  runTool('mkfifo', [join(root, 'dev/fifo')]);
  if (ROOT) runTool('mknod', [join(root, 'dev/null'), 'c', '1', '3']);
}

interface Want {
  kind: Entry['kind'];
  ino: number;
  data?: Buffer;
  target?: string;
}

function wanted(root: string): Map<string, Want> {
  const out = new Map<string, Want>();
  const walk = (rel: string) => {
    for (const name of readdirSync(join(root, rel)).sort()) {
      const path = rel ? `${rel}/${name}` : name;
      const full = join(root, path);
      const st = lstatSync(full);
      if (st.isDirectory()) {
        out.set(path, { kind: 'dir', ino: st.ino });
        walk(path);
      } else if (st.isSymbolicLink()) out.set(path, { kind: 'symlink', ino: st.ino, target: readlinkSync(full) });
      else if (st.isFile()) out.set(path, { kind: 'file', ino: st.ino, data: readFileSync(full) });
      else out.set(path, { kind: st.isFIFO() ? 'fifo' : 'device', ino: st.ino });
    }
  };
  walk('');
  return out;
}

/** Every path, kind, file's bytes and link target as the source tree has them (hard links to a same file). */
function assertSameTree(got: Entry[], root: string): void {
  const want = wanted(root);
  const byPath = new Map(got.map((e) => [e.path, e]));
  assert.deepEqual([...byPath.keys()].sort(), [...want.keys()].sort());
  for (const [path, w] of want) {
    const e = byPath.get(path)!;
    if (w.kind === 'file' && e.kind === 'hardlink') {
      assert.equal(want.get(e.target!)?.ino, w.ino, `${path} links to ${e.target}`);
      assert.equal(byPath.get(e.target!)?.kind, 'file');
    } else {
      assert.equal(e.kind, w.kind, path);
      if (w.data) assert.ok(Buffer.from(e.data!).equals(w.data), `${path}: bytes differ`);
      assert.equal(e.target, w.target, path);
    }
  }
}

for (const args of [[], ['-a', '512'], ['-V', 'a volume name of some length']]) {
  test(`genromfs ${args.join(' ')}`, (t) => {
    if (GENROMFS) return t.skip(GENROMFS);
    inTempDir((dir) => {
      makeTree(join(dir, 'src'));
      runTool('genromfs', ['-f', join(dir, 'fs'), '-d', join(dir, 'src'), ...args]);
      const image = readFileSync(join(dir, 'fs'));
      const framed = Buffer.concat([Buffer.alloc(64, 0x11), image, Buffer.from('tail')]);
      const probed = romfsFormat.probe(framed, 64, context());
      assert.ok(probed);
      assert.equal(probed.size, image.length);
      const problems: string[] = [];
      const entries = [...probed.entries(context(problems))];
      assert.deepEqual(problems, []);
      assert.ok(entries.some((e) => e.kind === 'hardlink'));
      assertSameTree(entries, join(dir, 'src'));
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
  const probed = romfsFormat.probe(image, 0, context())!;
  const problems: string[] = [];
  const got = [...probed.entries(context(problems))];
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
  assert.equal(romfsFormat.probe(image, 0, context()), null);
});

test('damaged images end fast with only DecodeError or OutputLimitError', (t) => {
  if (GENROMFS) return t.skip(GENROMFS);
  inTempDir((dir) => {
    makeTree(join(dir, 'src'), 0.05);
    runTool('genromfs', ['-f', join(dir, 'fs'), '-d', join(dir, 'src')]);
    const image = readFileSync(join(dir, 'fs'));
    const rnd = seededRandom(0x726f);
    for (let i = 0; i < 400; i++) {
      let bytes: Buffer;
      if (i < 100) bytes = image.subarray(0, Math.floor(rnd() * image.length));
      else {
        bytes = Buffer.from(image);
        // Most cases hit the headers (the first KiB) and re-seal the superblock checksum so they get read.
        const span = i % 4 ? 1024 : bytes.length;
        for (let k = 0, n = 1 + Math.floor(rnd() * 6); k < n; k++)
          bytes[Math.floor(rnd() * span)] = Math.floor(rnd() * 256);
        if (i % 4) {
          bytes.write('-rom1fs-', 0, 'latin1');
          bytes.writeUInt32BE(0, 12);
          bytes.writeUInt32BE(-sum(bytes, 0, Math.min(512, bytes.readUInt32BE(8) & ~3)) >>> 0, 12);
        }
      }
      const started = performance.now();
      try {
        const probed = romfsFormat.probe(bytes, 0, context());
        if (probed) {
          assert.ok(probed.size > 0 && probed.size <= bytes.length);
          for (const e of probed.entries(context())) void e;
        }
      } catch (err) {
        if (!(err instanceof DecodeError || err instanceof OutputLimitError)) throw err;
      }
      assert.ok(performance.now() - started < 2000, `case ${i} took too long`);
    }
  });
});
