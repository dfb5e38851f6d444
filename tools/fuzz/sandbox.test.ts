// The oracle itself: a zero-finding fuzz run means something only if a crash, a hang and a runaway
// allocation each show up as a finding. Stand-in workers misbehave on purpose.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { Sandbox, classify } from './sandbox.js';

const dir = mkdtempSync(path.join(tmpdir(), 'binlens-sandbox-'));
/** A worker script that answers each message with `body(message)` (a JavaScript expression). */
function worker(name: string, body: string): URL {
  const file = path.join(dir, `${name}.mjs`);
  writeFileSync(
    file,
    `import { parentPort } from 'node:worker_threads';\nparentPort.on('message', (m) => parentPort.postMessage(${body}));\n`,
  );
  return pathToFileURL(file);
}

const request = () => ({ target: 'elf' as const, bytes: new Uint8Array(8), variant: 0 });

test('sandbox: an escaped error is a finding named by its kind and throw site, not its numbers', () => {
  const crash = (message: string) =>
    classify({ kind: 'crash', name: 'RangeError', message, stack: `RangeError: ${message}\n    at f (x.js:10:5)` });
  const a = crash('offset 17 out of range');
  const b = crash('offset 0x99 out of range');
  assert.equal(a.kind, 'finding');
  assert.deepEqual(a, { ...b, detail: a.kind === 'finding' ? a.detail : '' });
  assert.equal(classify({ kind: 'refused' }).kind, 'refused');
  assert.equal(classify({ kind: 'faults', faults: ['internal error reading x: boom'] }).kind, 'finding');
});

/** Runs `use` on a sandbox of the stand-in worker `script`, and stops its worker however `use` ends. */
async function withSandbox(heapMb: number, script: URL, use: (sandbox: Sandbox) => Promise<void>): Promise<void> {
  const sandbox = new Sandbox({ heapMb, script });
  try {
    await use(sandbox);
  } finally {
    await sandbox.close();
  }
}

test('sandbox: a hang is a timeout finding, and the next input gets a fresh worker', () =>
  withSandbox(64, worker('hang', "m.variant === 0 ? (() => { for (;;); })() : { kind: 'ok' }"), async (sandbox) => {
    const hung = await sandbox.run(request(), 300);
    assert.equal(hung.kind === 'finding' && hung.signature, 'timeout');
    assert.deepEqual(await sandbox.run({ ...request(), variant: 1 }, 5000), { kind: 'ok' });
  }));

test('sandbox: unbounded allocation kills the worker within its heap limit', () =>
  withSandbox(
    32,
    worker('hog', '(() => { const a = []; for (;;) a.push(new Array(1e5).fill({})); })()'),
    async (sandbox) => {
      const outcome = await sandbox.run(request(), 20_000);
      assert.equal(outcome.kind === 'finding' && outcome.signature, 'worker died: ERR_WORKER_OUT_OF_MEMORY');
    },
  ));
