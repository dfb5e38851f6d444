// The ELF parser against the developer corpus and its ground truth (../shared/corpus, see its README).
// Skipped with a message when the corpus is not there.
import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import type { BinaryImage } from '../image.js';
import { parseElfDetailed } from './parse-elf.js';

const CORPUS = path.resolve(process.cwd(), '..', 'shared', 'corpus');

interface Entry {
  path: string;
  size: number;
  format: string;
  arch: string;
  kind: string;
  stripped: boolean;
  unstripped_counterpart: string | null;
  truth: string | null;
  elf_type?: string;
}

interface TruthFunction {
  name: string;
  address: string;
  thumb?: boolean;
}

function corpus(t: TestContext): Entry[] | null {
  if (!existsSync(path.join(CORPUS, 'manifest.json'))) {
    t.skip(`${CORPUS} absent`);
    return null;
  }
  const manifest = JSON.parse(readFileSync(path.join(CORPUS, 'manifest.json'), 'utf8')) as { binaries: Entry[] };
  return manifest.binaries.filter((e) => e.format === 'ELF');
}

const parsed = new Map<string, ReturnType<typeof parseElfDetailed>>();
function parse(e: Entry): ReturnType<typeof parseElfDetailed> {
  let p = parsed.get(e.path);
  if (!p) {
    p = parseElfDetailed(new Uint8Array(readFileSync(path.join(CORPUS, e.path))));
    parsed.set(e.path, p);
  }
  return p;
}

function truthOf(e: Entry): TruthFunction[] {
  return (JSON.parse(readFileSync(path.join(CORPUS, e.truth!), 'utf8')) as { functions: TruthFunction[] }).functions;
}

const name = (e: Entry): string => path.basename(e.path);
const inExec = (image: BinaryImage, a: number): boolean =>
  image.sections.some((s) => s.exec && a >= s.vaddr && a < s.vaddr + s.size);

// Truth addresses are the symbols' values exactly (odd x86 `.cold` parts included); only ARM's Thumb bit is
// cleared, as the parser clears it.
test('corpus: .symtab functions of every unstripped ELF are the truth functions', (t) => {
  const entries = corpus(t)?.filter((e) => !e.stripped && e.truth);
  if (!entries) return;
  for (const e of entries) {
    const { image } = parse(e);
    const truth = truthOf(e);
    const mine = image.symbols.filter(
      (s) => s.source === 'symtab' && s.kind === 'function' && s.vaddr !== 0 && inExec(image, s.vaddr),
    );
    const key = (n: string, a: number): string => `${n}@${a}`;
    const mineKeys = new Set(mine.map((s) => key(s.name, s.vaddr)));
    const truthKeys = new Set(truth.map((f) => key(f.name, parseInt(f.address, 16))));
    assert.deepEqual(
      [...truthKeys].filter((k) => !mineKeys.has(k)),
      [],
      `${name(e)}: truth functions missing`,
    );
    assert.deepEqual(
      [...mineKeys].filter((k) => !truthKeys.has(k)),
      [],
      `${name(e)}: functions not in the truth`,
    );
    const mineAddrs = new Set(mine.map((s) => s.vaddr));
    assert.deepEqual(new Set(truth.map((f) => parseInt(f.address, 16))), mineAddrs, `${name(e)}: address sets`);
    if (e.arch === 'arm') {
      const thumb = new Set(mine.filter((s) => s.thumb).map((s) => s.name));
      for (const f of truth) assert.equal(thumb.has(f.name), f.thumb === true, `${name(e)}: Thumb flag of ${f.name}`);
    }
  }
  t.diagnostic(`${entries.length} unstripped ELF files match their truth`);
});

const LIBC = ['__libc_start_main', 'malloc', 'free', 'memcpy', 'memset', 'printf'];
const PLT_ARCHES = new Set(['x86_64', 'i386', 'aarch64', 'arm']);
const PLT_SECTIONS = new Set(['.plt', '.plt.got', '.plt.sec']);

