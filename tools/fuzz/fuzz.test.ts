// The bounded fuzz run of CI: every target, a fixed number of executions with a fixed seed, no finding
// allowed. The long run is `npm run fuzz` (main.ts). Corpus seeds join when ../shared/corpus is present;
// the firmware seeds are built with Debian's tools that are installed (firmware-seeds.ts).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { FIRMWARE_FORMATS } from '../../src/engine/index.js';
import { unpackInMemory } from '../../test/helpers/firmware/unpack.js';
import { runCampaign } from './campaign.js';
import { handBuiltImages } from './firmware-hand-images.js';
import { firmwareSeeds, type FirmwareSeeds } from './firmware-seeds.js';
import { mapFields } from './field-map.js';
import { mutate } from './mutators.js';
import { seededRandom } from '../../src/shared/seeded-random.js';
import { corpusSeeds, syntheticSeeds, type Seed } from './seeds.js';
import type { TargetName } from './targets.js';

const CORPUS = path.resolve(process.cwd(), '..', 'shared', 'corpus');
/**
 * Executions per target: ~35 s in all on a shared 2-core machine (an analysis costs ~20 parses), and ~25 s
 * more for the unpacker (~460 images a second, after ~3 s building its seeds).
 */
const BUDGET: Record<TargetName, number> = {
  elf: 4000,
  pe: 4000,
  macho: 5000,
  raw: 1500,
  analyze: 300,
  firmware: 12000,
};
/** What firmware-hand-images.ts builds, so the firmware target has these seeds on any machine. */
const HAND_BUILT_FORMATS = [
  ...['tar', 'cpio', 'zip', 'ar', 'gzip', 'zlib', 'uimage', 'fdt', 'trx', 'android-boot', 'android-sparse'],
  ...['intel-hex', 'srec', 'elf', 'pe', 'macho'],
];
/** Corpus files this small keep the parse targets near 1 ms an input. */
const CORPUS_SEED_BYTES = 48 * 1024;

const synthetic = syntheticSeeds();
let firmwareBuilt: FirmwareSeeds | null = null;
/** Built once, by the first test that needs them (~3 s). */
const firmware = (): FirmwareSeeds => (firmwareBuilt ??= firmwareSeeds());
/** Formats of the chunks found in `seeds` and in what they hold. */
const formatsIn = (seeds: { bytes: Uint8Array }[]) =>
  new Set(seeds.flatMap((s) => unpackInMemory(s.bytes, { password: 'binlens' }).report.chunks.map((c) => c.format)));

test('fuzz: seeds of every format, each with a field map', () => {
  for (const format of ['elf', 'pe', 'macho', 'raw'])
    assert.ok(
      synthetic.some((s) => s.format === format),
      format,
    );
  for (const s of synthetic.filter((x) => x.format !== 'raw')) assert.ok(s.map.fields.length > 20, s.name);
});

test('fuzz: hand-built firmware seeds of the formats no tool is needed for', () => {
  const found = formatsIn(handBuiltImages());
  assert.deepEqual(
    HAND_BUILT_FORMATS.filter((f) => !found.has(f)),
    [],
  );
});

test('fuzz: firmware seeds of every format the unpacker reads', (t) => {
  const { seeds, missing } = firmware();
  if (missing.length > 0) return t.skip(missing.join('; '));
  const found = formatsIn(seeds);
  assert.deepEqual(
    FIRMWARE_FORMATS.map((f) => f.name).filter((name) => !found.has(name)),
    [],
  );
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
    if (target === 'firmware') seeds.push(...firmware().seeds);
    else if (existsSync(CORPUS)) seeds.push(...corpusSeeds(CORPUS, CORPUS_SEED_BYTES));
    else t.diagnostic(`${CORPUS} absent: synthetic seeds only`);
    // Tool-built seeds differ with the tools' versions, so a finding's input is kept to replay it.
    const findingsDir = target === 'firmware' ? 'fuzz-findings' : null;
    const r = await runCampaign({ target, seeds, seed: 0xf022, executions: BUDGET[target], findingsDir });
    t.diagnostic(`${r.executions} executions of ${r.seeds} seeds, ${(r.executions / r.seconds).toFixed(0)}/s`);
    assert.equal(r.executions, BUDGET[target]);
    assert.deepEqual(
      r.findings.map((f) => `${f.signature} (${f.input}${f.file ? `, kept as ${f.file}` : ''})\n${f.detail}`),
      [],
    );
  });
}
