// `binlens vulns import` as a real process against a real database, then the records read back.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { createStore, openDatabase } from '../../src/store/index.js';

const FIXTURES = path.resolve('test', 'fixtures');
const CLI = path.resolve('dist', 'src', 'cli', 'main.js');

describe('binlens vulns import', () => {
  let dataDir: string;
  const run = (...args: string[]) =>
    spawnSync(process.execPath, [CLI, 'vulns', ...args], {
      env: { ...process.env, BINLENS_DATA_DIR: dataDir },
      encoding: 'utf8',
    });
  const stored = async (names: string[]) => {
    const driver = openDatabase(path.join(dataDir, 'binlens.sqlite'));
    try {
      const store = createStore(driver);
      return (await store.vulnerabilities.forPackages(names)).map((d) => (JSON.parse(d) as { id: string }).id);
    } finally {
      await driver.close();
    }
  };

  before(() => {
    dataDir = mkdtempSync(path.join(tmpdir(), 'binlens-vulns-'));
  });
  after(() => rmSync(dataDir, { recursive: true, force: true }));

  test('imports every record of the fixture feed (files and arrays, in subdirectories)', async () => {
    const r = run('import', path.join(FIXTURES, 'osv'));
    assert.equal(r.status, 0, r.stderr);
    assert.match(r.stdout, /Imported 6 OSV records from 4 files \(0 refused\); 6 in the database/);
    assert.deepEqual(await stored(['zlib']), ['BINLENS-TEST-2022-37434', 'BINLENS-TEST-2023-45853']);
    assert.deepEqual(await stored(['lz4', 'sqlite']), ['BINLENS-TEST-2021-20227', 'BINLENS-TEST-2021-3520']);
  });

  test('importing again replaces records instead of adding copies', async () => {
    const r = run('import', path.join(FIXTURES, 'osv'));
    assert.equal(r.status, 0, r.stderr);
    assert.match(r.stdout, /; 6 in the database/);
  });

  test('broken files are reported by name and reason; the good ones still load', async () => {
    const r = run('import', path.join(FIXTURES, 'osv-broken'));
    assert.equal(r.status, 0, r.stderr);
    assert.match(r.stderr, /refused no-id\.json: no `id`/);
    assert.match(r.stderr, /refused truncated\.json: not JSON/);
    assert.match(r.stdout, /Imported 1 OSV records from 3 files \(2 refused\)/);
  });

  test('usage errors exit 2; a missing directory is one', () => {
    assert.equal(run('import').status, 2);
    assert.equal(run('export', FIXTURES).status, 2);
    const missing = run('import', path.join(FIXTURES, 'nowhere'));
    assert.equal(missing.status, 2);
    assert.match(missing.stderr, /is not a directory/);
  });
});
