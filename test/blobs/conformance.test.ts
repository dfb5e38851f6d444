// The BlobStore conformance suite; every driver runs it (the filesystem one today, S3 later).
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { after, describe, test } from 'node:test';
import { BlobTooLargeError, FsBlobStore, HEAD_BYTES, type BlobStore } from '../../src/blobs/index.js';

const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');

/** Content arriving in many small chunks, as from a socket. */
const chunked = (b: Buffer, size = 4096) =>
  Readable.from(
    (function* () {
      for (let i = 0; i < b.length; i += size) yield b.subarray(i, i + size);
    })(),
  );

/** Stages and commits: what a recorded upload does. */
const put = async (store: BlobStore, content: Readable, maxBytes: number) => {
  const blob = await store.stage(content, maxBytes);
  await store.commit(blob);
  return blob;
};

/** Files left in the staging area, whoever's folder they are in. */
const staged = (root: string) =>
  readdirSync(join(root, 'tmp'), { recursive: true, withFileTypes: true }).filter((e) => e.isFile());

const drivers: { name: string; make(): { store: BlobStore; cleanup(): void; root: string } }[] = [
  {
    name: 'fs',
    make() {
      const root = mkdtempSync(join(tmpdir(), 'binlens-blobs-'));
      return { store: new FsBlobStore(root), root, cleanup: () => rmSync(root, { recursive: true, force: true }) };
    },
  },
];

for (const driver of drivers) {
  describe(`blob store conformance (${driver.name})`, () => {
    const { store, root, cleanup } = driver.make();
    after(cleanup);
    const content = Buffer.from(Array.from({ length: 200_000 }, (_, i) => (i * 7) & 0xff));

    test('put hashes the stream, keeps the head and stores content-addressed', async () => {
      const blob = await put(store, chunked(content), 1e9);
      assert.equal(blob.sha256, sha(content));
      assert.equal(blob.size, content.length);
      assert.deepEqual(blob.head, content.subarray(0, HEAD_BYTES));
      assert.equal(await store.has(blob.sha256), true);
      const path = await store.localPath(blob.sha256);
      assert.ok(path.endsWith(join(blob.sha256.slice(0, 2), blob.sha256.slice(2, 4), blob.sha256)));
      assert.deepEqual(readFileSync(path), content);
    });

    test('the same content twice is one blob', async () => {
      const a = await put(store, chunked(content), 1e9);
      const b = await put(store, chunked(content, 1000), 1e9);
      assert.equal(a.sha256, b.sha256);
      const dir = join(root, a.sha256.slice(0, 2), a.sha256.slice(2, 4));
      assert.deepEqual(readdirSync(dir), [a.sha256]);
    });

    test('over the limit: refused, nothing kept', async () => {
      const big = Buffer.alloc(10_000, 1);
      await assert.rejects(put(store, chunked(big), 9_999), BlobTooLargeError);
      assert.equal(await store.has(sha(big)), false);
      assert.deepEqual(staged(root), []);
      const exact = await put(store, chunked(big), 10_000);
      assert.equal(exact.size, 10_000);
    });

    test('a stream that fails midway leaves nothing behind', async () => {
      const failing = Readable.from(
        (function* () {
          yield Buffer.alloc(1000);
          throw new Error('connection reset');
        })(),
      );
      await assert.rejects(put(store, failing, 1e9), /connection reset/);
      assert.deepEqual(staged(root), []);
    });

    test('empty content is a valid blob', async () => {
      const blob = await put(store, Readable.from([]), 1e9);
      assert.equal(blob.sha256, sha(Buffer.alloc(0)));
      assert.equal(blob.size, 0);
    });

    test('only 64 hex digits name a blob: no path can be smuggled in', async () => {
      for (const bad of ['../../etc/passwd', 'A'.repeat(64), 'ab', `${'a'.repeat(63)}/`]) {
        assert.equal(await store.has(bad), false);
        await assert.rejects(store.localPath(bad));
      }
    });

    test('an abandoned upload never removes what another request stored, in either order', async () => {
      for (const order of ['abandon first', 'commit first']) {
        const bytes = Buffer.from(`shared content ${order}`);
        const kept = await store.stage(chunked(bytes), 1e9);
        const refused = await store.stage(chunked(bytes), 1e9);
        if (order === 'abandon first') await store.abandon(refused);
        await store.commit(kept);
        if (order === 'commit first') await store.abandon(refused);
        assert.deepEqual(readFileSync(await store.localPath(kept.sha256)), bytes, order);
      }
      assert.deepEqual(staged(root), []);
    });

    test('a staged upload is invisible until committed', async () => {
      const blob = await store.stage(chunked(Buffer.from('not yet')), 1e9);
      assert.equal(await store.has(blob.sha256), false);
      await store.abandon(blob);
      assert.equal(await store.has(blob.sha256), false);
      assert.deepEqual(staged(root), []);
    });

    test('the store reports itself writable', async () => {
      await store.check();
      assert.deepEqual(staged(root), []);
    });
  });
}

describe('fs blob store: staging left by crashed processes', () => {
  const root = mkdtempSync(join(tmpdir(), 'binlens-blobs-'));
  after(() => rmSync(root, { recursive: true, force: true }));
  const tmp = join(root, 'tmp');
  const uuid = '0b6c7d0e-1f2a-4b3c-8d4e-5f6a7b8c9d0e';
  /** A pid no process has: one of a child that has exited. */
  const deadPid = spawnSync(process.execPath, ['-e', '0']).pid!;

  test("sweep removes a dead local process's folder and loose files, and keeps live and fresh ones", async () => {
    const store = new FsBlobStore(root, 60_000);
    const mine = await store.stage(chunked(Buffer.from('in flight')), 1e9);
    const folder = (name: string, ageMs = 0) => {
      mkdirSync(join(tmp, name), { recursive: true });
      writeFileSync(join(tmp, name, 'part'), Buffer.alloc(1024));
      const t = new Date(Date.now() - ageMs);
      utimesSync(join(tmp, name), t, t);
      return name;
    };
    const crashed = folder(`${hostname()}.${deadPid}.${uuid}`);
    const liveLocal = folder(`${hostname()}.${process.ppid}.${uuid}`, 3_600_000);
    const otherHostFresh = folder(`elsewhere.1.${uuid}`);
    const otherHostStale = folder(`elsewhere.2.${uuid}`, 120_000);
    writeFileSync(join(tmp, uuid), Buffer.alloc(1024)); // the layout before staging folders

    assert.equal(await store.sweep(), 3);
    assert.deepEqual(readdirSync(tmp).sort(), [liveLocal, otherHostFresh, mine.staged.split('/').at(-2)!].sort());
    assert.ok(!readdirSync(tmp).includes(crashed) && !readdirSync(tmp).includes(otherHostStale));
    await store.commit(mine);
    assert.equal(await store.has(mine.sha256), true);
  });

  test('an earlier instance in this process is judged by its heartbeat', async () => {
    const own = join(root, 'instances');
    const earlier = new FsBlobStore(own, 50);
    await earlier.stage(chunked(Buffer.from('left over')), 1e9);
    const later = new FsBlobStore(own, 50);
    await earlier.heartbeat();
    assert.equal(await later.sweep(), 0);
    await new Promise((r) => setTimeout(r, 120));
    assert.equal(await later.sweep(), 1);
  });
});
