// Hostile and damaged DWARF: offsets past the ends of sections, truncations, cycles, unknown codes and
// forms, endless LEB128, limits. Whatever the bytes, readDwarfTypes returns (never throws, never hangs),
// says what it met in its diagnostics and keeps what it could read.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  abbrevTable,
  elfWithSections,
  unitLayout,
  type AbbrevSpec,
  type DieSpec,
} from '../../../../test/helpers/engine/dwarf.js';
import { cpuTimed, seededRandom } from '../../../../test/helpers/engine/formats.js';
import { corpusFile } from '../../../../test/helpers/engine/fuzzy.js';
import { formatType } from '../ctype.js';
import type { BinaryImage } from '../../formats/image.js';
import { parseBinary } from '../../formats/parse.js';
import { AT, ATE, FORM, TAG } from './constants.js';
import { readDwarfTypes, type DwarfLimits, type DwarfTypes } from './index.js';

const ABBREVS: AbbrevSpec[] = [
  { tag: TAG.compile_unit, children: true, attrs: [[AT.name, FORM.string]] },
  /* 2 */ {
    tag: TAG.base_type,
    attrs: [
      [AT.name, FORM.string],
      [AT.byte_size, FORM.data1],
      [AT.encoding, FORM.data1],
    ],
  },
  /* 3 */ {
    tag: TAG.typedef,
    attrs: [
      [AT.name, FORM.string],
      [AT.type, FORM.ref4],
    ],
  },
  {
    /* 4 */ tag: TAG.subprogram,
    attrs: [
      [AT.name, FORM.string],
      [AT.low_pc, FORM.addr],
      [AT.high_pc, FORM.data4],
      [AT.type, FORM.ref4],
    ],
  },
  /* 5 */ {
    tag: TAG.pointer_type,
    attrs: [
      [AT.byte_size, FORM.data1],
      [AT.type, FORM.ref4],
    ],
  },
  /* 6 */ { tag: TAG.lexical_block, children: true, attrs: [] },
  /* 7 */ {
    tag: TAG.base_type,
    attrs: [
      [AT.name, FORM.string],
      [AT.byte_size, FORM.udata],
      [AT.encoding, FORM.data1],
    ],
  },
  /* 8 */ {
    tag: TAG.variable,
    attrs: [
      [AT.name, FORM.string],
      [0x3fe1, 0x7f],
    ],
  },
];

const INT: DieSpec = { abbrev: 2, label: 'int', values: ['int', 4, ATE.signed] };
const fn = (name: string, at: number, type = 'int'): DieSpec => ({
  abbrev: 4,
  label: name,
  values: [name, at, 0x10, { ref: type }],
});

interface Built {
  info: Uint8Array;
  labels: Map<string, number>;
}

function unit(children: DieSpec[], abbrevOffset = 0): Built {
  const { bytes, labels } = unitLayout({
    version: 4,
    abbrevs: ABBREVS,
    abbrevOffset,
    root: { abbrev: 1, values: ['hostile.c'], children },
  });
  return { info: bytes, labels };
}

const imageOf = (info: Uint8Array, abbrev = abbrevTable(ABBREVS)): BinaryImage =>
  elfWithSections({ '.debug_info': info, '.debug_abbrev': abbrev });

/** Reads within the CPU budget a hostile input may cost, and holds the result to its contract. */
function survive(image: BinaryImage, label: string, limits: Partial<DwarfLimits> = {}): DwarfTypes | null {
  const { value, ms } = cpuTimed(() => readDwarfTypes(image, limits));
  assert.ok(ms < 1000, `${label}: took ${ms.toFixed(0)} ms of CPU`);
  if (value) {
    for (const [at, f] of value.functions) {
      assert.ok(Number.isSafeInteger(at) && at === f.address, `${label}: function address`);
      assert.ok(f.size >= 0, `${label}: function size`);
    }
    assert.ok(value.diagnostics.length <= 101, `${label}: diagnostics are capped`);
    assert.deepEqual(
      value.diagnostics.filter((d) => d.startsWith('internal error')),
      [],
      `${label}: a fault escaped the format checks`,
    );
  }
  return value;
}

