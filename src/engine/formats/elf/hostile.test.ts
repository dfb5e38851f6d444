// Hostile input: truncations, random bit flips and targeted damage to header fields and tables. Whatever
// the bytes, parseElf returns a sane image (or throws FormatError when no ELF header is left) within 1 s.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { FormatError } from '../errors.js';
import type { BinaryImage } from '../image.js';
import { Diagnostics } from './diagnostics.js';
import { cpuTimed, seededRandom } from '../../../../test/helpers/engine/formats.js';
import { DataBuilder, buildElf } from '../../../../test/helpers/engine/elf.js';
import { readHeaders } from './headers.js';
import { parseElf } from './index.js';
import { sampleProgram, type ProgramSpec } from '../../../../test/helpers/engine/sample-program.js';
import { MAX_NAME } from './view.js';

const CORPUS = path.resolve(process.cwd(), '..', 'shared', 'corpus');
const TIME_LIMIT_MS = 1000;

const finite = (n: number): boolean => Number.isFinite(n) && n >= 0;
/** Addresses must be exact: past 2^53 one number stands for several (BinaryImage keeps them below). */
const exact = (n: number): boolean => Number.isSafeInteger(n) && n >= 0;

function assertSane(image: BinaryImage, length: number, label: string): void {
  for (const s of image.sections) {
    assert.ok(exact(s.vaddr) && finite(s.size) && finite(s.fileOffset), `${label}: section numbers`);
    if (s.fileSize > 0) assert.ok(s.fileOffset + s.fileSize <= length, `${label}: section ${s.name} inside the file`);
  }
  for (const s of image.segments)
    if (s.fileSize > 0) assert.ok(s.fileOffset + s.fileSize <= length, `${label}: segment inside the file`);
  for (const s of image.symbols)
    assert.ok(exact(s.vaddr) && s.name.length > 0 && s.name.length <= MAX_NAME, `${label}: symbol`);
  for (const i of image.imports)
    assert.ok(exact(i.slot) && i.stubs.every(exact) && i.name.length <= MAX_NAME, `${label}: import`);
  for (const p of image.pointers) assert.ok(exact(p.at) && exact(p.target), `${label}: pointer`);
  for (const u of image.unwind) assert.ok(exact(u.start) && exact(u.end) && u.end >= u.start, `${label}: unwind range`);
  for (const e of image.entryPoints) assert.ok(exact(e.vaddr), `${label}: entry point`);
  if (image.overlay)
    assert.ok(image.overlay.offset + image.overlay.size === length && image.overlay.size > 0, `${label}: overlay`);
  assert.ok(image.diagnostics.length <= 101, `${label}: diagnostics are capped`);
  const internal = image.diagnostics.filter((d) => d.startsWith('internal error'));
  assert.deepEqual(internal, [], `${label}: a stage failed`);
  assert.doesNotThrow(() => JSON.stringify({ ...image, bytes: undefined }), `${label}: plain data`);
}

/** Parse, and hold the outcome to the contract: a sane image or a FormatError, in bounded time. */
function survive(bytes: Uint8Array, label: string): BinaryImage | null {
  const { value: image, ms } = cpuTimed((): BinaryImage | null => {
    try {
      return parseElf(bytes);
    } catch (err) {
      assert.ok(err instanceof FormatError, `${label}: threw ${String(err)}`);
      return null;
    }
  });
  assert.ok(ms < TIME_LIMIT_MS, `${label}: took ${ms.toFixed(0)} ms of CPU`);
  if (image) assertSane(image, bytes.length, label);
  return image;
}

function mutate(bytes: Uint8Array, rand: () => number): Uint8Array {
  const out = bytes.slice();
  const edits = 1 + Math.floor(rand() * 8);
  for (let i = 0; i < edits; i++) {
    // Mostly the header tables (where damage reaches furthest), sometimes anywhere.
    const span = rand() < 0.6 ? Math.min(out.length, 0x400) : out.length;
    const at = Math.floor(rand() * span);
    if (rand() < 0.5) out[at] = out[at]! ^ (1 << Math.floor(rand() * 8));
    else for (let k = 0; k < 4 && at + k < out.length; k++) out[at + k] = Math.floor(rand() * 256);
  }
  return out;
}

const SPECS: ProgramSpec[] = [
  { bits: 64, little: true, machine: 62 },
  { bits: 32, little: false, machine: 20 },
  { bits: 32, little: true, machine: 40, thumb: true },
];

function smallCorpusFiles(): string[] {
  const names = [
    'bin/samples/sample-net_beacon_linux-x86_64_gcc12_O2_stripped',
    'bin/lz4/lz4-1.10.0_linux-armhf_gcc12_O2_stripped',
  ];
  return names.map((n) => path.join(CORPUS, n)).filter((f) => existsSync(f));
}

