// npm run bench:dynamic — the corpus behaviour samples (../shared/corpus/bin/samples, every build) run by
// the emulator with the arguments in dynamic-expected.json, whose events were written from each sample's
// source before tuning: recall and precision of the events and of the ATT&CK ids, the stop reasons, and the
// share of the imported APIs of every corpus PE file (../shared/corpus/bin/*) that have a handler. Then throughput: a compute loop emulated
// beside the same loop on a bare Unicorn CPU in this script, and system calls per second.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Cpu, UC } from '../../src/engine/emulate/unicorn.js';
import { parsePe } from '../../src/engine/formats/index.js';
import {
  behavioursOf,
  emulatorAvailable,
  runLinuxElf,
  runProgram,
  windowsApiHandled,
  type EmulationEvent,
} from '../../src/engine/index.js';
import { hostSysroot } from '../../src/jobs/sysroot.js';
import { CORPUS, fmt, readJson } from './lib.js';

interface Expected {
  program: string;
  platform: 'linux' | 'windows';
  argv: string[];
  files: Record<string, string>;
  events: string[];
  attack: string[];
}

const SAMPLES = join(CORPUS, 'bin', 'samples');
if (!existsSync(SAMPLES)) {
  console.log(`${SAMPLES} absent: nothing to measure`);
  process.exit(0);
}
if (!emulatorAvailable()) {
  console.log('libunicorn2 is not installed (apt-get install libunicorn2): nothing to measure');
  process.exit(0);
}
// Read from the source tree (the tools run from the project root), as capabilities.ts reads its own.
const expected = readJson<{ samples: Expected[] }>(join('tools', 'bench', 'dynamic-expected.json')).samples;

/** An event as the expectations spell it. */
function key(e: EmulationEvent): string {
  const d = e.detail;
  switch (e.kind) {
    case 'connect':
      return `connect ${d.address}:${d.port}`;
    case 'http-request':
      return `http-request ${d.method} ${d.host}${d.path}`;
    case 'dns-query':
      return `dns-query ${d.host}`;
    case 'process-exec':
      // The image and its arguments (argv[0] is whatever the caller chose).
      return `process-exec ${d.path} ${String(d.args).split(' ').slice(1).join(' ')}`;
    case 'process-create':
      // Windows names the image a process is created with; a fork has none.
      return d.path === undefined ? 'process-create' : `process-create ${d.path}`;
    default:
      return d.path === undefined ? e.kind : `${e.kind} ${d.path}`;
  }
}

const builds = readdirSync(SAMPLES);
const platformPart = { linux: 'linux-x86_64_gcc12', windows: 'win-x86_64_mingw-gcc12' } as const;
let tp = 0;
let expectedTotal = 0;
let observedTotal = 0;
const stops = new Map<string, number>();
/** ATT&CK ids over every build run: expected, tagged by the behaviours of its events, and both. */
const attack = { expected: 0, found: 0, hits: 0 };
console.log('sample                                                         args          recall  precision  stop');
for (const x of expected) {
  const prefix = `sample-${x.program}_${platformPart[x.platform]}_`;
  for (const build of builds.filter((b) => b.startsWith(prefix)).sort()) {
    const files = new Map(Object.entries(x.files).map(([p, text]) => [p, new TextEncoder().encode(text)]));
    const run = runProgram(readFileSync(join(SAMPLES, build)), { argv: x.argv, files, sysroot: hostSysroot() });
    const stop = run.stop.reason;
    // The expectations list file, network, process and registry events; library calls only feed ATT&CK.
    const seen = new Set(run.events.filter((e) => e.kind !== 'library-call').map(key));
    const hits = x.events.filter((e) => seen.has(e)).length;
    const tagged = new Set(behavioursOf(run.events).flatMap((b) => b.attack.map((a) => a.id)));
    attack.expected += x.attack.length;
    attack.found += tagged.size;
    attack.hits += x.attack.filter((id) => tagged.has(id)).length;
    tp += hits;
    expectedTotal += x.events.length;
    observedTotal += seen.size;
    stops.set(stop, (stops.get(stop) ?? 0) + 1);
    const precision = seen.size ? fmt(hits / seen.size, 2) : '-';
    console.log(
      `${build.padEnd(62)} ${x.argv.slice(1).join(' ').slice(0, 12).padEnd(12)} ${fmt(hits / x.events.length, 2).padStart(7)} ${precision.padStart(10)}  ${stop}`,
    );
    for (const missed of x.events.filter((e) => !seen.has(e))) console.log(`    missed: ${missed}`);
    for (const extra of [...seen].filter((e) => !x.events.includes(e))) console.log(`    extra:  ${extra}`);
    for (const id of x.attack.filter((a) => !tagged.has(a))) console.log(`    ATT&CK missed: ${id}`);
    for (const id of [...tagged].filter((a) => !x.attack.includes(a))) console.log(`    ATT&CK extra:  ${id}`);
  }
}
console.log(
  `events: recall ${fmt(tp / expectedTotal, 3)}, precision ${fmt(observedTotal ? tp / observedTotal : 0, 3)} (target 1.0 / 1.0)`,
);
console.log(
  `ATT&CK ids: recall ${fmt(attack.hits / attack.expected, 3)} of ${attack.expected} expected, precision ` +
    `${fmt(attack.found ? attack.hits / attack.found : 0, 3)} (target 1.0 / 1.0)`,
);
console.log(`stop reasons: ${[...stops].map(([s, n]) => `${s} ${n}`).join(', ')}`);

