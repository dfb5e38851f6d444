// npm run bench:disasm — decoding speed of every disassembly backend on the largest corpus binary of each
// architecture, against `objdump -d` on the same file in the same run (builds first).
// The whole .text is decoded linearly (invalid bytes skipped by the instruction alignment); the slow
// Capstone paths decode a prefix of SAMPLE instructions and report its rate.
import { openSync, closeSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { Capstone, Const } from 'capstone-wasm';
import {
  createCapstoneDecoder,
  createDecoder,
  newDecoded,
  type Decoder,
  type DecoderMode,
} from '../../src/engine/disasm/index.js';
import { CapstoneHandle, loadCapstoneModule, type CapstoneMode } from '../../src/engine/disasm/capstone-runtime.js';
import { CORPUS, largest, objdumpFor, readCorpus, textSection } from '../../test/helpers/engine/disasm.js';

const SAMPLE = 100_000;
const ROUNDS = 3;

const TARGETS: { arch: string; mode: DecoderMode; capstone?: CapstoneMode }[] = [
  { arch: 'x86_64', mode: 'x86_64' },
  { arch: 'i386', mode: 'x86' },
  { arch: 'aarch64', mode: 'arm64', capstone: 'arm64' },
  { arch: 'arm', mode: 'thumb', capstone: 'thumb' },
  { arch: 'mips', mode: 'mipsel' },
];
/** The objdump architecture of each target (binutils calls x86-64 `i386` too). */
const OBJDUMP_ARCH: Record<string, string> = {
  x86_64: 'i386',
  i386: 'i386',
  aarch64: 'aarch64',
  arm: 'arm',
  mips: 'mips',
};

/** Best wall time of `rounds` runs of `fn` (which returns the instruction count), after one warm-up. */
function time(fn: () => number, rounds = ROUNDS): { ms: number; count: number } {
  let count = fn();
  let best = Infinity;
  for (let i = 0; i < rounds; i++) {
    const t0 = performance.now();
    count = fn();
    best = Math.min(best, performance.now() - t0);
  }
  return { ms: best, count };
}

/** A linear walk with a Decoder; `limit` instructions at most. */
function linear(decoder: Decoder, bytes: Uint8Array, vaddr: number, step: number, limit = Infinity): number {
  const d = newDecoded();
  let n = 0;
  for (let off = 0; off < bytes.length && n < limit; n++) {
    off += decoder.decode(bytes, off, vaddr + off, d) ? d.length : step;
  }
  return n;
}

/** Bytes covered by the first `count` instructions (for MB/s of sampled runs). */
function bytesOf(decoder: Decoder, bytes: Uint8Array, vaddr: number, step: number, count: number): number {
  const d = newDecoded();
  let off = 0;
  for (let n = 0; off < bytes.length && n < count; n++)
    off += decoder.decode(bytes, off, vaddr + off, d) ? d.length : step;
  return off;
}

function objdumpTime(cmd: string, file: string): number | null {
  const devNull = openSync('/dev/null', 'w');
  try {
    let best = Infinity;
    for (let i = 0; i < ROUNDS; i++) {
      const t0 = performance.now();
      const r = spawnSync(cmd, ['-d', file], { stdio: ['ignore', devNull, 'ignore'] });
      if (r.status !== 0) return null;
      best = Math.min(best, performance.now() - t0);
    }
    return best;
  } finally {
    closeSync(devNull);
  }
}

const rows: Record<string, string | number>[] = [];
const row = (
  arch: string,
  backend: string,
  ms: number,
  count: number,
  bytes: number,
  objdumpMs: number | null,
  note = '',
) =>
  rows.push({
    arch,
    backend,
    insns: count,
    ms: ms.toFixed(1),
    'M insn/s': (count / ms / 1000).toFixed(2),
    'MB/s': (bytes / ms / 1000).toFixed(1),
    'ns/insn': ((ms * 1e6) / count).toFixed(0),
    'time vs objdump -d': objdumpMs
      ? `${((ms / objdumpMs) * (note ? bytesTotal / bytes : 1)).toFixed(3)}×${note}`
      : 'n/a',
  });
let bytesTotal = 0;

for (const target of TARGETS) {
  const entry = largest(target.arch);
  if (!entry) continue;
  const file = readCorpus(entry);
  const { bytes, vaddr } = textSection(file);
  bytesTotal = bytes.length;
  const step = target.mode === 'thumb' ? 2 : target.mode.startsWith('x86') ? 1 : 4;
  const objdump = objdumpFor(OBJDUMP_ARCH[target.arch] ?? target.arch);
  const objdumpMs = objdump ? objdumpTime(objdump, path.join(CORPUS, entry.path)) : null;
  console.log(
    `${target.arch}: ${path.basename(entry.path)}, .text ${(bytes.length / 1e6).toFixed(2)} MB` +
      (objdumpMs ? `, objdump -d ${objdumpMs.toFixed(0)} ms` : ', no objdump for it'),
  );

  const engine = await createDecoder(target.mode);
  const e = time(() => linear(engine, bytes, vaddr, step));
  row(target.arch, `engine (${target.mode})`, e.ms, e.count, bytes.length, objdumpMs);

  if (target.capstone) {
    const sampled = ` (extrapolated from ${SAMPLE / 1000}k)`;
    const sampleBytes = bytesOf(engine, bytes, vaddr, step, SAMPLE);
    const reference = await createCapstoneDecoder(target.capstone);
    const perInsn = time(() => linear(reference, bytes, vaddr, step, SAMPLE), 1);
    row(target.arch, 'capstone detail, 1 call/insn', perInsn.ms, perInsn.count, sampleBytes, objdumpMs, sampled);
    const batched = time(() => {
      let n = 0;
      reference.decodeRange(bytes, 0, bytes.length, vaddr, () => n++);
      return n;
    }, 1);
    row(target.arch, 'capstone detail, batched 4 KiB', batched.ms, batched.count, bytes.length, objdumpMs);
    const module = await loadCapstoneModule();
    const plain = new CapstoneHandle(module, target.capstone, false);
    const noDetail = time(() => {
      let n = 0;
      for (let off = 0; off < bytes.length;) {
        const len = Math.min(4096, bytes.length - off);
        let used = 0;
        const k = plain.disasm(bytes, off, len, vaddr + off, 0, (insn) => (used += plain.length(insn)));
        n += k;
        off += k === 0 ? step : used;
      }
      return n;
    }, 1);
    row(target.arch, 'capstone no detail, batched', noDetail.ms, noDetail.count, bytes.length, objdumpMs);
    const noDetailPerInsn = time(() => {
      let n = 0;
      for (let off = 0; off < bytes.length && n < SAMPLE; n++) {
        let used = step;
        plain.disasm(
          bytes,
          off,
          Math.min(4, bytes.length - off),
          vaddr + off,
          1,
          (insn) => (used = plain.length(insn)),
        );
        off += used;
      }
      return n;
    }, 1);
    row(
      target.arch,
      'capstone no detail, 1 call/insn',
      noDetailPerInsn.ms,
      noDetailPerInsn.count,
      sampleBytes,
      objdumpMs,
      sampled,
    );
    const wrapperArch = target.capstone === 'arm64' ? Const.CS_ARCH_ARM64 : Const.CS_ARCH_ARM;
    const wrapperMode = target.capstone === 'thumb' ? Const.CS_MODE_THUMB | Const.CS_MODE_V8 : Const.CS_MODE_ARM;
    const wrapper = new Capstone(wrapperArch, wrapperMode);
    const api = time(() => {
      let n = 0;
      for (let off = 0; off < bytes.length && n < SAMPLE; n++) {
        try {
          const [insn] = wrapper.disasm(bytes.subarray(off, off + 4), { address: vaddr + off, count: 1 });
          off += insn?.size ?? step;
        } catch {
          off += step;
        }
      }
      return n;
    }, 1);
    row(target.arch, 'capstone-wasm API disasm(), 1 call/insn', api.ms, api.count, sampleBytes, objdumpMs, sampled);
  }
}

console.table(rows);
console.log(
  'time vs objdump -d: decoding time / objdump -d time on the same file (objdump output to /dev/null, best of ' +
    `${ROUNDS}). Sampled rows are scaled to the whole .text.`,
);
