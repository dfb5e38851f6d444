// Firmware unpacking through the API on both databases: upload → task → tree (chunks with their entropy) →
// the executables analysed with their CPUs' models → related in both directions (with their origin, and the
// image's task); other files downloadable; a password-protected archive; visibility.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, test } from 'node:test';
import { backends } from '../helpers/backends.js';
import { CONFIG_TEXT, missingImageTools, routerImage } from '../helpers/firmware/images.js';
import { inTempDir, missingTool, runTool } from '../helpers/firmware/tools.js';
import { useHarness, type Harness } from '../helpers/harness.js';
import { multipartBody } from '../helpers/multipart.js';

const LZ4 = resolve(process.cwd(), '..', 'shared', 'corpus', 'bin', 'lz4');
const MIPSEL = join(LZ4, 'lz4-1.10.0_linux-mipsel_gcc12_O2_stripped');
const ARMHF = join(LZ4, 'lz4-1.10.0_linux-armhf_gcc12_O2_stripped');
const sha = (b: Uint8Array) => createHash('sha256').update(b).digest('hex');

interface TreeChunk {
  offset: number;
  format: string;
  entropy: number | null;
  files: { chunks: TreeChunk[] }[];
}

async function uploadFirmware(h: Harness, key: string, image: Buffer, password?: string) {
  const form = multipartBody([
    { name: 'file', value: image, filename: 'router.bin' },
    ...(password ? [{ name: 'password', value: password }] : []),
  ]);
  return h.app.inject({
    method: 'POST',
    url: '/v2/firmware',
    headers: { authorization: key, 'content-type': form.contentType },
    payload: form.payload,
  });
}

async function settled(h: Harness, key: string, task: string) {
  for (const deadline = Date.now() + 60_000; ;) {
    const r = await h.request('GET', `/v2/firmware/get-binaries/${task}`, key);
    const status = r.json().data.status as string;
    if (status === 'COMPLETED' || status === 'ERROR' || Date.now() > deadline) return r.json().data;
    await new Promise((done) => setTimeout(done, 50));
  }
}

