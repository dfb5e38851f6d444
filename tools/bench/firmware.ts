// npm run bench:firmware — issue 14's acceptance figure. A matrix of firmware images is built here with the
// Debian tools (firmware-images.ts: squashfs with each compressor, jffs2 both ways round, UBI, ext2/4, FAT,
// ISO 9660, U-Boot legacy and FIT, cpio, tar, zip and 7z with and without a password, nesting four deep, a TRX
// and a whole flash read out), each around stripped corpus executables of five instruction sets. Each image
// is unpacked by Binlens as the service's firmware job does (firmware-unpack-one.ts, a process per image)
// and by `binwalk -e -M` (Debian's binwalk 2.3.3, recursive), both timed the same way (firmware-runs.ts).
// Per image: recall and precision of the executables put in (firmware-score.ts states the rule), whether
// Binlens's top-level chunks start exactly where the parts were put, wall time and peak RSS of both.
// Target: Binlens's recall ≥ binwalk's on every image, and its total time ≤ binwalk's.
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { loadConfig } from '../../src/config/index.js';
import { FIRMWARE_FORMATS } from '../../src/engine/index.js';
import {
  buildableCases,
  IMAGE_CASES,
  onPath,
  Workshop,
  type BenchExecutable,
  type BuiltImage,
} from './firmware-images.js';
import { binwalkVersion, canUnshare, GNU_TIME, runBinlens, runBinwalk, type ToolRun } from './firmware-runs.js';
import { executablesIn, offsetMisses, score, type Score } from './firmware-score.js';
import { CORPUS, fmt } from './lib.js';

const LZ4 = join(CORPUS, 'bin', 'lz4');
/** One stripped build of lz4 per instruction set: x86-64, i386, aarch64, armhf, mipsel. */
const EXECUTABLES: readonly [label: string, file: string][] = [
  ['x86-64', 'lz4-1.10.0_linux-x86_64_gcc12_O2_stripped'],
  ['i386', 'lz4-1.10.0_linux-i386_gcc12_O2_stripped'],
  ['aarch64', 'lz4-1.10.0_linux-aarch64_gcc12_O2_stripped'],
  ['armhf', 'lz4-1.10.0_linux-armhf_gcc12_O2_stripped'],
  ['mipsel', 'lz4-1.10.0_linux-mipsel_gcc12_O2_stripped'],
];

if (EXECUTABLES.some(([, f]) => !existsSync(join(LZ4, f)))) {
  console.log(`${LZ4} (the corpus's lz4 builds) absent: nothing to measure`);
  process.exit(0);
}
const { ready, missing } = buildableCases(IMAGE_CASES);
const absent = [
  ...(onPath('binwalk') ? [] : ['binwalk (apt-get install binwalk)']),
  ...(existsSync(GNU_TIME) ? [] : [`${GNU_TIME} (apt-get install time)`]),
];
if (absent.length) {
  console.log(`${absent.join(', ')} not installed: nothing to measure`);
  process.exit(0);
}

const exes: BenchExecutable[] = EXECUTABLES.map(([label, name]) => {
  const file = join(LZ4, name);
  return { label, file, sha256: createHash('sha256').update(readFileSync(file)).digest('hex') };
});
const limits = loadConfig(process.env).firmware;
const unshare = canUnshare();
console.log(`Binlens formats: ${FIRMWARE_FORMATS.map((f) => f.name).join(' ')}`);
console.log(`reference: ${binwalkVersion()} -e -M (recursive), with the extraction tools installed here`);
for (const x of exes) console.log(`put in: ${x.label.padEnd(8)} ${x.sha256}  ${relative(CORPUS, x.file)}`);
for (const m of missing) console.log(m);
if (!unshare) console.log('binwalk runs without a mount namespace of its own: its mount fallbacks may leave mounts');

interface Row {
  name: string;
  image: BuiltImage;
  mb: number;
  ours: ToolRun & { score: Score; offsetsExact: number; unpackMs: number };
  theirs: ToolRun & { score: Score };
}