// Every corpus PE file's imported APIs (functions and variables), against the handlers the emulator has.
const apis = new Set<string>();
const bin = join(CORPUS, 'bin');
for (const dir of readdirSync(bin))
  for (const f of readdirSync(join(bin, dir)).filter((n) => /\.(exe|dll)$/i.test(n)))
    for (const imp of parsePe(readFileSync(join(bin, dir, f))).imports)
      apis.add(`${(imp.library ?? '?').toLowerCase()}!${imp.name}`);
const unhandled = [...apis].filter((a) => !windowsApiHandled(...(a.split('!') as [string, string])));
console.log(
  `PE imported APIs with a handler: ${apis.size - unhandled.length} of ${apis.size} = ${fmt((100 * (apis.size - unhandled.length)) / apis.size, 1)} % (target 100 %)${unhandled.length ? `; without: ${unhandled.join(', ')}` : ''}`,
);

// Throughput: gcc's loop of six instructions (two of them memory operands) emulated, and the same six
// instructions on a bare CPU with no hooks.
const ITERATIONS = 50_000_000;
const work = mkdtempSync(join(tmpdir(), 'binlens-bench-dynamic-'));
try {
  const build = (name: string, source: string) => {
    writeFileSync(join(work, `${name}.c`), source);
    execFileSync('gcc', ['-O1', '-static', `${name}.c`, '-o', name], { cwd: work });
    return readFileSync(join(work, name));
  };
  const spin = build(
    'spin',
    `int main(void) { volatile unsigned long i = 0; for (unsigned long k = 0; k < ${ITERATIONS}UL; k++) i += k; return (int)(i & 1); }\n`,
  );
  // Two system calls in turn (one alone, repeated, would be API hammering, counted once), 9 000 in all.
  const CALLS = 4_500;
  const calls = build(
    'calls',
    `#include <unistd.h>\nint main(void) { long n = 0; for (int k = 0; k < ${CALLS}; k++) n += getppid() + getpid(); return (int)(n & 1); }\n`,
  );
  let t0 = performance.now();
  const emulated = runLinuxElf(spin, { argv: ['spin'] });
  const emulatedMs = performance.now() - t0;
  const cpu = new Cpu(UC.arch.x86, UC.mode.mode64);
  cpu.map(0x400000n, 0x1000, UC.prot.all);
  cpu.map(0x7000000n, 0x10000, UC.prot.read | UC.prot.write);
  cpu.setReg(44, 0x7008000n);
  // movq [rsp-8], 0; mov eax, 0; L: mov rdx, [rsp-8]; add rdx, rax; mov [rsp-8], rdx; add rax, 1;
  // cmp rax, N; jne L; hlt
  const n = [ITERATIONS & 0xff, (ITERATIONS >> 8) & 0xff, (ITERATIONS >> 16) & 0xff, ITERATIONS >>> 24];
  const loop = Uint8Array.from([
    ...[0x48, 0xc7, 0x44, 0x24, 0xf8, 0, 0, 0, 0, 0xb8, 0, 0, 0, 0],
    ...[0x48, 0x8b, 0x54, 0x24, 0xf8, 0x48, 0x01, 0xc2, 0x48, 0x89, 0x54, 0x24, 0xf8, 0x48, 0x83, 0xc0, 0x01],
    ...[0x48, 0x3d, ...n, 0x75, 0xe8, 0xf4],
  ]);
  cpu.write(0x400000n, loop);
  t0 = performance.now();
  cpu.run(0x400000n, 0xffff_ffff_ffff_f000n);
  const rawMs = performance.now() - t0;
  cpu.close();
  const instructions = 6 * ITERATIONS;
  console.log(
    `throughput: emulated ${fmt(instructions / emulatedMs / 1000, 0)} M instructions/s (${emulated.stop.detail}), bare Unicorn ${fmt(instructions / rawMs / 1000, 0)} M/s: ratio ${fmt(rawMs / emulatedMs, 2)} (target >= 0.5)`,
  );
  // Windows API calls: the corpus's SQLite driver, a mix of heap, string, stdio and file calls.
  const sqlite = join(CORPUS, 'bin', 'sqlite', 'sqlite-3.50.4_win-x86_64_mingw-gcc12_O2.exe');
  if (existsSync(sqlite)) {
    t0 = performance.now();
    const driven = runProgram(readFileSync(sqlite), { argv: ['sqlite.exe'] });
    const ms = performance.now() - t0;
    console.log(
      `Windows API calls: ${driven.calls} in ${fmt(ms, 0)} ms = ${fmt((driven.calls / ms) * 1000, 0)} per second, load included (${driven.stop.detail})`,
    );
  }
  t0 = performance.now();
  const made = runLinuxElf(calls, { argv: ['calls'] });
  console.log(
    `system calls: ${made.calls} in ${fmt(performance.now() - t0, 0)} ms = ${fmt((made.calls / (performance.now() - t0)) * 1000, 0)} per second (${made.stop.detail})`,
  );
} finally {
  rmSync(work, { recursive: true, force: true });
}