test('hostile: truncation at many lengths', (t) => {
  const inputs = SPECS.map((s) => ({ label: `synthetic ${s.bits}-bit machine ${s.machine}`, bytes: sampleProgram(s) }));
  for (const f of smallCorpusFiles()) inputs.push({ label: path.basename(f), bytes: new Uint8Array(readFileSync(f)) });
  if (inputs.length === SPECS.length) t.diagnostic(`${CORPUS} absent: synthetic inputs only`);
  let runs = 0;
  for (const { label, bytes } of inputs) {
    const step = Math.max(1, Math.floor(bytes.length / 300));
    for (let n = 0; n <= bytes.length; n += n < 256 ? 1 : step, runs++)
      survive(bytes.subarray(0, n), `${label} cut at ${n}`);
  }
  t.diagnostic(`${runs} truncated inputs`);
});

test('hostile: 300 seeded random mutations per input', (t) => {
  const inputs = SPECS.map((s) => sampleProgram(s));
  for (const f of smallCorpusFiles()) inputs.push(new Uint8Array(readFileSync(f)));
  const rand = seededRandom(0x5eed);
  let parsed = 0;
  for (const [k, bytes] of inputs.entries()) {
    for (let i = 0; i < 300; i++) if (survive(mutate(bytes, rand), `input ${k} mutation ${i}`)) parsed++;
  }
  t.diagnostic(`${parsed} of ${inputs.length * 300} mutants still parsed`);
});

/** Field offsets of a section header or of the ELF header, for targeted damage. */
function layout(bytes: Uint8Array) {
  const { header, sections } = readHeaders(bytes, new Diagnostics());
  const is64 = header.is64;
  const sh = (name: string): number => {
    const s = sections.find((x) => x.name === name);
    assert.ok(s, name);
    return header.shoff + s.index * header.shentsize;
  };
  const F = is64
    ? {
        addr: 16,
        offset: 24,
        size: 32,
        link: 40,
        entsize: 56,
        phnum: 56,
        shnum: 60,
        shstrndx: 62,
        shoff: 40,
        phentsize: 54,
        shentsize: 58,
      }
    : {
        addr: 12,
        offset: 16,
        size: 20,
        link: 24,
        entsize: 36,
        phnum: 44,
        shnum: 48,
        shstrndx: 50,
        shoff: 32,
        phentsize: 42,
        shentsize: 46,
      };
  const dynamic = sections.find((s) => s.name === '.dynamic')!;
  return { is64, little: header.little, sh, F, dynamic, sections };
}

function poke(bytes: Uint8Array, at: number, size: 1 | 2 | 4 | 8, value: number | bigint, little: boolean): Uint8Array {
  const out = bytes.slice();
  const dv = new DataView(out.buffer);
  if (size === 1) dv.setUint8(at, Number(value));
  else if (size === 2) dv.setUint16(at, Number(value), little);
  else if (size === 4) dv.setUint32(at, Number(value), little);
  else dv.setBigUint64(at, BigInt(value), little);
  return out;
}

type Damage = (b: Uint8Array) => Uint8Array;
const wordPoke =
  (at: (b: Uint8Array) => number, value: number | bigint): Damage =>
  (b) => {
    const l = layout(b);
    return poke(b, at(b), l.is64 ? 8 : 4, l.is64 ? value : BigInt.asUintN(32, BigInt(value)), l.little);
  };
const u16Poke =
  (field: 'phnum' | 'shnum' | 'shstrndx' | 'phentsize' | 'shentsize', value: number): Damage =>
  (b) => {
    const l = layout(b);
    return poke(b, l.F[field], 2, value, l.little);
  };
const shField =
  (name: string, field: 'addr' | 'offset' | 'size' | 'entsize' | 'link', value: number | bigint): Damage =>
  (b) => {
    const l = layout(b);
    const at = l.sh(name) + l.F[field];
    if (field === 'link') return poke(b, at, 4, value, l.little);
    return poke(b, at, l.is64 ? 8 : 4, l.is64 ? value : BigInt.asUintN(32, BigInt(value)), l.little);
  };
/** Overwrite dynamic entry `index` (tag and value) in place. */
const dynEntry =
  (index: number, tag: number, value: number | bigint): Damage =>
  (b) => {
    const l = layout(b);
    const w = l.is64 ? 8 : 4;
    const at = l.dynamic.offset + index * 2 * w;
    const size = l.is64 ? 8 : 4;
    const v = l.is64 ? BigInt(value) : BigInt.asUintN(32, BigInt(value));
    return poke(poke(b, at, size, tag, l.little), at + w, size, v, l.little);
  };
