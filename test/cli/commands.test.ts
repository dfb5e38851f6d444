// The `binlens` command line as a real process: help and version everywhere, named refusals of unknown
// commands and options, flags that override settings, and the user commands against a real database.
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { COMMANDS } from '../../src/cli/commands.js';
import { createStore, openDatabase } from '../../src/store/index.js';
import { hashApiKey } from '../../src/services/users.js';
import { elf64 } from '../helpers/samples.js';

const CLI = path.resolve('bin', 'binlens.js');
const VERSION = /^binlens \d+\.\d+\.\d+\n$/;

describe('binlens command line', () => {
  let dataDir: string;
  const binlens = (...args: string[]) =>
    spawnSync(process.execPath, [CLI, ...args], {
      env: { ...process.env, BINLENS_DATA_DIR: dataDir, NO_COLOR: '1' },
      encoding: 'utf8',
    });
  before(() => {
    dataDir = mkdtempSync(path.join(tmpdir(), 'binlens-cli-'));
  });
  after(() => rmSync(dataDir, { recursive: true, force: true }));

  test('--help and -h: every command listed, exit 0', () => {
    for (const flag of ['--help', '-h']) {
      const r = binlens(flag);
      assert.equal(r.status, 0, r.stderr);
      for (const c of COMMANDS) assert.ok(r.stdout.includes(`  ${c.words.join(' ')}`), c.words.join(' '));
    }
    assert.equal(binlens().status, 0, 'no arguments prints the help');
  });

  test('--version and -v: the package version, exit 0', () => {
    for (const flag of ['--version', '-v']) {
      const r = binlens(flag);
      assert.equal(r.status, 0);
      assert.match(r.stdout, VERSION);
    }
  });

  for (const c of COMMANDS) {
    const words = c.words;
    test(`${words.join(' ')} --help: usage and every option, exit 0`, () => {
      const r = binlens(...words, '--help');
      assert.equal(r.status, 0, r.stderr);
      assert.match(r.stdout, new RegExp(`^usage: binlens ${words.join(' ')}`));
      for (const o of Object.keys(c.options)) assert.ok(r.stdout.includes(`--${o}`), `--${o}`);
      for (const spec of Object.values(c.options)) if (spec.env) assert.ok(r.stdout.includes(spec.env), spec.env);
    });
    test(`${words.join(' ')} --bogus: named, exit 2, no stack trace`, () => {
      const r = binlens(...words, '--bogus');
      assert.equal(r.status, 2);
      assert.match(r.stderr, new RegExp(`^binlens: unknown option --bogus \\(binlens ${words.join(' ')} --help`));
      assert.doesNotMatch(r.stderr, /\n\s+at /);
    });
  }

  test('unknown commands and verbs are named, exit 2', () => {
    const cases: [string[], RegExp][] = [
      [['frob'], /^binlens: unknown command 'frob' \(binlens --help lists the commands\)\n$/],
      [['users'], /^binlens: users needs one of: create, list, rotate-key, revoke\n$/],
      [['users', 'delete', 'x'], /^binlens: unknown command 'users delete': users takes create, list/],
      [['users', 'create'], /^binlens: users create takes <username>/],
      [['serve', 'extra'], /^binlens: serve takes no arguments/],
      [['serve', '--port'], /^binlens: option --port needs a value/],
    ];
    for (const [args, message] of cases) {
      const r = binlens(...args);
      assert.equal(r.status, 2, args.join(' '));
      assert.match(r.stderr, message, args.join(' '));
    }
  });

  test('users create, list, rotate-key and revoke: the key works, changes and stops working', async () => {
    const created = binlens('users', 'create', 'carol', '--team', 'blue');
    assert.equal(created.status, 0, created.stderr);
    const first = created.stdout.trim().split('\n').at(-1)!;
    const list = binlens('users', 'list');
    assert.equal(list.status, 0, list.stderr);
    assert.match(list.stdout, /^ID\s+USERNAME\s+ROLE\s+TEAM\s+CREATED\s+KEY\n/);
    assert.match(list.stdout, /\n\d+\s+carol\s+USER\s+blue\s+\d{4}-\d\d-\d\d\s+active\n/);
    const rotated = binlens('users', 'rotate-key', 'carol');
    assert.equal(rotated.status, 0, rotated.stderr);
    const second = rotated.stdout.trim().split('\n').at(-1)!;
    assert.notEqual(second, first);
    const owner = async (key: string) => {
      const driver = openDatabase(path.join(dataDir, 'binlens.sqlite'));
      try {
        return (await createStore(driver).users.byKeyHash(hashApiKey(key)))?.username ?? null;
      } finally {
        await driver.close();
      }
    };
    assert.equal(await owner(first), null, 'the old key stopped working');
    assert.equal(await owner(second), 'carol');
    assert.equal(binlens('users', 'revoke', 'carol').status, 0);
    assert.equal(await owner(second), null, 'revoked');
    assert.match(binlens('users', 'list').stdout, /\n\d+\s+carol\s+USER\s+blue\s+\S+\s+revoked\n/);
    const missing = binlens('users', 'revoke', 'nobody');
    assert.equal(missing.status, 1);
    assert.match(missing.stderr, /^binlens: no user "nobody" \(binlens users list shows them\)\n$/);
  });

  /** Starts `binlens serve` with these arguments and settings; resolves once it listens. */
  async function serve(args: string[], env: Record<string, string>) {
    const child = spawn(process.execPath, [CLI, 'serve', ...args], { env: { ...process.env, ...env } });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (out += d.toString()));
    const deadline = Date.now() + 30_000;
    while (!/listening on http:\/\/127\.0\.0\.1:\d+/.test(out)) {
      assert.ok(child.exitCode === null && Date.now() < deadline, `serve did not start: ${out}`);
      await new Promise((r) => setTimeout(r, 50));
    }
    return {
      url: `http://127.0.0.1:${/listening on http:\/\/127\.0\.0\.1:(\d+)/.exec(out)![1]}`,
      output: () => out,
      async stop() {
        child.kill('SIGTERM');
        await new Promise((r) => child.once('exit', r));
      },
    };
  }

  test('serve --port, --host and --data-dir override the environment', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'binlens-serve-'));
    const s = await serve(['--port', '0', '--host', '127.0.0.1', '--data-dir', dir], {
      BINLENS_PORT: '1',
      BINLENS_HOST: '203.0.113.1',
      BINLENS_DATA_DIR: dataDir,
    });
    try {
      assert.ok(!s.url.endsWith(':1'), 'a free port, not BINLENS_PORT');
      assert.equal((await fetch(`${s.url}/readyz`)).status, 200);
    } finally {
      await s.stop();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  for (const format of ['pretty', 'json'] as const) {
    test(`serve logs one line per request and per job start and end (${format})`, async () => {
      const dir = mkdtempSync(path.join(tmpdir(), 'binlens-serve-'));
      const key = 'cli-test-key';
      const s = await serve(['--port', '0', '--data-dir', dir], {
        BINLENS_ADMIN_API_KEY: key,
        BINLENS_LOG_FORMAT: format,
        BINLENS_HOST: '127.0.0.1',
      });
      try {
        const form = new FormData();
        form.append('upload_file_type', 'BINARY');
        form.append('file', new Blob([elf64(3)]), 'a.elf');
        const up = await fetch(`${s.url}/v2/upload`, { method: 'POST', headers: { authorization: key }, body: form });
        const sha = ((await up.json()) as { data: { sha_256_hash: string } }).data.sha_256_hash;
        const created = await fetch(`${s.url}/v2/analyses`, {
          method: 'POST',
          headers: { authorization: key, 'content-type': 'application/json' },
          body: JSON.stringify({ filename: 'a.elf', sha_256_hash: sha }),
        });
        assert.equal(created.status, 201);
        const deadline = Date.now() + 20_000;
        while (!/analysis 1 done in \d+\.\d s/.test(s.output())) {
          assert.ok(Date.now() < deadline, s.output());
          await new Promise((r) => setTimeout(r, 50));
        }
        const lines = s.output().split('\n');
        const messages =
          format === 'json'
            ? lines.filter((l) => l.startsWith('{')).map((l) => (JSON.parse(l) as { msg: string }).msg)
            : lines.filter((l) => /^\[\d\d:\d\d:\d\d\] INFO: /.test(l)).map((l) => l.replace(/^\S+ INFO: /, ''));
        for (const want of [
          /^POST \/v2\/upload 200 \d+ ms$/,
          /^POST \/v2\/analyses 201 \d+ ms$/,
          /^analysis 1 started \(attempt 1 of \d+\)$/,
          /^analysis 1 done in /,
        ])
          assert.ok(
            messages.some((m) => want.test(m)),
            `${want} among ${messages.join(' | ')}`,
          );
      } finally {
        await s.stop();
        rmSync(dir, { recursive: true, force: true });
      }
    });
  }
});