const has = (dwarf: DwarfTypes | null, text: string): boolean => !!dwarf?.diagnostics.some((d) => d.includes(text));

test('hostile: an abbreviation offset past .debug_abbrev', () => {
  const dwarf = survive(imageOf(unit([INT, fn('f', 0x1000)], 0x10_0000).info), 'abbrev offset');
  assert.ok(has(dwarf, 'outside .debug_abbrev'), String(dwarf?.diagnostics));
  assert.equal(dwarf?.functions.size, 0);
});

test('hostile: a type reference past the end of .debug_info reads as void', () => {
  const dwarf = survive(imageOf(unit([INT, { abbrev: 3, values: ['far', 0xf_fff0] }]).info), 'far reference');
  assert.ok(has(dwarf, 'names no DIE'), String(dwarf?.diagnostics));
  assert.equal(formatType(dwarf!.typedefs.get('far')!), 'void');
});

test('hostile: a unit longer than its section keeps the DIEs before the cut', () => {
  const { info, labels } = unit([INT, fn('f', 0x1000), fn('g', 0x2000), fn('h', 0x3000)]);
  // Cut in the middle of `g`: `f` is read, the unit is reported, nothing throws.
  const cut = info.subarray(0, labels.get('g')! + 5);
  const dwarf = survive(imageOf(cut), 'truncated');
  assert.ok(has(dwarf, 'runs past the section'), String(dwarf?.diagnostics));
  assert.deepEqual([...dwarf!.functions.keys()], [0x1000]);
});

test('hostile: self-referential typedef and pointer chains end with a diagnostic', () => {
  const { info } = unit([
    INT,
    { abbrev: 3, label: 'self', values: ['self_t', { ref: 'self' }] },
    { abbrev: 3, label: 'b', values: ['b_t', { ref: 'c' }] },
    { abbrev: 3, label: 'c', values: ['c_t', { ref: 'b' }] },
    { abbrev: 5, label: 'p', values: [8, { ref: 'q' }] },
    { abbrev: 5, label: 'q', values: [8, { ref: 'p' }] },
    { abbrev: 3, label: 'pp', values: ['pp_t', { ref: 'p' }] },
    fn('f', 0x1000, 'self'),
    fn('g', 0x2000, 'pp'),
  ]);
  const dwarf = survive(imageOf(info), 'cycles');
  assert.ok(has(dwarf, 'type cycle'), String(dwarf?.diagnostics));
  assert.equal(formatType(dwarf!.functions.get(0x1000)!.prototype.returns), 'self_t');
  assert.equal(formatType(dwarf!.typedefs.get('pp_t')!), 'void **');
});

test('hostile: an unknown abbreviation code ends the unit, keeping what came before', () => {
  const { info, labels } = unit([INT, fn('f', 0x1000), { ...INT, label: 'bad' }, fn('g', 0x2000)]);
  info[labels.get('bad')!] = 99;
  const dwarf = survive(imageOf(info), 'unknown code');
  assert.ok(has(dwarf, 'unknown abbreviation code 99'), String(dwarf?.diagnostics));
  assert.deepEqual([...dwarf!.functions.keys()], [0x1000]);
});

test('hostile: an unknown form and an endless LEB128 end the unit with a diagnostic', () => {
  const unknownForm = unit([INT, fn('f', 0x1000), { abbrev: 8, values: ['v'] }, fn('g', 0x2000)]);
  assert.ok(has(survive(imageOf(unknownForm.info), 'unknown form'), 'unknown form 0x7f'));
  const endless = new Uint8Array(12).fill(0x80);
  const leb = unit([INT, { abbrev: 7, values: ['wide', endless, ATE.signed] }]);
  assert.ok(has(survive(imageOf(leb.info), 'endless LEB128'), 'LEB128 longer than 10 bytes'));
});

