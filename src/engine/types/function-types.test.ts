// The types stage as the job and the CLI run it (engine analyzeTypes): DWARF wins where the binary or its
// uploaded debug file has it, recovery fills in the rest. Against ../shared/corpus (skipped when absent).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { CORPUS } from '../../../test/helpers/engine/disasm.js';
import { parseBinary } from '../formats/parse.js';
import { analyzeTypes } from '../pipeline.js';

function withBuildId(bytes: Buffer, id: string): Buffer {
  const ours = Buffer.from(parseBinary(bytes).debug.buildId!, 'hex');
  const at = bytes.indexOf(ours);
  assert.ok(at > 0, 'the build ID note is in the file');
  const out = Buffer.from(bytes);
  Buffer.from(id, 'hex').copy(out, at);
  return out;
}

interface TruthFunction {
  address: string;
  name: string;
  params: unknown[];
}

const twin = path.join(CORPUS, 'bin', 'lz4', 'lz4-1.10.0_linux-x86_64_gcc12_O2g');
const stripped = path.join(CORPUS, 'bin', 'lz4', 'lz4-1.10.0_linux-x86_64_gcc12_O2_stripped');
const truthFile = path.join(CORPUS, 'types', 'lz4-1.10.0_linux-x86_64_gcc12_O2g.json');

function agreement(records: Awaited<ReturnType<typeof analyzeTypes>>): { dwarf: number; same: number; n: number } {
  const truth = JSON.parse(readFileSync(truthFile, 'utf8')) as { functions: TruthFunction[] };
  const byAddress = new Map(records.map((r) => [r.vaddr, r]));
  let dwarf = 0;
  let same = 0;
  for (const f of truth.functions) {
    const r = byAddress.get(Number(f.address));
    if (!r) continue;
    if (r.source === 'dwarf') dwarf++;
    if (r.args.length === f.params.length && r.name === f.name) same++;
  }
  return { dwarf, same, n: truth.functions.length };
}

test('types: a binary with DWARF gets its declared prototypes, names and all', async (t) => {
  if (!existsSync(twin) || !existsSync(truthFile)) return t.skip(`${CORPUS} absent: no DWARF twin`);
  const { dwarf, same, n } = agreement(await analyzeTypes(readFileSync(twin), {}));
  assert.ok(dwarf / n > 0.97, `${dwarf} of ${n} from DWARF`);
  assert.ok(same / n > 0.97, `${same} of ${n} with DWARF's name and argument count`);
});

test('types: a stripped binary with its debug file uploaded gets the same', async (t) => {
  if (!existsSync(twin) || !existsSync(stripped)) return t.skip(`${CORPUS} absent: no DWARF twin`);
  // The twin differs from the stripped build only in its build ID (ld hashes the DWARF into it); with the
  // stripped build's ID written in, it is what `objcopy --only-keep-debug` would have made of the build.
  const debug = withBuildId(readFileSync(twin), parseBinary(readFileSync(stripped)).debug.buildId!);
  const { dwarf, n } = agreement(await analyzeTypes(readFileSync(stripped), { debug }));
  assert.ok(dwarf / n > 0.97, `${dwarf} of ${n} from the debug file's DWARF`);
});
