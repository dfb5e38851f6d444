// `binlens decompile` as a user runs it: a real process on a real file; its C compiled with gcc and run
// (skipped with a message without gcc), its exit codes and errors.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { Decompilation } from '../../src/engine/index.js';
import { hasCommand } from '../helpers/commands.js';
import { TYPED, typedProgram } from '../helpers/samples.js';

function binlens(...args: string[]) {
  const r = spawnSync(process.execPath, ['bin/binlens.js', ...args], { encoding: 'utf8', maxBuffer: 1 << 26 });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}
const hasGcc = hasCommand('gcc');

describe('binlens decompile', () => {
  let dir: string;
  let program: string;
  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'binlens-decompile-'));
    program = join(dir, 'program');
    writeFileSync(program, typedProgram());
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  test('prints C for a function and what it calls, which compiles and computes what the code does', (t) => {
    // g: `return f(5, &local) * 2;` with f: `*p = a; return a + 1;` — 12.
    const r = binlens('decompile', program, `0x${TYPED.g.toString(16)}`);
    assert.equal(r.status, 0, r.stderr);
    assert.match(r.stdout, /int32_t sub_11006\(void\)/);
    // f's pointer parameter is written four bytes at a time: its data types say `int32_t *`.
    assert.match(r.stdout, /int32_t sub_11000\(int32_t a1, int32_t \*a2\)/);
    if (!hasGcc) return t.skip('gcc absent: the output is not compiled');
    const main = 'int main(void) { return sub_11006() == 12 ? 0 : 1; }\n';
    writeFileSync(join(dir, 'out.c'), r.stdout + main);
    const cc = spawnSync('gcc', ['out.c', '-o', 'out'], { cwd: dir, encoding: 'utf8' });
    assert.equal(cc.status, 0, cc.stderr);
    assert.equal(spawnSync(join(dir, 'out')).status, 0, 'g() returns 12');
  });

  test('--json lists each function with its text; an unknown name is a one-line error (exit 1)', () => {
    const r = binlens('decompile', program, `0x${TYPED.k.toString(16)}`, '--json');
    assert.equal(r.status, 0, r.stderr);
    const c = JSON.parse(r.stdout) as Decompilation;
    assert.deepEqual(
      c.functions.map((f) => [f.address, f.name, f.error]),
      [[TYPED.k, 'sub_1102c', undefined]],
    );
    assert.ok(c.source.includes(c.functions[0]!.text!));
    // The placeholder form resolves to the text through its map.
    const f = c.functions[0] as (typeof c.functions)[0] & {
      raw_decompilation: string;
      function_mapping_full: Record<string, Record<string, { value?: string; name?: string; string?: string }>>;
    };
    assert.match(f.raw_decompilation, /<VAR_\d+>/);
    const names = new Map<string, string>();
    for (const map of Object.values(f.function_mapping_full))
      for (const [token, v] of Object.entries(map)) names.set(token, v.value ?? v.name ?? `"${v.string}"`);
    assert.equal(
      f.raw_decompilation.replace(/<[A-Z_]+_\d+>/g, (t) => names.get(t) ?? t),
      f.text,
    );
    const bad = binlens('decompile', program, 'nope');
    assert.equal(bad.status, 1);
    assert.match(bad.stderr.trim(), /no function nope in the file/);
    assert.equal(binlens('decompile').status, 2);
  });
});