for (const backend of backends) {
  describe(`firmware unpacking (${backend.name})`, { skip: backend.skip ?? false }, () => {
    const h = useHarness(backend);

    test('a router image: its tree, its executables analysed as MIPS and ARM, related both ways, files, visibility', async (t) => {
      const missing = missingImageTools() ?? (existsSync(MIPSEL) ? null : `the corpus is absent (${LZ4})`);
      if (missing) return t.skip(missing);
      const { alice, bob } = h().keys;
      const exes = new Map([
        ['lz4-mipsel', readFileSync(MIPSEL)],
        ['lz4-armhf', readFileSync(ARMHF)],
      ]);
      const image = inTempDir((dir) => routerImage(dir, exes));
      const created = await uploadFirmware(h(), alice, image);
      assert.equal(created.statusCode, 201, created.body);
      const { task_id, binary_id, status, sha_256_hash } = created.json().data;
      assert.equal(status, 'PENDING');
      assert.equal(sha_256_hash, sha(image));
      const task = await settled(h(), alice, task_id);
      assert.equal(task.status, 'COMPLETED', JSON.stringify(task.error));
      assert.deepEqual(task.problems, []);
      assert.deepEqual(task.firmware, { binary_id, name: 'router.bin', sha256: sha(image), size: image.length });
      assert.deepEqual(
        task.tree.map((c: { offset: number; format: string }) => [c.offset, c.format]),
        [
          [0, 'uimage'],
          [task.tree[1].offset, 'squashfs'],
        ],
      );
      assert.equal(task.tree[1].offset % 0x10000, 0);
      // Every chunk, at every depth, has its entropy: compressed SquashFS is near 8 bits per byte.
      const chunks = (tree: TreeChunk[]): TreeChunk[] =>
        tree.flatMap((c) => [c, ...c.files.flatMap((f) => chunks(f.chunks))]);
      for (const c of chunks(task.tree)) {
        assert.equal(typeof c.entropy, 'number', `${c.format} at ${c.offset}`);
        assert.ok(c.entropy! >= 0 && c.entropy! <= 8, `${c.format}: ${c.entropy}`);
      }
      assert.ok(task.tree[1].entropy > 5, `squashfs: ${task.tree[1].entropy}`);
      const binaries = task.binaries as {
        sha256: string;
        binary_id: number;
        analysis_id: number;
        location: string;
        name: string;
        type: string;
      }[];
      assert.deepEqual(binaries.map((b) => b.sha256).sort(), [...exes.values()].map(sha).sort());
      const mips = binaries.find((b) => b.sha256 === sha(exes.get('lz4-mipsel')!))!;
      assert.match(mips.type, /^ELF mips 32-bit little endian/);
      assert.match(mips.location, /^0x[0-9a-f]+ squashfs:bin\/lz4-mipsel$/);
      assert.equal(mips.name, 'bin/lz4-mipsel');
      const models: string[] = [];
      for (const b of binaries) {
        assert.equal(await h().waitForStatus(alice, b.analysis_id), 'Complete');
        models.push((await h().request('GET', `/v2/analyses/${b.analysis_id}/basic`, alice)).json().data.model_name);
      }
      assert.deepEqual(models.sort(), ['binnet-0.7-arm-32-linux', 'binnet-0.7-mips-32-linux']);

      // Related, both ways.
      const related = (await h().request('GET', `/v2/binaries/${binary_id}/related`, alice)).json().data;
      assert.equal(related.parent, null);
      assert.deepEqual(
        related.children.map((c: { binary_id: number }) => c.binary_id).sort(),
        binaries.map((b) => b.binary_id).sort(),
      );
      for (const c of related.children) assert.deepEqual([c.origin, c.task_id], ['firmware', null]);
      assert.deepEqual((await h().request('GET', `/v2/binaries/${binary_id}/related/status`, alice)).json().data, {
        status: 'COMPLETED',
      });
      const up = (await h().request('GET', `/v2/binaries/${mips.binary_id}/related`, alice)).json().data;
      assert.deepEqual(up.parent, {
        binary_id,
        analysis_id: null,
        name: 'router.bin',
        sha256: sha(image),
        location: null,
        origin: null,
        task_id,
      });

      // Other files: listed with type and hash, downloadable.
      const config = (task.files as { path: string; sha256: string; type: string; download: string }[]).find((f) =>
        f.path.endsWith('etc/config'),
      )!;
      assert.equal(config.type, 'text');
      const download = await h().request('GET', config.download, alice);
      assert.equal(download.statusCode, 200);
      assert.ok(download.rawPayload.equals(CONFIG_TEXT));

      // Nobody else sees any of it.
      for (const url of [
        `/v2/firmware/get-binaries/${task_id}`,
        config.download,
        `/v2/binaries/${binary_id}/related`,
        `/v2/binaries/${mips.binary_id}/related`,
      ])
        assert.equal((await h().request('GET', url, bob)).statusCode, 404, url);
    });

    test('a password-protected archive: its executable with the password, a problem without it', async (t) => {
      const missing = missingTool('zip', 'zip') ?? (existsSync(MIPSEL) ? null : `the corpus is absent (${LZ4})`);
      if (missing) return t.skip(missing);
      const { alice } = h().keys;
      const archive = inTempDir((dir) => {
        runTool('cp', [MIPSEL, join(dir, 'daemon')]);
        runTool('zip', ['-q', '-P', 'hunter2', 'update.zip', 'daemon'], { cwd: dir });
        return readFileSync(join(dir, 'update.zip'));
      });
      const locked = await settled(h(), alice, (await uploadFirmware(h(), alice, archive)).json().data.task_id);
      assert.equal(locked.binaries.length, 0);
      assert.match(locked.problems[0].message, /encrypted: give the archive's password/);
      const open = await settled(
        h(),
        alice,
        (await uploadFirmware(h(), alice, archive, 'hunter2')).json().data.task_id,
      );
      assert.deepEqual(
        open.binaries.map((b: { sha256: string }) => b.sha256),
        [sha(readFileSync(MIPSEL))],
      );
    });

    test('bad requests: no file, an unknown field, an unknown task', async () => {
      const { alice } = h().keys;
      const form = multipartBody([{ name: 'pasword', value: 'x' }]);
      const r = await h().app.inject({
        method: 'POST',
        url: '/v2/firmware',
        headers: { authorization: alice, 'content-type': form.contentType },
        payload: form.payload,
      });
      assert.equal(r.statusCode, 422);
      assert.match(JSON.stringify(r.json()), /body\.pasword/);
      assert.equal((await h().request('GET', '/v2/firmware/get-binaries/no-such-task', alice)).statusCode, 404);
    });
  });
}
