// `npm run fuzz`: the long fuzz run. Splits --seconds (default 600) evenly over the targets, prints
// executions, executions per second and unique findings per target, and exits 1 when anything was found.
//   node dist/tools/fuzz/main.js [--seconds 600] [--target elf,pe,macho,raw,analyze,firmware] [--seed 1]
//     [--corpus ../shared/corpus] [--findings fuzz-findings] [--max-seed-kib 256]
//   node dist/tools/fuzz/main.js --target elf --variant 0 --replay fuzz-findings/elf-….bin
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { runCampaign } from './campaign.js';
import { firmwareSeeds } from './firmware-seeds.js';
import { corpusSeeds, syntheticSeeds } from './seeds.js';
import { TARGETS, runTarget, type TargetName } from './targets.js';

const { values } = parseArgs({
  options: {
    seconds: { type: 'string', default: '600' },
    target: { type: 'string', default: TARGETS.join(',') },
    seed: { type: 'string', default: '1' },
    corpus: { type: 'string', default: path.join('..', 'shared', 'corpus') },
    findings: { type: 'string', default: 'fuzz-findings' },
    'max-seed-kib': { type: 'string', default: '256' },
    replay: { type: 'string' },
    variant: { type: 'string', default: '0' },
  },
});

const targets = values.target.split(',').map((t) => {
  if (!(TARGETS as readonly string[]).includes(t)) throw new Error(`unknown target ${t}; one of ${TARGETS.join(', ')}`);
  return t as TargetName;
});

if (values.replay) {
  // In this thread, without the sandbox: the error and its whole stack print as they are.
  const diagnostics = await runTarget(targets[0]!, new Uint8Array(readFileSync(values.replay)), Number(values.variant));
  console.log(diagnostics.join('\n'));
  process.exit(0);
}

const seeds = syntheticSeeds();
if (existsSync(values.corpus)) seeds.push(...corpusSeeds(values.corpus, Number(values['max-seed-kib']) * 1024));
else console.log(`${values.corpus} absent: synthetic seeds only`);
if (targets.includes('firmware')) {
  const firmware = firmwareSeeds();
  seeds.push(...firmware.seeds);
  for (const m of firmware.missing) console.log(`firmware seeds: ${m}`);
}

const perTarget = Number(values.seconds) / targets.length;
let found = 0;
console.log('target    seeds  executions   exec/s  refused  findings');
for (const target of targets) {
  const r = await runCampaign({
    target,
    seeds,
    seed: Number(values.seed),
    seconds: perTarget,
    findingsDir: values.findings,
  });
  found += r.findings.length;
  const rate = (r.executions / r.seconds).toFixed(1);
  console.log(
    `${target.padEnd(8)} ${String(r.seeds).padStart(6)} ${String(r.executions).padStart(11)} ${rate.padStart(8)} ${String(r.refused).padStart(8)} ${String(r.findings.length).padStart(9)}`,
  );
  for (const f of r.findings) console.log(`  ${f.hits}x ${f.signature}\n     ${f.file ?? f.input}`);
}
process.exit(found > 0 ? 1 : 0);
