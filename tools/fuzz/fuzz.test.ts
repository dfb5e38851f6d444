// The bounded fuzz run of CI: every target, a fixed number of executions with a fixed seed, no finding
// allowed. The long run is `npm run fuzz` (main.ts). Corpus seeds join when ../shared/corpus is present.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { runCampaign } from './campaign.js';
import { mapFields } from './field-map.js';
import { mutate } from './mutators.js';
import { seededRandom } from '../../src/shared/seeded-random.js';
import { corpusSeeds, syntheticSeeds, type Seed } from './seeds.js';
import type { TargetName } from './targets.js';

const CORPUS = path.resolve(process.cwd(), '..', 'shared', 'corpus');
/** Executions per target: ~35 s in all on a shared 2-core machine (an analysis costs ~20 parses). */
const BUDGET: Record<TargetName, number> = { elf: 4000, pe: 4000, macho: 5000, raw: 1500, analyze: 300 };
/** Corpus files this small keep the parse targets near 1 ms an input. */
const CORPUS_SEED_BYTES = 48 * 1024;

const synthetic = syntheticSeeds();

test('fuzz: seeds of every format, each with a field map', () => {
  for (const format of ['elf', 'pe', 'macho', 'raw'])
    assert.ok(
      synthetic.some((s) => s.format === format),
      format,
    );
  for (const s of synthetic.filter((x) => x.format !== 'raw')) assert.ok(s.map.fields.length > 20, s.name);
});

test('fuzz: mutants are deterministic in the random stream', () => {
  const seed = synthetic[0]!;
  const a = mutate(seed.bytes, seed.map, seededRandom(7));
  const b = mutate(seed.bytes, seed.map, seededRandom(7));
  assert.deepEqual(a, b);
  assert.deepEqual(mapFields(new Uint8Array(0)).fields, []);
});

for (const target of Object.keys(BUDGET) as TargetName[]) {
  test(`fuzz: ${target}, ${BUDGET[target]} executions, no finding`, async (t) => {
    const seeds: Seed[] = [...synthetic];
    if (existsSync(CORPUS)) seeds.push(...corpusSeeds(CORPUS, CORPUS_SEED_BYTES));
    else t.diagnostic(`${CORPUS} absent: synthetic seeds only`);
    const r = await runCampaign({ target, seeds, seed: 0xf022, executions: BUDGET[target], findingsDir: null });
    t.diagnostic(`${r.executions} executions of ${r.seeds} seeds, ${(r.executions / r.seconds).toFixed(0)}/s`);
    assert.equal(r.executions, BUDGET[target]);
    assert.deepEqual(
      r.findings.map((f) => `${f.signature} (${f.input})\n${f.detail}`),
      [],
    );
  });
}