const lastDynamic = (b: Uint8Array): number => {
  const l = layout(b);
  return l.dynamic.fileBytes / (l.is64 ? 16 : 8) - 1;
};
const HUGE = 0xffff_ffff_ffff_fff0n;

const DAMAGE: { label: string; damage: Damage; check?: (image: BinaryImage | null) => void }[] = [
  { label: 'e_shnum = 65535', damage: u16Poke('shnum', 65535) },
  { label: 'e_phnum = PN_XNUM with no extended count', damage: u16Poke('phnum', 0xffff) },
  {
    label: 'e_shnum = 0 with section 0 claiming 2^32-1 sections',
    damage: (b) => {
      const l = layout(b);
      const sh0 = readHeaders(b, new Diagnostics()).header.shoff;
      return poke(u16Poke('shnum', 0)(b), sh0 + l.F.size, 4, 0xffffffff, l.little);
    },
  },
  { label: 'e_shoff past the end of the file', damage: wordPoke((b) => layout(b).F.shoff, 0x7fff_ffff) },
  { label: 'e_shstrndx out of range', damage: u16Poke('shstrndx', 999) },
  { label: 'e_phentsize = 1', damage: u16Poke('phentsize', 1) },
  { label: 'e_shentsize = 0', damage: u16Poke('shentsize', 0) },
  {
    // Fuzz finding: .text at 2^63 reached function recovery, whose region search then lost an address.
    label: '.text sh_addr 2^63 (dropped: no address past 2^53)',
    damage: shField('.text', 'addr', 1n << 63n),
    check: (image) => {
      assert.ok(image);
      // A 32-bit sh_addr holds only the low half: 0, a valid address.
      if (image.identity.bits === 64) {
        assert.ok(image.diagnostics.some((d) => d.includes('2^53')));
        assert.ok(!image.sections.some((s) => s.name === '.text'));
      }
    },
  },
  { label: '.symtab sh_size huge', damage: shField('.symtab', 'size', HUGE) },
  { label: '.symtab sh_offset past EOF', damage: shField('.symtab', 'offset', 0x7fff_0000) },
  {
    label: '.symtab sh_entsize 0 (repaired to the standard size)',
    damage: shField('.symtab', 'entsize', 0),
    check: (image) => assert.ok(image?.symbols.some((s) => s.name === 'local_fn')),
  },
  {
    label: '.symtab linked to itself as string table',
    damage: (b) => shField('.symtab', 'link', layout(b).sections.find((s) => s.name === '.symtab')!.index)(b),
  },
  { label: '.dynsym sh_size huge', damage: shField('.dynsym', 'size', HUGE) },
  {
    label: '.rela.dyn/.rel.dyn sh_entsize 1',
    damage: (b) =>
      shField(layout(b).sections.some((s) => s.name === '.rela.dyn') ? '.rela.dyn' : '.rel.dyn', 'entsize', 1)(b),
  },
  {
    label: 'dynamic table without DT_NULL',
    damage: (b) => dynEntry(lastDynamic(b), 21, 0)(b),
    check: (image) => assert.ok(image?.diagnostics.some((d) => d.includes('DT_NULL'))),
  },
  { label: 'DT_NEEDED name offset huge', damage: dynEntry(0, 1, HUGE) },
  { label: 'DT_INIT_ARRAYSZ huge', damage: dynEntry(3, 27, HUGE) },
  {
    label: 'DT_INIT_ARRAY pointing at the dynamic table itself',
    damage: (b) => dynEntry(2, 25, layout(b).dynamic.addr)(b),
  },
  {
    label: 'DT_RELR over the whole of .text (odd bitmap words)',
    damage: (b) => dynEntry(lastDynamic(b) - 1, 36, 0x11000)(dynEntry(lastDynamic(b) - 2, 35, 0x100)(b)),
  },
  {
    label: 'DT_RELR with a huge size',
    damage: (b) => dynEntry(lastDynamic(b) - 1, 36, 0x10800)(dynEntry(lastDynamic(b) - 2, 35, HUGE)(b)),
  },
  { label: 'DT_JMPREL/PLTRELSZ huge', damage: (b) => dynEntry(14, 2, HUGE)(b) },
  {
    label: 'every section at offset 0 covering the file',
    damage: (b) => layout(b).sections.reduce((acc, s) => (s.index === 0 ? acc : shField(s.name, 'offset', 0)(acc)), b),
  },
  {
    label: 'no section headers (e_shoff = 0): dynsym from DT_SYMTAB, PLT found by scanning',
    damage: (b) => u16Poke('shnum', 0)(wordPoke((x) => layout(x).F.shoff, 0)(b)),
    check: (image) => {
      assert.ok(image);
      assert.deepEqual(image.sections, []);
      assert.ok(
        image.imports.some((i) => i.name === 'printf'),
        'imports via DT_SYMTAB',
      );
    },
  },
  {
    label: '.eh_frame length field 0xffffffff with a huge 64-bit length',
    damage: (b) =>
      poke(b, layout(b).sections.find((s) => s.name === '.eh_frame')!.offset, 4, 0xffffffff, layout(b).little),
  },
  {
    label: '.note namesz huge',
    damage: (b) =>
      poke(b, layout(b).sections.find((s) => s.name === '.note.gnu.build-id')!.offset, 4, 0xfffffff0, layout(b).little),
  },
];

