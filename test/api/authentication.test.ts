// Authentication is decided on the route the router matched, deny by default: every operation of the published
// OpenAPI document, spelled every way the router reads as the same path, answers 401 without a valid key, and
// no request body is read (no upload stored) before the caller is known.
import assert from 'node:assert/strict';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { backends } from '../helpers/backends.js';
import { useHarness } from '../helpers/harness.js';
import { multipartBody } from '../helpers/multipart.js';

/** The 401 envelope: what is wrong with the key, and where to send one. */
const unauthorized = (key: string | null) => {
  const message = `${key ? 'Unknown or revoked API key' : 'Missing API key'}: send your API key in the Authorization header (binlens users create makes one)`;
  return { status: false, data: null, message, errors: [{ code: '401', message }], meta: {} };
};

/** The /v3 routes answer in their own error body; both carry the same code and message. */
const unauthorizedBody = (body: { error?: { code: string; message: string } }, key: string | null) =>
  body.error
    ? {
        ...unauthorized(key),
        errors: [{ code: body.error.code === 'UNAUTHORIZED' ? '401' : body.error.code, message: body.error.message }],
      }
    : body;

const hex = (c: string, upper: boolean) => {
  const h = c.charCodeAt(0).toString(16);
  return `%${upper ? h.toUpperCase() : h}`;
};

/** Spellings of one path that a router may read as the same route, or that differ only by case or slashes. */
function spellings(path: string): string[] {
  const segments = path.split('/');
  const firstEncoded = segments.map((s) => (s === '' ? s : hex(s[0]!, false) + s.slice(1))).join('/');
  const allEncoded = segments.map((s) => [...s].map((c) => hex(c, true)).join('')).join('/');
  return [
    path,
    firstEncoded,
    allEncoded,
    `${path}?x=1`,
    `/${path}`,
    `${path}/`,
    path.toUpperCase(),
    path.replace(/\//g, '%2F'),
  ];
}

/** A concrete path for an operation: integer ids as 1, other parameters as a word. */
const concrete = (template: string) =>
  template.replace(/\{([^}]+)\}/g, (_m, name: string) => (/(^|_)id$|_id$/.test(name) ? '1' : 'x'));

const blobFiles = (dataDir: string): string[] => {
  const root = join(dataDir, 'blobs');
  if (!existsSync(root)) return [];
  return readdirSync(root, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => e.name);
};

const backend = backends[0]!; // authentication does not touch the database's dialect
describe('authentication on every route', () => {
  const h = useHarness(backend);

  test('every published operation, spelled every way, answers 401 without a key or with a garbage key', async () => {
    const doc = (await h().request('GET', '/openapi.json', null)).json() as {
      paths: Record<string, Record<string, unknown>>;
    };
    const operations = Object.entries(doc.paths).flatMap(([path, ops]) =>
      Object.keys(ops).map((method) => ({ method: method.toUpperCase(), path: concrete(path) })),
    );
    assert.ok(operations.length > 70, `${operations.length} operations published`);
    const problems: string[] = [];
    let requests = 0;
    for (const { method, path } of operations) {
      for (const url of spellings(path)) {
        for (const key of [null, 'garbage-key', '']) {
          const r = await h().request(method, url, key, method === 'GET' || method === 'DELETE' ? undefined : {});
          requests++;
          if (r.statusCode !== 401) problems.push(`${method} ${url} key=${key}: ${r.statusCode}`);
          else assert.deepEqual(unauthorizedBody(r.json(), key), unauthorized(key), url);
        }
      }
    }
    assert.deepEqual(problems.slice(0, 20), [], `${problems.length} of ${requests} requests not refused`);
  });

  test('an upload to an encoded spelling of /v2/upload without a key is refused and nothing is stored', async () => {
    const { payload, contentType } = multipartBody([
      { name: 'upload_file_type', value: 'BINARY' },
      { name: 'file', value: Buffer.alloc(4 * 1024 * 1024, 0x41), filename: 'big.bin' },
    ]);
    for (const url of spellings('/v2/upload')) {
      const r = await h().app.inject({ method: 'POST', url, headers: { 'content-type': contentType }, payload });
      assert.equal(r.statusCode, 401, url);
    }
    assert.deepEqual(blobFiles(h().config.dataDir), []);
  });

  test('only the allow-listed public paths answer without a key', async () => {
    for (const url of ['/healthz', '/%68ealthz', '/readyz', '/openapi.json', '/docs', '/docs/json']) {
      const r = await h().request('GET', url, null);
      assert.ok(r.statusCode < 400, `${url}: ${r.statusCode}`);
    }
    // The web interface's page (it holds no data; 503 when it was not built) at its routes only.
    for (const url of ['/', '/analyses/7', '/function/7', '/settings']) {
      const r = await h().request('GET', url, null);
      assert.ok(r.statusCode === 200 || r.statusCode === 503, `${url}: ${r.statusCode}`);
      assert.match(String(r.headers['content-type']), /text\/html/);
    }
    for (const url of ['/nothing', '/%2e%2e/v2/config', '/docsx', '/healthz/x', '/analysesx', '/functions/7']) {
      assert.equal((await h().request('GET', url, null)).statusCode, 401, url);
    }
  });
});
