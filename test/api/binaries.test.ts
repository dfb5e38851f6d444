// GET /v2/binaries/{id}/details and /externals on both databases: every field against the engine's own
// digests of the uploaded bytes, before and after the analysis, and the visibility rules.
import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import { sampleProgram } from '../helpers/engine/sample-program.js';
import { pe } from '../helpers/engine/formats.js';
import { hashBytes, shannonEntropy } from '../../src/engine/hashes.js';
import { backends } from '../helpers/backends.js';
import { useHarness, type Harness } from '../helpers/harness.js';

const ISO = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;
const program = Buffer.from(sampleProgram({ bits: 64, little: true, machine: 62 }));

async function binaryIdOf(h: Harness, key: string, analysisId: number): Promise<number> {
  return (await h.request('GET', `/v2/analyses/${analysisId}/basic`, key)).json().data.binary_id as number;
}

const digests = (bytes: Uint8Array) => {
  const { md5, sha1, sha256, crc32, tlsh, ssdeep } = hashBytes(bytes);
  return { md5, sha1, sha256, crc32, tlsh, ssdeep, entropy: shannonEntropy(bytes), file_size: bytes.length };
};

/** What details say of the sample program; `language` and `debug` depend on whether it was analysed. */
const programFacts = {
  ...digests(program),
  arch: 'x86_64',
  bits: 64,
  Class: 'ELF64',
  machine: 'AMD x86-64 architecture',
  os: 'linux',
  static: false,
  stripped: false,
  sub_sys: 'linux',
  type: 'EXEC (Executable file)',
  first_seen: '',
};

for (const backend of backends) {
  describe(`binaries API (${backend.name})`, { skip: backend.skip ?? false }, () => {
    const h = useHarness(backend);
    let binaryId: number;

    before(async () => {
      if (backend.skip) return;
      const id = await h().analysis(h().keys.alice, program);
      assert.equal(await h().waitForStatus(h().keys.alice, id), 'Complete');
      binaryId = await binaryIdOf(h(), h().keys.alice, id);
    });

    test('details of an analysed ELF: format facts from the analysis, digests of the bytes', async () => {
      const r = await h().request('GET', `/v2/binaries/${binaryId}/details`, h().keys.alice);
      assert.equal(r.statusCode, 200, r.body);
      const d = r.json().data;
      assert.match(d.first_seen, ISO);
      assert.deepEqual({ ...d, first_seen: '' }, { ...programFacts, language: 'c', debug: d.debug });
      const basic = (await h().request('GET', `/v2/analyses/lookup/${binaryId}`, h().keys.alice)).json().data;
      const info = (await h().request('GET', `/v2/analyses/${basic.analysis_id}/basic`, h().keys.alice)).json().data;
      assert.equal(d.debug, info.debug, 'details and basic agree on debug');
    });

    test('details of a PE name its class and subsystem; server-config query parameters are ignored', async () => {
      const exe = Buffer.from(
        pe({ bits: 32, machine: 0x14c, imageBase: 0x400000, entryRva: 0x1000, importSize: 0x28, subsystem: 2 }),
      );
      const id = await h().analysis(h().keys.alice, exe);
      await h().waitForStatus(h().keys.alice, id);
      const bid = await binaryIdOf(h(), h().keys.alice, id);
      const r = await h().request(
        'GET',
        `/v2/binaries/${bid}/details?endpoint_url=http://127.0.0.1:1/&local_cache_dir=/etc`,
        h().keys.alice,
      );
      assert.equal(r.statusCode, 200, r.body);
      const d = r.json().data;
      assert.deepEqual([d.Class, d.arch, d.bits, d.sub_sys, d.os], ['PE32', 'x86', 32, 'Windows GUI', 'windows']);
      assert.equal(d.sha256, digests(exe).sha256);
    });

    test('externals: no outside lookups, so empty sources stamped with the first sighting', async () => {
      const details = (await h().request('GET', `/v2/binaries/${binaryId}/details`, h().keys.alice)).json().data;
      const r = await h().request('GET', `/v2/binaries/${binaryId}/externals`, h().keys.alice);
      assert.equal(r.statusCode, 200, r.body);
      assert.deepEqual(r.json().data, {
        sha_256_hash: digests(program).sha256,
        vt: {},
        vt_last_updated: details.first_seen,
        mb: {},
        mb_last_updated: details.first_seen,
      });
    });

    test('outside the team no one sees them (404), missing ids are 404, bad ids 422', async () => {
      for (const route of ['details', 'externals']) {
        const url = (id: number | string) => `/v2/binaries/${id}/${route}`;
        assert.equal((await h().request('GET', url(binaryId), h().keys.bob)).statusCode, 404);
        assert.equal((await h().request('GET', url(binaryId), h().keys.carol)).statusCode, 200, "alice's team");
        assert.equal((await h().request('GET', url(987654), h().keys.alice)).statusCode, 404);
        assert.equal((await h().request('GET', url('x'), h().keys.alice)).statusCode, 422);
      }
    });
  });

  describe(`binaries API before analysis (${backend.name})`, { skip: backend.skip ?? false }, () => {
    const h = useHarness(backend, { workers: 0 });

    test('details of a queued binary: digests computed from the stored file, facts from its upload', async () => {
      const id = await h().analysis(h().keys.alice, program);
      assert.equal(
        (await h().request('GET', `/v2/analyses/${id}/status`, h().keys.alice)).json().data.analysis_status,
        'Queued',
      );
      const bid = await binaryIdOf(h(), h().keys.alice, id);
      const d = (await h().request('GET', `/v2/binaries/${bid}/details`, h().keys.alice)).json().data;
      assert.deepEqual({ ...d, first_seen: '', debug: false }, { ...programFacts, language: 'unknown', debug: false });
    });
  });
}
