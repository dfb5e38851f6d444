// Every validation bound of the spec answers exactly the spec's 422 envelope; the values just inside the
// bounds are accepted. (Tuning parameters that are accepted: validation-tuning.test.ts.)
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { before, describe, test } from 'node:test';
import { backends } from '../helpers/backends.js';
import { assertValidation } from '../helpers/envelopes.js';
import { useHarness, type Harness } from '../helpers/harness.js';
import { multipartBody, type FormPart } from '../helpers/multipart.js';
import { elf64 } from '../helpers/samples.js';

const sha256 = (b: Buffer) => createHash('sha256').update(b).digest('hex');
const blobPath = (h: Harness, sha: string) => join(h.config.dataDir, 'blobs', sha.slice(0, 2), sha.slice(2, 4), sha);

/** Query strings of GET /v2/analyses/list that break a bound of the spec. */
const BAD_LIST_QUERIES: [string, string][] = [
  ['limit below 5', 'limit=4'],
  ['limit above 50', 'limit=51'],
  ['limit not an integer', 'limit=10.5'],
  ['limit not a number', 'limit=ten'],
  ['offset not an integer', 'offset=1.5'],
  ['offset not a number', 'offset=abc'],
  ['offset negative', 'offset=-1'],
  ['offset beyond the integer range', 'offset=99999999999999999999'],
  ['workspace unknown', 'workspace=everyone'],
  ['workspace: one unknown among known', 'workspace=personal&workspace=everyone'],
  ['status unknown', 'status=Done'],
  ['status in the wrong case', 'status=complete'],
  ['model_name unknown', 'model_name=binnet-0.7-mips-64-linux'],
  ['order_by unknown', 'order_by=sha256'],
  ['order unknown', 'order=UP'],
  ['order in the wrong case', 'order=asc'],
  ['dynamic_execution_status unknown', 'dynamic_execution_status=RUNNING'],
];

/** Query strings just inside the bounds, or using each enumeration's values. */
const GOOD_LIST_QUERIES = [
  'limit=5',
  'limit=50',
  'offset=0',
  'offset=7',
  'workspace=personal&workspace=team&workspace=public',
  'status=Uploaded&status=Queued&status=Processing&status=Complete&status=Error&status=All',
  'model_name=binnet-0.7-x86-64-linux&model_name=binnet-0.7-arm-64-android',
  'order_by=created&order=ASC',
  'order_by=name&order=DESC',
  'order_by=size',
  'dynamic_execution_status=PENDING',
  'dynamic_execution_status=ALL',
  'search_term=&usernames=alice&sha256_hash=00',
];