test('corpus: stripped ELF files keep imports, PLT stubs, unwind ranges and hardening flags', (t) => {
  const all = corpus(t);
  if (!all) return;
  const byPath = new Map(all.map((e) => [e.path, e]));
  const shares: string[] = [];
  for (const e of all.filter((x) => x.stripped && x.unstripped_counterpart)) {
    const { image, jumpSlots } = parse(e);
    const twin = parse(byPath.get(e.unstripped_counterpart!)!).image;
    const label = name(e);
    const names = new Set(image.imports.map((i) => i.name));
    for (const n of e.kind === 'sample' ? ['__libc_start_main'] : LIBC)
      assert.ok(names.has(n), `${label}: imports ${n}`);
    assert.deepEqual(image.imports, twin.imports, `${label}: same imports as the unstripped twin`);
    assert.equal(image.symbols.filter((s) => s.source === 'symtab').length, 0, `${label}: no .symtab`);

    if (PLT_ARCHES.has(e.arch)) {
      const slots = new Set(jumpSlots);
      const unstubbed = image.imports.filter((i) => slots.has(i.slot) && i.stubs.length === 0).map((i) => i.name);
      assert.deepEqual(unstubbed, [], `${label}: every JUMP_SLOT import has a PLT stub`);
      assert.ok(image.unwind.length > 0, `${label}: unwind ranges`);
      // Every unwind start is a truth function, except the linker's FDEs for .plt and .plt.got.
      const truth = new Set(truthOf(e).map((f) => parseInt(f.address, 16)));
      const hits = image.unwind.filter((u) => truth.has(u.start));
      const plt = image.unwind.filter((u) => {
        const sec = image.sections.find((s) => s.exec && u.start >= s.vaddr && u.start < s.vaddr + s.size);
        return sec !== undefined && PLT_SECTIONS.has(sec.name);
      });
      assert.equal(hits.length + plt.length, image.unwind.length, `${label}: unwind starts outside truth and PLT`);
      shares.push(
        `${label}: ${hits.length}/${image.unwind.length} unwind starts are truth functions (${plt.length} PLT FDEs)`,
      );
    }

    if (e.elf_type === 'DYN') {
      const s = image.security;
      assert.equal(s.pie, true, `${label}: pie`);
      // mipsel: the MIPS toolchain still asks for an executable stack (PT_GNU_STACK RWE) and emits no RELRO.
      assert.equal(s.nx, e.arch !== 'mips', `${label}: nx`);
      assert.equal(s.relro, e.arch === 'mips' ? 'none' : 'partial', `${label}: relro`);
    }
    assert.deepEqual(image.diagnostics, [], `${label}: diagnostics`);
  }
  for (const line of shares) t.diagnostic(line);
});

test('corpus: busybox-static parses as a static executable', (t) => {
  const all = corpus(t);
  if (!all) return;
  const boxes = all.filter((e) => e.path.includes('busybox'));
  assert.ok(boxes.length > 0);
  for (const e of boxes) {
    const { image } = parse(e);
    assert.equal(image.identity.dynamic, false);
    assert.deepEqual(image.imports, []);
    assert.deepEqual(image.libraries, []);
    assert.ok(image.unwind.length > 1000, `${name(e)}: ${image.unwind.length} unwind ranges`);
    assert.ok(image.pointers.length > 0, `${name(e)}: IRELATIVE pointers`);
    assert.ok(image.entryPoints.some((p) => p.kind === 'entry'));
    assert.equal(image.security.pie, false);
    assert.equal(image.security.nx, true);
    assert.match(image.debug.buildId ?? '', /^[0-9a-f]{40}$/);
    assert.deepEqual(image.diagnostics, []);
  }
});

test('corpus: the largest ELF files parse in well under 100 ms', (t) => {
  const all = corpus(t);
  if (!all) return;
  const largest = [...all].sort((a, b) => b.size - a.size).slice(0, 4);
  for (const e of largest) {
    const bytes = new Uint8Array(readFileSync(path.join(CORPUS, e.path)));
    const times: number[] = [];
    for (let i = 0; i < 5; i++) {
      const start = performance.now();
      parseElfDetailed(bytes);
      times.push(performance.now() - start);
    }
    const best = Math.min(...times);
    t.diagnostic(
      `${name(e)} (${(e.size / 1e6).toFixed(2)} MB): first ${times[0]!.toFixed(1)} ms, best ${best.toFixed(1)} ms`,
    );
    assert.ok(best < 100, `${name(e)} took ${best.toFixed(1)} ms`);
  }
});
