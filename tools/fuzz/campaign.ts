// One fuzz run of one target: the seeds as they are, then seeded mutants of them, each through the
// sandbox, until an execution count or a time budget is spent. Input i of a run depends only on the run's
// seed, the target and i, so any finding can be regenerated from its report.
import { createHash } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { seededRandom } from '../../src/shared/seeded-random.js';
import { Sandbox } from './sandbox.js';
import type { Seed } from './seeds.js';
import { TARGETS, mutatorFor, takesSeed, timeoutMs, variantCount, type TargetName } from './targets.js';

export interface CampaignOptions {
  target: TargetName;
  seeds: Seed[];
  /** The run's random seed. */
  seed: number;
  /** Stop after this many executions, or after `seconds`, whichever comes first. */
  executions?: number;
  seconds?: number;
  /** Where findings are written (`<target>-<hash>.bin` and `.txt`); null keeps them in memory only. */
  findingsDir: string | null;
  heapMb?: number;
}

export interface Finding {
  signature: string;
  detail: string;
  /** Executions that hit this signature; the first one's input is the one kept. */
  hits: number;
  input: string;
  file: string | null;
}

export interface CampaignReport {
  target: TargetName;
  seeds: number;
  executions: number;
  /** Executions the target refused with a permanent error: a high share means shallow mutants. */
  refused: number;
  seconds: number;
  findings: Finding[];
}

/** Input i's random stream: the run seed, target and index mixed (FNV-1a-style), never shared. */
const streamSeed = (seed: number, target: TargetName, i: number): number =>
  Math.imul(Math.imul(seed ^ 0x811c9dc5, 0x01000193) ^ (TARGETS.indexOf(target) + 1), 0x01000193) ^ i;

function save(dir: string, target: TargetName, bytes: Uint8Array, report: string): string {
  mkdirSync(dir, { recursive: true });
  const hash = createHash('sha256').update(bytes).digest('hex').slice(0, 16);
  const file = path.join(dir, `${target}-${hash}`);
  writeFileSync(`${file}.bin`, bytes);
  writeFileSync(`${file}.txt`, report);
  return `${file}.bin`;
}

export async function runCampaign(options: CampaignOptions): Promise<CampaignReport> {
  const { target, seed } = options;
  const seeds = options.seeds.filter((s) => takesSeed(target, s.format));
  const mutate = mutatorFor(target);
  const sandbox = new Sandbox({ heapMb: options.heapMb ?? 512 });
  const findings = new Map<string, Finding>();
  const limit = options.executions ?? Number.POSITIVE_INFINITY;
  const started = performance.now();
  const deadline = options.seconds === undefined ? Number.POSITIVE_INFINITY : started + options.seconds * 1000;
  let executions = 0;
  let refused = 0;
  try {
    for (let i = 0; seeds.length > 0 && i < limit && performance.now() < deadline; i++) {
      const rand = seededRandom(streamSeed(seed, target, i));
      // The first inputs are the seeds untouched: a finding there is a bug on valid input.
      const source = seeds[i < seeds.length ? i : Math.floor(rand() * seeds.length)]!;
      const mutant =
        i < seeds.length ? { bytes: source.bytes.slice(), steps: ['none'] } : mutate(source.bytes, source.map, rand);
      const variant = Math.floor(rand() * variantCount(target));
      // Kept before the buffer is handed to the worker.
      const input = mutant.bytes.slice();
      const outcome = await sandbox.run({ target, bytes: mutant.bytes, variant }, timeoutMs(target, input.length));
      executions++;
      if (outcome.kind === 'refused') refused++;
      if (outcome.kind !== 'finding') continue;
      const known = findings.get(outcome.signature);
      if (known) {
        known.hits++;
        continue;
      }
      const description = `input ${i} of seed ${seed}: ${source.name} variant ${variant}, ${mutant.steps.join('; ')}`;
      const report = [
        `target: ${target}`,
        `signature: ${outcome.signature}`,
        `input: ${description}`,
        `replay: node dist/tools/fuzz/main.js --target ${target} --variant ${variant} --replay <this .bin>`,
        '',
        outcome.detail,
        '',
      ].join('\n');
      const file = options.findingsDir ? save(options.findingsDir, target, input, report) : null;
      findings.set(outcome.signature, {
        signature: outcome.signature,
        detail: outcome.detail,
        hits: 1,
        input: description,
        file,
      });
    }
  } finally {
    await sandbox.close();
  }
  return {
    target,
    seeds: seeds.length,
    executions,
    refused,
    seconds: (performance.now() - started) / 1000,
    findings: [...findings.values()],
  };
}