test('hostile: the DIE budget and the nesting limit', () => {
  const many = unit([INT, ...Array.from({ length: 50 }, (_, i) => fn(`f${i}`, 0x1000 + i * 0x10))]);
  const limited = survive(imageOf(many.info), 'DIE budget', { maxDies: 10 });
  assert.ok(has(limited, 'DIE limit 10 reached'), String(limited?.diagnostics));
  assert.equal(limited?.functions.size, 8);
  let nested: DieSpec = INT;
  for (let i = 0; i < 300; i++) nested = { abbrev: 6, children: [nested] };
  const deep = survive(imageOf(unit([nested]).info), 'nesting');
  assert.ok(has(deep, 'nested deeper than 256'), String(deep?.diagnostics));
});

test('hostile: compressed sections are reported, not misread', () => {
  const chdr = new Uint8Array(64);
  chdr[0] = 1; // ELFCOMPRESS_ZLIB
  const compressed = survive(imageOf(chdr), 'SHF_COMPRESSED');
  assert.ok(has(compressed, 'compressed DWARF'));
  const zdebug = survive(elfWithSections({ '.zdebug_info': Uint8Array.from([0x5a, 0x4c, 0x49, 0x42]) }), '.zdebug');
  assert.ok(has(zdebug, 'compressed DWARF'));
});

test('hostile: every truncation and 2000 random mutations of a small DWARF file', () => {
  const { info } = unit([
    INT,
    { abbrev: 3, label: 't', values: ['t', { ref: 'int' }] },
    { abbrev: 5, label: 'p', values: [8, { ref: 't' }] },
    fn('f', 0x1000, 'p'),
    { abbrev: 6, children: [fn('g', 0x2000)] },
  ]);
  const abbrev = abbrevTable(ABBREVS);
  for (let n = 0; n < info.length; n++) survive(imageOf(info.subarray(0, n)), `info cut at ${n}`);
  for (let n = 0; n < abbrev.length; n++) survive(imageOf(info, abbrev.subarray(0, n)), `abbrev cut at ${n}`);
  const rand = seededRandom(0xd3a7);
  for (let i = 0; i < 2000; i++) {
    const a = info.slice();
    const b = abbrev.slice();
    const target = rand() < 0.75 ? a : b;
    for (let k = 1 + Math.floor(rand() * 4); k > 0; k--)
      target[Math.floor(rand() * target.length)] = Math.floor(rand() * 256);
    survive(imageOf(a, b), `mutation ${i}`);
  }
});

test('hostile: random damage to a real twin’s .debug_info and .debug_abbrev', (t) => {
  const bytes = corpusFile(t, 'bin/lz4/lz4-1.10.0_linux-x86_64_gcc12_O2g');
  if (!bytes) return;
  const image = parseBinary(bytes);
  const sections = ['.debug_info', '.debug_abbrev', '.debug_line', '.debug_str'].map((name) =>
    image.sections.find((s) => s.name === name)!,
  );
  const rand = seededRandom(0x1234);
  for (let i = 0; i < 24; i++) {
    const copy = bytes.slice();
    const s = sections[i % sections.length]!;
    for (let k = 0; k < 1 + Math.floor(rand() * 16); k++)
      copy[s.fileOffset + Math.floor(rand() * s.fileSize)] = Math.floor(rand() * 256);
    survive({ ...image, bytes: copy }, `${s.name} damage ${i}`);
  }
  // A file whose DWARF was cut short (a partial download): the units before the cut are read.
  const info = sections[0]!;
  const cut = { ...image, sections: image.sections.map((s) => (s === info ? { ...s, fileSize: s.fileSize >> 1 } : s)) };
  const dwarf = survive(cut, 'half of .debug_info');
  assert.ok(dwarf && dwarf.functions.size > 0);
});
