import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { PROGRAM, sampleProgram, withoutSymtab } from '../../test/helpers/engine/sample-program.js';
import { analyze } from './pipeline.js';

const program = sampleProgram({ bits: 64, little: true, machine: 62 });
const stripped = withoutSymtab(program);
const named = (r: Awaited<ReturnType<typeof analyze>>, vaddr: number) => r.functions.find((f) => f.vaddr === vaddr);

test('debug file: names the functions only its symbol table knows, as debug names', async () => {
  const bare = await analyze(stripped, {});
  assert.equal(named(bare, PROGRAM.local)?.name, `sub_${PROGRAM.local.toString(16)}`);

  const r = await analyze(stripped, { debug: program });
  assert.deepEqual(
    { name: named(r, PROGRAM.local)?.name, origin: named(r, PROGRAM.local)?.nameOrigin },
    { name: 'local_fn', origin: 'debug' },
  );
  // The binary's own dynamic symbol keeps its origin.
  assert.equal(named(r, PROGRAM.exported)?.nameOrigin, 'symbol');
  assert.equal(r.identity.debug, true);
  assert.equal(r.stripped, true, 'stripped describes the binary, not its debug file');
  assert.deepEqual(r.diagnostics, bare.diagnostics);
});

const refusals: [string, Uint8Array, RegExp][] = [
  ['another architecture', sampleProgram({ bits: 64, little: true, machine: 183 }), /arm64/],
  ['not an executable at all', new TextEncoder().encode('just text'), /debug file ignored/],
];
for (const [name, debug, message] of refusals) {
  test(`debug file: ${name} is ignored with a diagnostic`, async () => {
    const r = await analyze(stripped, { debug });
    assert.equal(named(r, PROGRAM.local)?.name, `sub_${PROGRAM.local.toString(16)}`);
    assert.ok(
      r.diagnostics.some((d) => d.startsWith('debug file ignored') && message.test(d)),
      r.diagnostics.join('\n'),
    );
  });
}

test('debug file: a corpus binary stripped, named from its unstripped twin', async (t) => {
  const dir = path.resolve(process.cwd(), '..', 'shared', 'corpus', 'bin', 'lz4');
  const base = path.join(dir, 'lz4-1.10.0_linux-x86_64_gcc12_O2');
  if (!existsSync(`${base}_stripped`)) return t.skip('../shared/corpus is not present');
  const [bin, dbg] = [readFileSync(`${base}_stripped`), readFileSync(base)];
  const bare = await analyze(bin, {});
  const r = await analyze(bin, { debug: dbg });
  const generated = (x: typeof r) => x.functions.filter((f) => f.nameOrigin === 'generated').length;
  assert.ok(generated(bare) > 100, `${generated(bare)} unnamed functions without the debug file`);
  assert.ok(generated(r) < generated(bare) / 10, `${generated(r)} still unnamed with it`);
  assert.ok(r.functions.some((f) => f.name === 'LZ4_compress_fast' && f.nameOrigin === 'debug'));
});
