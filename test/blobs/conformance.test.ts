// The BlobStore conformance suite; every driver runs it (the filesystem one today, S3 later).
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
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
      const blob = await store.put(chunked(content), 1e9);
      assert.equal(blob.sha256, sha(content));
      assert.equal(blob.size, content.length);
      assert.deepEqual(blob.head, content.subarray(0, HEAD_BYTES));
      assert.equal(await store.has(blob.sha256), true);
      const path = await store.localPath(blob.sha256);
      assert.ok(path.endsWith(join(blob.sha256.slice(0, 2), blob.sha256.slice(2, 4), blob.sha256)));
      assert.deepEqual(readFileSync(path), content);
    });

    test('the same content twice is one blob', async () => {
      const a = await store.put(chunked(content), 1e9);
      const b = await store.put(chunked(content, 1000), 1e9);
      assert.equal(a.sha256, b.sha256);
      const dir = join(root, a.sha256.slice(0, 2), a.sha256.slice(2, 4));
      assert.deepEqual(readdirSync(dir), [a.sha256]);
    });

    test('over the limit: refused, nothing kept', async () => {
      const big = Buffer.alloc(10_000, 1);
      await assert.rejects(store.put(chunked(big), 9_999), BlobTooLargeError);
      assert.equal(await store.has(sha(big)), false);
      assert.deepEqual(readdirSync(join(root, 'tmp')), []);
      const exact = await store.put(chunked(big), 10_000);
      assert.equal(exact.size, 10_000);
    });

    test('a stream that fails midway leaves nothing behind', async () => {
      const failing = Readable.from(
        (function* () {
          yield Buffer.alloc(1000);
          throw new Error('connection reset');
        })(),
      );
      await assert.rejects(store.put(failing, 1e9), /connection reset/);
      assert.deepEqual(readdirSync(join(root, 'tmp')), []);
    });

    test('empty content is a valid blob', async () => {
      const blob = await store.put(Readable.from([]), 1e9);
      assert.equal(blob.sha256, sha(Buffer.alloc(0)));
      assert.equal(blob.size, 0);
    });

    test('only 64 hex digits name a blob: no path can be smuggled in', async () => {
      for (const bad of ['../../etc/passwd', 'A'.repeat(64), 'ab', `${'a'.repeat(63)}/`]) {
        assert.equal(await store.has(bad), false);
        await assert.rejects(store.localPath(bad));
        await assert.rejects(store.delete(bad));
      }
    });

    test('delete removes the blob; deleting again is harmless', async () => {
      const blob = await store.put(chunked(Buffer.from('delete me')), 1e9);
      await store.delete(blob.sha256);
      assert.equal(await store.has(blob.sha256), false);
      await store.delete(blob.sha256);
    });
  });
}
