// Operations as the spec describes them: upload, create and the read views of a finished analysis, and the
// platform endpoints (models, config, current user, OpenAPI document, interactive docs).
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { before, describe, test } from 'node:test';
import { MODEL_NAMES } from '../../src/contracts/index.js';
import { backends } from '../helpers/backends.js';
import { useHarness, type Harness } from '../helpers/harness.js';
import { elf64, rawBlob } from '../helpers/samples.js';

const sha256 = (b: Buffer) => createHash('sha256').update(b).digest('hex');
const ISO = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;
const NO_MODEL = {
  status: false,
  data: null,
  message:
    'No appropriate model could be found for this binary: its format and architecture were not recognised; ' +
    'for a raw blob (firmware, shellcode) pass binary_config with its isa (x86, x86_64, or arm for AArch64) and platform',
  errors: [],
  meta: {},
};

/** Files under `<dataDir>/blobs`, as paths relative to it; directories left out. */
const blobFiles = (h: Harness) =>
  readdirSync(join(h.config.dataDir, 'blobs'), { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => join(e.parentPath, e.name).slice(join(h.config.dataDir, 'blobs').length + 1))
    .sort();
const blobFile = (sha: string) => join(sha.slice(0, 2), sha.slice(2, 4), sha);

for (const backend of backends) {
  describe(`operations: upload (${backend.name})`, { skip: backend.skip ?? false }, () => {
    const h = useHarness(backend);

    test('returns the hash, the file type and the file name', async () => {
      const content = elf64(1);
      const r = await h().upload(h().keys.alice, content, 'hello.elf', 'BINARY');
      assert.equal(r.statusCode, 200);
      assert.deepEqual(r.json(), {
        status: true,
        data: { sha_256_hash: sha256(content), file_type: 'BINARY', filename: 'hello.elf' },
        message: 'Success',
        errors: [],
        meta: {},
      });
      for (const type of ['DEBUG', 'PACKED', 'FIRMWARE']) {
        const t = await h().upload(h().keys.alice, content, `x.${type}`, type);
        assert.equal(t.statusCode, 200);
        assert.equal(t.json().data.file_type, type);
      }
    });

    test('the same bytes uploaded twice (by anyone) give the same hash and one blob file', async () => {
      const content = elf64(2);
      const sha = sha256(content);
      const shas = [];
      for (const key of [h().keys.alice, h().keys.alice, h().keys.bob]) {
        const r = await h().upload(key, content, 'dup.bin');
        assert.equal(r.statusCode, 200);
        shas.push(r.json().data.sha_256_hash);
      }
      assert.deepEqual(shas, [sha, sha, sha]);
      // Every upload in this block so far: elf64(1) and elf64(2), one file each; nothing left in tmp/.
      assert.deepEqual(blobFiles(h()), [blobFile(sha256(elf64(1))), blobFile(sha)].sort());
      // Both uploaders can analyse it.
      for (const key of [h().keys.alice, h().keys.bob]) {
        const c = await h().request('POST', '/v2/analyses', key, { filename: 'dup.bin', sha_256_hash: sha });
        assert.equal(c.statusCode, 201, c.body);
      }
    });
  });

  describe(`operations: upload size limit (${backend.name})`, { skip: backend.skip ?? false }, () => {
    const h = useHarness(backend, { maxUploadBytes: 1000 });

    test('a file over the limit → 413 with a clear message, nothing stored; at the limit → 200', async () => {
      const message = 'File exceeds the maximum upload size of 1000 bytes';
      for (const size of [1001, 4096, 256 * 1024]) {
        const r = await h().upload(h().keys.alice, Buffer.alloc(size, 7), 'big.bin');
        assert.equal(r.statusCode, 413, `${size}: ${r.body}`);
        assert.deepEqual(r.json(), {
          status: false,
          data: null,
          message,
          errors: [{ code: '413', message }],
          meta: {},
        });
      }
      assert.deepEqual(blobFiles(h()), [], 'no blob (not even a truncated one) is kept');
      const atLimit = Buffer.alloc(1000, 7);
      const ok = await h().upload(h().keys.alice, atLimit, 'fits.bin');
      assert.equal(ok.statusCode, 200, ok.body);
      assert.deepEqual(blobFiles(h()), [blobFile(sha256(atLimit))]);
    });

    test('GET /v2/config reports the configured limit', async () => {
      const r = await h().request('GET', '/v2/config', h().keys.alice);
      assert.equal(r.statusCode, 200);
      assert.equal(r.json().data.max_file_size_bytes, 1000);
    });
  });

  describe(`operations: create and read an analysis (${backend.name})`, { skip: backend.skip ?? false }, () => {
    const h = useHarness(backend);
    const content = elf64(10);
    let id: number;
    let binaryId: number;
    const get = async (url: string) => {
      const r = await h().request('GET', url, h().keys.alice);
      assert.equal(r.statusCode, 200, `${url}: ${r.body}`);
      return r.json().data;
    };

    before(async () => {
      const up = await h().upload(h().keys.alice, content, 'ls');
      assert.equal(up.statusCode, 200);
      const r = await h().request('POST', '/v2/analyses', h().keys.alice, {
        filename: 'ls',
        sha_256_hash: sha256(content).toUpperCase(),
        tags: [{ name: 'coreutils' }, { name: 'linux' }],
        debug_hash: 'dbg-1',
      });
      assert.equal(r.statusCode, 201, r.body);
      const body = r.json();
      assert.deepEqual(Object.keys(body.data).sort(), ['analysis_id', 'binary_id']);
      assert.equal(body.status, true);
      id = body.data.analysis_id;
      binaryId = body.data.binary_id;
      assert.ok(Number.isInteger(id) && Number.isInteger(binaryId));
    });

    test('the analysis reaches Complete; status names it', async () => {
      assert.equal(await h().waitForStatus(h().keys.alice, id), 'Complete');
      assert.deepEqual(await get(`/v2/analyses/${id}/status`), {
        analysis_id: id,
        analysis_status: 'Complete',
        progress: 100,
      });
    });

    test('basic', async () => {
      const basic = await get(`/v2/analyses/${id}/basic`);
      assert.match(basic.creation, ISO);
      assert.deepEqual(
        { ...basic, creation: '' },
        {
          binary_id: binaryId,
          binary_name: 'ls',
          binary_size: content.length,
          creation: '',
          sha_256_hash: sha256(content),
          model_name: 'binnet-0.7-x86-64-linux',
          model_id: MODEL_NAMES.indexOf('binnet-0.7-x86-64-linux') + 1,
          owner_username: 'alice',
          is_system: false,
          analysis_scope: 'PRIVATE',
          is_owner: true,
          debug: false,
          function_count: 0,
          is_advanced: false,
          base_address: 0x400000,
          binary_uuid: null,
          sequencer_version: null,
        },
      );
    });

    test('params', async () => {
      assert.deepEqual(await get(`/v2/analyses/${id}/params`), {
        debug_hash: 'dbg-1',
        binary_size: content.length,
        architecture: 'x86_64',
        binary_type: 'executable',
        binary_format: 'elf',
        binary_dynamic: false,
        model_name: 'binnet-0.7-x86-64-linux',
      });
    });

    test('logs tell what was identified, one timestamped line each', async () => {
      const lines = ((await get(`/v2/analyses/${id}/logs`)).logs as string).split('\n');
      for (const line of lines) assert.match(line, /^\d{4}-\d\d-\d\dT\S+Z \S/);
      const text = lines.map((l) => l.slice(l.indexOf(' ') + 1));
      assert.match(text[0] ?? '', /^Analysis started/);
      assert.ok(text.includes('Identified ELF 64-bit little-endian x86_64 executable for linux'), text.join('\n'));
      assert.ok(text.some((l) => l.startsWith(`SHA-256 ${sha256(content)}, ${content.length} bytes`)));
      assert.match(text.at(-1) ?? '', /^Analysis complete/);
    });

    test('stages: queued, then each stage started and finished, in time order, with a rising percentage', async () => {
      const { events } = await get(`/v2/analysis-stages/${id}`);
      assert.deepEqual(
        events.map((e: { stage: string; status: string }) => `${e.stage}:${e.status}`),
        [
          'ANALYSIS:QUEUED',
          'ANALYSIS:STARTED',
          'ANALYSIS:FINISHED',
          'INFERENCE:STARTED',
          'INFERENCE:FINISHED',
          'POST_PROCESSING:STARTED',
          'POST_PROCESSING:FINISHED',
        ],
      );
      const times = events.map((e: { timestamp: string }) => Date.parse(e.timestamp));
      assert.deepEqual(
        [...times].sort((a, b) => a - b),
        times,
      );
      const progress = events.slice(1).map((e: { progress: number }) => e.progress);
      assert.deepEqual(
        progress,
        [...progress].sort((a, b) => a - b),
      );
      assert.equal(progress[0], 0);
      assert.equal(progress.at(-1), 100);
      assert.equal((await get(`/v2/analyses/${id}/status`)).progress, 100);
    });

    test('tags of the create request appear in GET tags and in the list', async () => {
      const tags = await get(`/v2/analyses/${id}/tags`);
      assert.deepEqual(tags, {
        analysis_tags: [
          { name: 'coreutils', origin: 'USER', collection_id: null },
          { name: 'linux', origin: 'USER', collection_id: null },
        ],
      });
      const { results } = await get(`/v2/analyses/list?sha256_hash=${sha256(content)}`);
      assert.equal(results.length, 1);
      assert.deepEqual(results[0].tags, tags.analysis_tags);
      assert.equal(results[0].status, 'Complete');
      assert.equal(results[0].binary_id, binaryId);
      assert.equal(results[0].sha_256_hash, sha256(content));
    });

    test('create with PUBLIC scope', async () => {
      const pub = await h().analysis(h().keys.alice, elf64(11), { analysis_scope: 'PUBLIC' });
      assert.equal((await get(`/v2/analyses/${pub}/basic`)).analysis_scope, 'PUBLIC');
    });

    test('a raw blob gets a model from binary_config; without one → 400', async () => {
      const blob = rawBlob(3000);
      const sha = (await h().upload(h().keys.alice, blob, 'fw.bin')).json().data.sha_256_hash as string;
      const none = await h().request('POST', '/v2/analyses', h().keys.alice, { filename: 'fw.bin', sha_256_hash: sha });
      assert.equal(none.statusCode, 400);
      assert.deepEqual(none.json(), NO_MODEL);
      const cases = [
        [{ isa: 'x86_64', platform: 'linux' }, 'binnet-0.7-x86-64-linux', 'x86_64'],
        [{ isa: 'x86', platform: 'windows' }, 'binnet-0.7-x86-32-windows', 'x86'],
      ] as const;
      for (const [cfg, model, arch] of cases) {
        const r = await h().request('POST', '/v2/analyses', h().keys.alice, {
          filename: 'fw.bin',
          sha_256_hash: sha,
          binary_config: cfg,
        });
        assert.equal(r.statusCode, 201, r.body);
        const aid = r.json().data.analysis_id as number;
        assert.equal(await h().waitForStatus(h().keys.alice, aid), 'Complete');
        const params = await get(`/v2/analyses/${aid}/params`);
        assert.equal(params.model_name, model);
        assert.equal(params.architecture, arch);
        assert.equal(params.binary_format, 'raw');
      }
      const half = await h().request('POST', '/v2/analyses', h().keys.alice, {
        filename: 'fw.bin',
        sha_256_hash: sha,
        binary_config: { isa: 'x86_64' },
      });
      assert.equal(half.statusCode, 400, 'an ISA without a platform is not enough for a model');
    });
  });

  describe(`operations: platform endpoints (${backend.name})`, { skip: backend.skip ?? false }, () => {
    const h = useHarness(backend);

    test('GET /v2/models lists the reference’s nine model names first, then those of the other architectures', async () => {
      const r = await h().request('GET', '/v2/models', h().keys.bob);
      assert.equal(r.statusCode, 200);
      assert.deepEqual(r.json().data, {
        models: [
          'binnet-0.7-x86-64-windows',
          'binnet-0.7-x86-64-linux',
          'binnet-0.7-x86-32-windows',
          'binnet-0.7-x86-32-linux',
          'binnet-0.7-arm-64-windows',
          'binnet-0.7-arm-64-linux',
          'binnet-0.7-x86-64-android',
          'binnet-0.7-x86-32-android',
          'binnet-0.7-arm-64-android',
          'binnet-0.7-arm-32-linux',
          'binnet-0.7-arm-32-android',
          'binnet-0.7-mips-32-linux',
          'binnet-0.7-x86-64-macos',
          'binnet-0.7-arm-64-macos',
        ],
      });
    });

    test('GET /v2/config reports the configured upload limit', async () => {
      const r = await h().request('GET', '/v2/config', h().keys.bob);
      assert.equal(r.statusCode, 200);
      assert.equal(r.json().data.max_file_size_bytes, h().config.maxUploadBytes);
    });

    test('GET /v2/users/me describes the caller', async () => {
      for (const user of ['alice', 'bob'] as const) {
        const r = await h().request('GET', '/v2/users/me', h().keys[user]);
        assert.equal(r.statusCode, 200);
        const me = r.json().data;
        assert.equal(me.username, user);
        assert.equal(me.email, `${user}@binlens.local`);
        assert.equal(me.role, 'USER');
        assert.ok(Number.isInteger(me.user_id));
        assert.match(me.creation, ISO);
      }
      assert.equal((await h().request('GET', '/v2/users/me', h().keys.admin)).json().data.role, 'ADMIN');
    });

    test('GET /openapi.json is an OpenAPI 3.1 document with the routes', async () => {
      const r = await h().request('GET', '/openapi.json', null);
      assert.equal(r.statusCode, 200);
      const doc = r.json();
      assert.match(doc.openapi, /^3\.1\./);
      assert.equal(doc.info.version, '3.67.0');
      const expected: [string, string][] = [
        ['/v2/upload', 'post'],
        ['/v2/analyses', 'post'],
        ['/v2/analyses/list', 'get'],
        ['/v2/analyses/delete', 'patch'],
        ['/v2/analyses/lookup/{binary_id}', 'get'],
        ['/v2/analyses/tags/add', 'patch'],
        ['/v2/analyses/{analysis_id}', 'patch'],
        ['/v2/analyses/{analysis_id}', 'delete'],
        ['/v2/analyses/{analysis_id}/basic', 'get'],
        ['/v2/analyses/{analysis_id}/status', 'get'],
        ['/v2/analyses/{analysis_id}/params', 'get'],
        ['/v2/analyses/{analysis_id}/logs', 'get'],
        ['/v2/analyses/{analysis_id}/logs', 'post'],
        ['/v2/analyses/{analysis_id}/requeue', 'post'],
        ['/v2/analyses/{analysis_id}/strings', 'put'],
        ['/v2/analyses/{analysis_id}/tags', 'get'],
        ['/v2/analyses/{analysis_id}/tags', 'patch'],
        ['/v2/analyses/{analysis_id}/comments', 'get'],
        ['/v2/analyses/{analysis_id}/comments', 'post'],
        ['/v2/analyses/{analysis_id}/comments/{comment_id}', 'patch'],
        ['/v2/analyses/{analysis_id}/comments/{comment_id}', 'delete'],
        ['/v2/models', 'get'],
        ['/v2/config', 'get'],
        ['/v2/users/me', 'get'],
      ];
      for (const [path, method] of expected) {
        assert.ok(doc.paths[path]?.[method], `${method.toUpperCase()} ${path} missing from the document`);
      }
      const list = doc.paths['/v2/analyses/list'].get;
      const limit = list.parameters.find((p: { name: string }) => p.name === 'limit');
      assert.deepEqual([limit.schema.minimum, limit.schema.maximum, limit.schema.default], [5, 50, 20]);
      assert.ok(doc.components.securitySchemes.APIKey);
    });

    test('GET /docs serves the interactive documentation as HTML', async () => {
      let r = await h().request('GET', '/docs', null);
      for (let hops = 0; r.statusCode >= 300 && r.statusCode < 400 && hops < 3; hops++) {
        r = await h().request('GET', new URL(String(r.headers.location), 'http://localhost/docs').pathname, null);
      }
      assert.equal(r.statusCode, 200);
      assert.match(String(r.headers['content-type']), /text\/html/);
      assert.match(r.body, /<html/i);
    });
  });
}
