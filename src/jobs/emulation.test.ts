// The emulator's own process: a run's report comes back over IPC; a process that dies says how; a run past
// its deadline is killed. Skips without libunicorn2.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { implantProgram, x86_64Program } from '../../test/helpers/samples.js';
import { emulatorAvailable, type DynamicReport } from '../engine/index.js';
import { emulate } from './emulation.js';

test('emulation process: a report, a death explained, a deadline enforced', async (t) => {
  if (!emulatorAvailable()) return t.skip('libunicorn2 is not installed (apt-get install libunicorn2)');
  const dir = mkdtempSync(join(tmpdir(), 'binlens-emulation-'));
  try {
    writeFileSync(join(dir, 'implant'), implantProgram());
    const answer = await emulate({ path: join(dir, 'implant'), argv: ['implant'], wallMs: 60_000, dumpDir: dir });
    assert.equal(answer.kind, 'report');
    const report = JSON.parse((answer as { report: string }).report) as DynamicReport;
    assert.deepEqual(report.stop, { reason: 'exit', detail: 'exit status 0' });
    assert.deepEqual(
      report.processes.map((p) => [p.pid, p.parent, p.path]),
      [
        [1000, null, 'implant'],
        [1001, 1000, '/bin/sh'],
      ],
    );

    await assert.rejects(
      emulate({ path: join(dir, 'missing'), argv: ['x'], wallMs: 60_000, dumpDir: dir }),
      /without an answer: .*ENOENT/,
    );

    // jmp $ forever: with a time bound of 0.3 s the run ends there, with its report; with a minute's bound, the
    // process's deadline (here half a second) kills it.
    const spin = x86_64Program(Uint8Array.of(0xeb, 0xfe));
    writeFileSync(join(dir, 'spin'), spin);
    const bounded = await emulate({ path: join(dir, 'spin'), argv: ['spin'], wallMs: 300, dumpDir: dir });
    assert.equal((JSON.parse((bounded as { report: string }).report) as DynamicReport).stop.reason, 'time');
    const started = performance.now();
    await assert.rejects(
      emulate({ path: join(dir, 'spin'), argv: ['spin'], wallMs: 60_000, dumpDir: dir }, 500),
      /did not end within 0\.5 s/,
    );
    assert.ok(performance.now() - started < 5000);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