for (const backend of backends) {
  describe(`request validation (${backend.name})`, { skip: backend.skip ?? false }, () => {
    const h = useHarness(backend);
    let id: number; // alice's analysis
    let other: number; // another analysis of alice's, without comments

    before(async () => {
      id = await h().analysis(h().keys.alice, elf64(1), { tags: [{ name: 'kept' }] });
      other = await h().analysis(h().keys.alice, elf64(2));
      // Settled, so the tests that compare its logs before and after see only what the requests changed.
      await h().waitForStatus(h().keys.alice, id);
      const c = await h().request('POST', `/v2/analyses/${id}/comments`, h().keys.alice, { content: 'first' });
      // The first comment of a fresh database: the comment_id bound tests below rely on its id being 1.
      assert.equal(c.json().data.id, 1);
    });

    const expect422 = async (method: string, url: string, body?: unknown, field?: string) => {
      const r = await h().request(method, url, h().keys.alice, body);
      const what = `${method} ${url} ${JSON.stringify(body)} → ${r.body}`;
      assert.equal(r.statusCode, 422, what);
      assertValidation(r.json(), what, field);
    };

    for (const [name, qs] of BAD_LIST_QUERIES) {
      // The parameter the case gets wrong is its last.
      const param = qs.split('&').at(-1)!.split('=')[0]!;
      test(`list: ${name} → 422`, () => expect422('GET', `/v2/analyses/list?${qs}`, undefined, `querystring.${param}`));
    }

    test('list: values inside the bounds are accepted', async () => {
      for (const qs of GOOD_LIST_QUERIES) {
        const r = await h().request('GET', `/v2/analyses/list?${qs}`, h().keys.alice);
        assert.equal(r.statusCode, 200, `${qs} → ${r.body}`);
        assert.equal(r.json().status, true);
      }
    });

    test('path ids that are not integers → 422 on every route', async () => {
      const routes: [string, (x: string) => string, unknown?][] = [
        ['GET', (x) => `/v2/analyses/${x}/basic`],
        ['GET', (x) => `/v2/analyses/${x}/status`],
        ['GET', (x) => `/v2/analyses/${x}/params`],
        ['GET', (x) => `/v2/analyses/${x}/logs`],
        ['GET', (x) => `/v2/analyses/${x}/tags`],
        ['GET', (x) => `/v2/analyses/${x}/comments`],
        ['GET', (x) => `/v2/analysis-stages/${x}`],
        ['GET', (x) => `/v2/analyses/lookup/${x}`],
        ['PATCH', (x) => `/v2/analyses/${x}`, { binary_name: 'n' }],
        ['DELETE', (x) => `/v2/analyses/${x}`],
        ['PATCH', (x) => `/v2/analyses/${x}/tags`, { tags: ['t'] }],
        ['POST', (x) => `/v2/analyses/${x}/logs`, { log: 'line' }],
        ['POST', (x) => `/v2/analyses/${x}/requeue`, {}],
        ['PUT', (x) => `/v2/analyses/${x}/strings`, { strings: [] }],
        ['POST', (x) => `/v2/analyses/${x}/comments`, { content: 'c' }],
        ['PATCH', (x) => `/v2/analyses/${x}/comments/1`, { content: 'c' }],
        ['DELETE', (x) => `/v2/analyses/${x}/comments/1`],
      ];
      for (const [method, url, body] of routes) {
        for (const bad of ['abc', '1.5', '99999999999999999999']) await expect422(method, url(bad), body);
      }
    });

    test('comment_id below 1 or not an integer → 422 on PATCH and DELETE; 1 is accepted', async () => {
      for (const cid of ['0', '-1', 'abc', '1.5']) {
        await expect422('PATCH', `/v2/analyses/${id}/comments/${cid}`, { content: 'x' });
        await expect422('DELETE', `/v2/analyses/${id}/comments/${cid}`);
      }
      const patch = await h().request('PATCH', `/v2/analyses/${id}/comments/1`, h().keys.alice, { content: 'edited' });
      assert.equal(patch.statusCode, 200);
      assert.equal(patch.json().data.content, 'edited');
      // comment 1 is not on `other`: the id passes validation and the operation fails as the spec says (400).
      const del = await h().request('DELETE', `/v2/analyses/${other}/comments/1`, h().keys.alice);
      assert.equal(del.statusCode, 400);
    });

    test('bodies with missing fields, wrong types or values outside their enumerations → 422', async () => {
      const sha = sha256(elf64(1));
      const cases: [string, string, unknown][] = [
        ['POST', '/v2/analyses', { sha_256_hash: sha }],
        ['POST', '/v2/analyses', { filename: 'a.out' }],
        ['POST', '/v2/analyses', { filename: 123, sha_256_hash: sha }],
        ['POST', '/v2/analyses', { filename: null, sha_256_hash: sha }],
        ['POST', '/v2/analyses', { filename: ['a.out'], sha_256_hash: sha }],
        ['POST', '/v2/analyses', { filename: 'a.out', sha_256_hash: 42 }],
        ['POST', '/v2/analyses', { filename: 'a.out', sha_256_hash: sha, analysis_scope: 'SECRET' }],
        ['POST', '/v2/analyses', { filename: 'a.out', sha_256_hash: sha, analysis_scope: 'private' }],
        ['POST', '/v2/analyses', { filename: 'a.out', sha_256_hash: sha, tags: 'malware' }],
        ['POST', '/v2/analyses', { filename: 'a.out', sha_256_hash: sha, tags: ['malware'] }],
        ['POST', '/v2/analyses', { filename: 'a.out', sha_256_hash: sha, tags: [{ name: 7 }] }],
        ['POST', '/v2/analyses', { filename: 'a.out', sha_256_hash: sha, binary_config: { isa: 'mips' } }],
        ['POST', '/v2/analyses', { filename: 'a.out', sha_256_hash: sha, binary_config: { platform: 'macos' } }],
        ['POST', '/v2/analyses', []],
        ['PATCH', '/v2/analyses/delete', {}],
        ['PATCH', '/v2/analyses/delete', { analysis_ids: 'all' }],
        ['PATCH', '/v2/analyses/delete', { analysis_ids: id }],
        ['PATCH', '/v2/analyses/delete', { analysis_ids: [1.5] }],
        ['PATCH', '/v2/analyses/delete', { analysis_ids: [1e20] }],
        ['PATCH', '/v2/analyses/tags/add', { tags: ['t'] }],
        ['PATCH', '/v2/analyses/tags/add', { analysis_ids: [id], tags: [1] }],
        ['PATCH', `/v2/analyses/${id}/tags`, {}],
        ['PATCH', `/v2/analyses/${id}/tags`, { tags: [1, 2] }],
        ['PATCH', `/v2/analyses/${id}/tags`, { tags: [null] }],
        ['PATCH', `/v2/analyses/${id}/tags`, { tags: 'solo' }],
        ['PATCH', `/v2/analyses/${id}`, { analysis_scope: 'SECRET' }],
        ['PATCH', `/v2/analyses/${id}`, { binary_name: 5 }],
        ['POST', `/v2/analyses/${id}/logs`, { log: '' }],
        ['POST', `/v2/analyses/${id}/logs`, {}],
        ['POST', `/v2/analyses/${id}/logs`, { log: 5 }],
        ['PUT', `/v2/analyses/${id}/strings`, { strings: [{ value: 'x', vaddr: 16, source: 'ROBOT' }] }],
        ['PUT', `/v2/analyses/${id}/strings`, { strings: [{ value: 'x', vaddr: 16 }] }],
        ['PUT', `/v2/analyses/${id}/strings`, { strings: [{ value: 'x', vaddr: 1.5, source: 'USER' }] }],
        ['PUT', `/v2/analyses/${id}/strings`, { strings: [{ value: 9, vaddr: 16, source: 'USER' }] }],
        ['PUT', `/v2/analyses/${id}/strings`, { strings: { value: 'x', vaddr: 16, source: 'USER' } }],
        ['PUT', `/v2/analyses/${id}/strings`, {}],
        ['POST', `/v2/analyses/${id}/requeue`, { priority: 'high' }],
        ['POST', `/v2/analyses/${id}/requeue`, { tags: [3] }],
        ['POST', `/v2/analyses/${id}/comments`, {}],
        ['POST', `/v2/analyses/${id}/comments`, { content: 5 }],
        ['PATCH', `/v2/analyses/${id}/comments/1`, {}],
      ];
      const logsOf = async () =>
        (await h().request('GET', `/v2/analyses/${id}/logs`, h().keys.alice)).json().data.logs as string;
      const logsBefore = await logsOf();
      for (const [method, url, body] of cases) await expect422(method, url, body);
      // None of those changed anything.
      const tags = await h().request('GET', `/v2/analyses/${id}/tags`, h().keys.alice);
      assert.deepEqual(
        tags.json().data.analysis_tags.map((t: { name: string }) => t.name),
        ['kept'],
      );
      assert.equal(await logsOf(), logsBefore);
      const strings = await h().request('PUT', `/v2/analyses/${id}/strings`, h().keys.alice, {
        strings: [{ value: 'x', vaddr: 16, source: 'USER' }],
      });
      assert.equal(strings.statusCode, 201, 'no string was stored at vaddr 16 by the rejected requests');
    });

    test('malformed JSON bodies → 422', async () => {
      for (const [method, url] of [
        ['POST', '/v2/analyses'],
        ['PATCH', `/v2/analyses/${id}/tags`],
        ['POST', `/v2/analyses/${id}/comments`],
      ] as const) {
        for (const payload of ['{"filename":', 'not json', '']) {
          const r = await h().app.inject({
            method,
            url,
            headers: { authorization: h().keys.alice, 'content-type': 'application/json' },
            payload,
          });
          assert.equal(r.statusCode, 422, `${method} ${url} ${JSON.stringify(payload)} → ${r.body}`);
          assertValidation(r.json());
        }
      }
    });

    test('tuning parameters of the wrong type → 422', async () => {
      const bad = ['max_retry_attempts=abc', 'max_retry_attempts=1.5', 'local_cache_max_size_mb=big'];
      for (const qs of bad) {
        await expect422('POST', `/v2/analyses?${qs}`, { filename: 'a', sha_256_hash: sha256(elf64(1)) });
        await expect422('DELETE', `/v2/analyses/${other}?${qs}`);
        await expect422('GET', `/v2/analyses/${id}/logs?${qs}`);
        await expect422('GET', `/v2/analyses/${id}/params?${qs}`);
        await expect422('GET', `/v2/analyses/${id}/comments?${qs}`);
        await expect422('POST', `/v2/analyses/${id}/requeue?${qs}`, {});
      }
      assert.equal((await h().request('GET', `/v2/analyses/${other}/status`, h().keys.alice)).statusCode, 200);
    });

    test('values no backend can store alike → 422 on both: U+0000 in text, integers past 2^53', async () => {
      const nul = 'a\u0000b';
      for (const qs of ['search_term=%00', 'usernames=x%00', `sha256_hash=${'0'.repeat(63)}%00`]) {
        await expect422('GET', `/v2/analyses/list?${qs}`);
      }
      const sha = sha256(elf64(1));
      const cases: [string, string, unknown][] = [
        ['POST', '/v2/analyses', { filename: nul, sha_256_hash: sha }],
        ['PATCH', `/v2/analyses/${id}`, { binary_name: nul }],
        ['PATCH', `/v2/analyses/${id}/tags`, { tags: [nul] }],
        ['PATCH', '/v2/analyses/tags/add', { analysis_ids: [id], tags: [nul] }],
        ['POST', `/v2/analyses/${id}/logs`, { log: nul }],
        ['POST', `/v2/analyses/${id}/comments`, { content: nul }],
        ['PATCH', `/v2/analyses/${id}/comments/1`, { content: nul }],
        ['PUT', `/v2/analyses/${id}/strings`, { strings: [{ value: nul, vaddr: 32, source: 'USER' }] }],
        ['PUT', `/v2/analyses/${id}/strings`, { strings: [{ value: 'x', vaddr: 2 ** 64, source: 'USER' }] }],
        ['PATCH', '/v2/analyses/delete', { analysis_ids: [2 ** 63] }],
      ];
      for (const [method, url, body] of cases) await expect422(method, url, body);
      const mp = multipartBody([
        { name: 'upload_file_type', value: 'BINARY' },
        { name: 'file', value: elf64(901), filename: nul },
      ]);
      const up = await h().app.inject({
        method: 'POST',
        url: '/v2/upload',
        headers: { authorization: h().keys.alice, 'content-type': mp.contentType },
        payload: mp.payload,
      });
      assert.equal(up.statusCode, 422, up.body);
      assertValidation(up.json());
      assert.equal(existsSync(blobPath(h(), sha256(elf64(901)))), false);
      // The largest safe integer is a valid vaddr.
      const big = await h().request('PUT', `/v2/analyses/${id}/strings`, h().keys.alice, {
        strings: [{ value: 'top', vaddr: Number.MAX_SAFE_INTEGER, source: 'USER' }],
      });
      assert.equal(big.statusCode, 201, big.body);
    });

    const uploadForm = (parts: FormPart[]) => {
      const mp = multipartBody(parts);
      return h().app.inject({
        method: 'POST',
        url: '/v2/upload',
        headers: { authorization: h().keys.alice, 'content-type': mp.contentType },
        payload: mp.payload,
      });
    };

    test('upload without a file, without upload_file_type or with an unknown one → 422, nothing stored', async () => {
      const content = elf64(900);
      const file = (name = 'file'): FormPart => ({ name, value: content, filename: 'x.bin' });
      // Each case with the field its 422 names and a word of the reason.
      const cases: [string, FormPart[], string, RegExp][] = [
        ['no file', [{ name: 'upload_file_type', value: 'BINARY' }], 'body.file', /is required/],
        ['no upload_file_type', [file()], 'body.upload_file_type', /is required: one of BINARY/],
        [
          'unknown upload_file_type',
          [{ name: 'upload_file_type', value: 'EXECUTABLE' }, file()],
          'body.upload_file_type',
          /must be one of BINARY/,
        ],
        [
          'upload_file_type in the wrong case',
          [{ name: 'upload_file_type', value: 'binary' }, file()],
          'body.upload_file_type',
          /must be one of/,
        ],
        [
          'a misspelt field',
          [{ name: 'upload_filetype', value: 'BINARY' }, file()],
          'body.upload_filetype',
          /check its spelling/,
        ],
        [
          'file under another field name',
          [{ name: 'upload_file_type', value: 'BINARY' }, file('binary')],
          'body.binary',
          /send the file as `file`/,
        ],
        ['two files', [{ name: 'upload_file_type', value: 'BINARY' }, file(), file()], 'body.file', /one file/],
      ];
      for (const [name, parts, field, reason] of cases) {
        const r = await uploadForm(parts);
        assert.equal(r.statusCode, 422, `${name} → ${r.body}`);
        assert.match(assertValidation(r.json(), name, field).detail, reason, name);
        assert.equal(existsSync(blobPath(h(), sha256(content))), false, `${name}: blob left behind`);
      }
      const json = await h().request('POST', '/v2/upload', h().keys.alice, { upload_file_type: 'BINARY' });
      assert.equal(json.statusCode, 422);
      assert.match(assertValidation(json.json(), 'a raw JSON body', 'body').detail, /multipart\/form-data/);
      // The same form, complete, is accepted.
      const ok = await uploadForm([{ name: 'upload_file_type', value: 'BINARY' }, file()]);
      assert.equal(ok.statusCode, 200, ok.body);
      assert.equal(ok.json().data.sha_256_hash, sha256(content));
    });

    test('a 422 names what failed in meta: unknown and missing keys, broken JSON, a bad id', async () => {
      const sha = sha256(elf64(1));
      const cases: [string, string, unknown, string, RegExp][] = [
        [
          'an unknown key',
          '/v2/analyses',
          { filename: 'a', sha_256_hash: sha, generate_capability: true },
          'body.generate_capability',
          /not a field of this request/,
        ],
        [
          'an unknown nested key',
          '/v2/analyses',
          { filename: 'a', sha_256_hash: sha, analysis_config: { generate_capability: true } },
          'body.analysis_config.generate_capability',
          /not a field/,
        ],
        ['a missing filename', '/v2/analyses', { sha_256_hash: sha }, 'body.filename', /is required/],
        ['a wrong type', `/v2/analyses/${id}/tags`, { tags: 'x' }, 'body.tags', /must be array/],
        ['a non-integer id', '/v2/analyses/abc/logs', { log: 'x' }, 'params.analysis_id', /must be decimal digits/],
      ];
      for (const [name, url, body, field, reason] of cases) {
        const method = url.endsWith('/tags') ? 'PATCH' : 'POST';
        const r = await h().request(method, url, h().keys.alice, body);
        assert.equal(r.statusCode, 422, `${name} → ${r.body}`);
        assert.match(assertValidation(r.json(), name, field).detail, reason, name);
      }
      const broken = await h().app.inject({
        method: 'POST',
        url: '/v2/analyses',
        headers: { authorization: h().keys.alice, 'content-type': 'application/json' },
        payload: '{"filename": "a",',
      });
      assert.equal(broken.statusCode, 422);
      assert.match(assertValidation(broken.json(), 'broken JSON', 'body').detail, /JSON/);
    });
  });
}