for (const { label, damage, check } of DAMAGE) {
  test(`hostile: ${label}`, () => {
    for (const spec of SPECS) {
      const image = survive(damage(sampleProgram(spec)), `${label} (${spec.bits}-bit machine ${spec.machine})`);
      check?.(image);
    }
  });
}

/**
 * Append `count` copies of section `name`'s header, each covering the whole file at a different address:
 * per-section work that is not bounded overall (or is quadratic in the section count) shows up as time.
 */
function duplicateSection(bytes: Uint8Array, name: string, count: number): Uint8Array {
  const { header, sections } = readHeaders(bytes, new Diagnostics());
  const l = layout(bytes);
  const src = sections.find((s) => s.name === name)!;
  const entry = header.shentsize;
  const table = new Uint8Array((header.shnum + count) * entry);
  table.set(bytes.subarray(header.shoff, header.shoff + header.shnum * entry));
  const dv = new DataView(table.buffer);
  const setWord = (at: number, v: number): void =>
    l.is64 ? dv.setBigUint64(at, BigInt(v), l.little) : dv.setUint32(at, v, l.little);
  for (let i = 0; i < count; i++) {
    const at = (header.shnum + i) * entry;
    table.copyWithin(at, src.index * entry, (src.index + 1) * entry);
    setWord(at + l.F.offset, 0);
    setWord(at + l.F.size, bytes.length);
    setWord(at + (l.is64 ? 16 : 12), 0x10000 + i * 8);
  }
  const out = new Uint8Array(bytes.length + table.length);
  out.set(bytes);
  out.set(table, bytes.length);
  const moved = poke(out, l.F.shoff, l.is64 ? 8 : 4, l.is64 ? BigInt(bytes.length) : bytes.length, l.little);
  return poke(moved, l.F.shnum, 2, header.shnum + count, l.little);
}

const DUPLICATED = ['.plt', '.symtab', '.init_array', '.note.gnu.build-id', '.eh_frame', '.dynamic', '.text'];

for (const name of DUPLICATED) {
  test(`hostile: 20000 copies of the ${name} section header covering the whole file`, () => {
    for (const spec of SPECS)
      survive(duplicateSection(sampleProgram(spec), name, 20000), `${name} x20000 (${spec.bits}-bit)`);
  });
}

test('hostile: 20000 allocated relocation sections covering the whole file', () => {
  for (const spec of SPECS) {
    const bytes = sampleProgram(spec);
    const rel = layout(bytes).sections.find((s) => s.name.startsWith('.rel') && s.name.endsWith('.dyn'))!.name;
    survive(duplicateSection(bytes, rel, 20000), `${rel} x20000`);
  }
});

const NAME_CASES: { label: string; offset: (i: number) => number; budgetHit: boolean }[] = [
  // Each distinct offset decodes once, but the names kept still count: 120k x 4 KiB passes the budget.
  { label: '120k symbols cycling over 4096 offsets', offset: (i) => 1 + (i % 4096), budgetHit: true },
  // Every symbol a new 4 KiB suffix of one long run: 480 M characters if all were kept in full.
  { label: '120k symbols at 120k distinct offsets', offset: (i) => 1 + i, budgetHit: true },
];

for (const { label, offset, budgetHit } of NAME_CASES) {
  test(`hostile: string table of overlapping 4 KiB names, ${label}`, () => {
    const count = 120_000;
    const strtab = new Uint8Array(count + 8192).fill(0x41);
    const symtab = new DataBuilder(true, true);
    for (let i = 0; i < count; i++) symtab.u32(offset(i)).u8(0x12).u8(0).u16(1).u64(0x11000).u64(1);
    const bytes = buildElf({
      bits: 64,
      little: true,
      machine: 62,
      sections: [
        { name: '.text', type: 1, flags: 6, addr: 0x11000, data: new Uint8Array(16) },
        { name: '.symtab', type: 2, data: symtab.bytes(), link: '.strtab', entsize: 24 },
        { name: '.strtab', type: 3, data: strtab },
      ],
    });
    const image = survive(bytes, label);
    assert.equal(image?.symbols.length, count - 1);
    assert.equal(
      image.diagnostics.some((d) => d.includes('name budget')),
      budgetHit,
    );
  });
}
