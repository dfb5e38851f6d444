// `binlens types` as a user runs it: a real process on a real file, its exit codes, stdout and stderr.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { FunctionTypesRecord } from '../../src/shared/type-records.js';
import { PROGRAM, sampleProgram } from '../helpers/engine/sample-program.js';

function binlens(...args: string[]) {
  const r = spawnSync(process.execPath, ['bin/binlens.js', ...args], { encoding: 'utf8', maxBuffer: 1 << 26 });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

describe('binlens types', () => {
  let dir: string;
  let program: string;
  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'binlens-types-'));
    program = join(dir, 'program');
    writeFileSync(program, sampleProgram({ bits: 64, little: true, machine: 62 }));
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  test('prints one C declaration per function, with its address and the source of its types', () => {
    const r = binlens('types', program);
    assert.equal(r.status, 0, r.stderr);
    const lines = r.stdout.trimEnd().split('\n');
    for (const l of lines) assert.match(l, /^\/\* 0x[0-9a-f]+ (dwarf|library|recovered)( \w+)? \*\/ .+\(.*\);$/);
    assert.ok(
      lines.some((l) => l.startsWith(`/* 0x${PROGRAM.exported.toString(16)} `)),
      r.stdout,
    );
  });

  test('--json gives the records; naming an address prints only that function', () => {
    const r = binlens('types', program, `0x${PROGRAM.exported.toString(16)}`, '--json');
    assert.equal(r.status, 0, r.stderr);
    const records = JSON.parse(r.stdout) as FunctionTypesRecord[];
    assert.deepEqual(
      records.map((x) => x.vaddr),
      [PROGRAM.exported],
    );
    assert.ok(records[0]!.declaration.includes('('));
  });

  test('an address that is no function is a one-line error (exit 1); no file is a usage error (exit 2)', () => {
    const r = binlens('types', program, '0x1');
    assert.equal(r.status, 1);
    assert.match(r.stderr.trim(), /no function 0x1 in the file/);
    assert.equal(r.stderr.trim().split('\n').length, 1);
    assert.equal(binlens('types').status, 2);
    assert.equal(binlens('types', join(dir, 'missing')).status, 2);
  });
});