const rows: Row[] = [];
const pad = (s: string, n: number) => s.padStart(n);
const ratio = (x: number | null) => (x === null ? '-' : fmt(x, 2));
const hexOffset = (n: number) => `0x${n.toString(16)}`;
console.log(
  `\n${'image'.padEnd(16)}    MB  put in | Binlens recall  prec  offsets      ms  RSS MiB | binwalk recall  prec      ms  RSS MiB`,
);
const work = mkdtempSync(join(tmpdir(), 'binlens-bench-firmware-'));
try {
  for (const c of ready) {
    const dir = join(work, c.name);
    const w = new Workshop(join(dir, 'build'), exes);
    mkdirSync(w.dir, { recursive: true });
    let image: BuiltImage;
    try {
      image = c.build(w);
    } catch (err) {
      console.log(
        `${c.name}: not built: ${String((err as { stderr?: Buffer }).stderr ?? err)
          .trim()
          .slice(0, 300)}`,
      );
      continue;
    }
    const size = statSync(image.file).size;
    const ours = runBinlens({ file: image.file, size, password: image.password }, join(dir, 'binlens'), limits);
    const theirs = runBinwalk(image.file, join(dir, 'binwalk'), unshare);
    const chunks = ours.record?.chunks ?? [];
    const misplaced = offsetMisses(image.parts, chunks);
    const row: Row = {
      name: c.name,
      image,
      mb: size / 1e6,
      ours: {
        ...ours,
        score: score(executablesIn(join(dir, 'binlens')), image.expected),
        offsetsExact: image.parts.length - misplaced.length,
        unpackMs: ours.record?.unpackMs ?? 0,
      },
      theirs: { ...theirs, score: score(executablesIn(join(dir, 'binwalk')), image.expected) },
    };
    rows.push(row);
    const { ours: o, theirs: t } = row;
    const putIn =
      image.expected.length === exes.length ? `all ${exes.length}` : image.expected.map((x) => x.label).join(',');
    console.log(
      `${c.name.padEnd(16)} ${pad(fmt(row.mb, 2), 5)} ${putIn.padEnd(6)} | ` +
        `${pad(fmt(o.score.recall, 2), 14)} ${pad(ratio(o.score.precision), 5)} ${pad(`${o.offsetsExact}/${image.parts.length}`, 8)} ` +
        `${pad(fmt(o.ms, 0), 7)} ${pad(fmt(o.peakRssMiB, 1), 8)} | ${pad(fmt(t.score.recall, 2), 14)} ${pad(ratio(t.score.precision), 5)} ` +
        `${pad(fmt(t.ms, 0), 7)} ${pad(fmt(t.peakRssMiB, 1), 8)}`,
    );
    const note = (what: string) => console.log(`    ${what}`);
    if (o.failure) note(`Binlens failed: ${o.failure}`);
    if (ours.record?.stopped) note(`Binlens stopped: ${ours.record.stopped}`);
    if (o.score.missed.length) note(`Binlens missed: ${o.score.missed.join(', ')}`);
    for (const p of o.score.extra) note(`Binlens false positive: ${p}`);
    for (const m of misplaced)
      note(
        `Binlens has no top-level chunk at ${hexOffset(m.offset)} (${m.label}); its top-level chunks: ` +
          `${chunks.map((ch) => `${ch.format}@${hexOffset(ch.offset)}`).join(' ') || 'none'}`,
      );
    if (t.failure) note(`binwalk failed: ${t.failure}`);
    if (t.score.missed.length) note(`binwalk missed: ${t.score.missed.join(', ')}`);
    for (const p of t.score.extra) note(`binwalk false positive: ${p}`);
    if (image.password) note(`Binlens was given the password; binwalk has no way to take one`);
    rmSync(dir, { recursive: true, force: true });
  }
} finally {
  rmSync(work, { recursive: true, force: true });
}

if (rows.length === 0) {
  console.log('no image was built: nothing to compare');
  process.exit(1);
}
const sum = (f: (r: Row) => number) => rows.reduce((n, r) => n + f(r), 0);
const put = sum((r) => r.image.expected.length);
const totals = (side: 'ours' | 'theirs') => ({
  hits: sum((r) => r[side].score.hits),
  found: sum((r) => r[side].score.found),
  s: sum((r) => r[side].ms) / 1000,
  rss: Math.max(...rows.map((r) => r[side].peakRssMiB)),
});
const o = totals('ours');
const t = totals('theirs');
const parts = sum((r) => r.image.parts.length);
const exact = sum((r) => r.ours.offsetsExact);
const behind = rows.filter((r) => r.ours.score.recall < r.theirs.score.recall).map((r) => r.name);
const incomplete = rows.filter((r) => r.ours.score.recall < 1).map((r) => r.name);
const side = (x: typeof o) =>
  `recall ${x.hits}/${put} = ${fmt(x.hits / put, 3)}, precision ${x.found ? fmt(x.hits / x.found, 3) : '-'}, ` +
  `time ${fmt(x.s, 2)} s, peak RSS ≤ ${fmt(x.rss, 1)} MiB`;
console.log(
  `\nall: ${rows.length} images, ${fmt(
    sum((r) => r.mb),
    1,
  )} MB, ${put} executables put in` +
    `\nBinlens: ${side(o)} (unpacking alone ${fmt(sum((r) => r.ours.unpackMs) / 1000, 2)} s, the rest is ` +
    `starting node and loading the engine); top-level chunk offsets exact ${exact}/${parts}` +
    `\nbinwalk: ${side(t)}` +
    `\nBinlens's recall ≥ binwalk's on every image: ${behind.length ? `no (${behind.join(', ')})` : 'yes'}` +
    `\nBinlens's total time ≤ binwalk's: ${o.s <= t.s ? 'yes' : 'no'} (ratio ${fmt(o.s / t.s, 2)})` +
    `\nimages where Binlens missed an executable: ${incomplete.join(', ') || 'none'}`,
);
const pass = behind.length === 0 && o.s <= t.s;
console.log(
  `\n${pass ? 'PASS' : 'FAIL'}: Binlens ${o.hits}/${put} executables on ${rows.length} images in ${fmt(o.s, 1)} s, ` +
    `binwalk ${t.hits}/${put} in ${fmt(t.s, 1)} s; recall ≥ binwalk's on every image: ${behind.length ? 'no' : 'yes'}, ` +
    `time ratio ${fmt(o.s / t.s, 2)}, offsets exact ${exact}/${parts}`,
);
