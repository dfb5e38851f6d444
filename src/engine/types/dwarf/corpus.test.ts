// The DWARF import against the corpus's type truth (../shared/corpus/types, from llvm-dwarfdump; see the
// corpus README, "DWARF twins and type truth"): for each of the 18 -g twins, functions by address,
// signatures by coarse class, and the layout of every structure, union and enum. Skipped with a message
// when the corpus is not there.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { coarseClass, formatType, type CoarseClass, type CType } from '../ctype.js';
import { parseBinary } from '../../formats/parse.js';
import { CORPUS } from '../../../../test/helpers/engine/disasm.js';
import { cpuTimed } from '../../../../test/helpers/engine/formats.js';
import { readDwarfTypes, type DwarfFunction, type DwarfTypes } from './index.js';

const TYPES = path.join(CORPUS, 'types');
const AGREEMENT = 0.99;

interface TruthType {
  type: string;
  resolved: string;
  size: number | null;
  class: string;
}
interface TruthFunction {
  address: string;
  name: string;
  pc_source?: 'ranges' | 'symbol';
  return: TruthType;
  params: (TruthType & { name: string })[];
  variadic: boolean;
}
interface TruthDefinition {
  kind: 'struct' | 'union' | 'enum';
  size: number;
  declaration_only?: boolean;
  members?: { offset: number; bit_offset?: number }[];
  enumerators?: { name: string; value: number }[];
}
interface Truth {
  binary: string;
  functions: TruthFunction[];
  types: Record<string, TruthDefinition>;
}

/**
 * The truth's classes folded as coarseClass folds them: signedness goes (`uint32` → `int32`), plain
 * `char` is a 1-byte integer, `bool` and `enum` are integers of their size.
 */
function expectedClass(t: TruthType): CoarseClass {
  const c = t.class;
  if (c.startsWith('uint')) return c.slice(1) as CoarseClass;
  if (c === 'char') return 'int8';
  if (c === 'bool' || c === 'enum') return `int${(t.size ?? 4) * 8}` as CoarseClass;
  return c as CoarseClass;
}

function signatureAgrees(ours: DwarfFunction, truth: TruthFunction): boolean {
  const p = ours.prototype;
  return (
    ours.name === truth.name &&
    p.params.length === truth.params.length &&
    p.params.every((x, i) => coarseClass(x.type) === expectedClass(truth.params[i]!)) &&
    coarseClass(p.returns) === expectedClass(truth.return) &&
    p.variadic === truth.variadic
  );
}

/** The truth keeps a second definition of one tag as `struct _iobuf#2` (same layout, another header). */
const baseKey = (key: string): string => key.replace(/#\d+$/, '');

function definitionAgrees(dwarf: DwarfTypes, key: string, truth: TruthDefinition): boolean {
  const ours = dwarf.table.get(baseKey(key));
  if (!ours) return false;
  if (truth.declaration_only) return ours.kind === 'enum' || ours.size === null;
  if (ours.size !== truth.size) return false;
  if (ours.kind === 'enum')
    return (
      JSON.stringify(ours.enumerators) ===
      JSON.stringify(truth.enumerators?.map((e) => ({ name: e.name, value: e.value })))
    );
  const offsets = ours.members.map((m) => [m.offset, m.bitOffset ?? null]);
  return JSON.stringify(offsets) === JSON.stringify(truth.members?.map((m) => [m.offset, m.bit_offset ?? null]));
}

/** Every typedef replaced by what it names, as the truth's `resolved` spells types. */
function withoutTypedefs(t: CType, depth = 0): CType {
  if (depth > 32) return t;
  const inner = (x: CType): CType => withoutTypedefs(x, depth + 1);
  switch (t.kind) {
    case 'typedef':
      return inner(t.to);
    case 'pointer':
    case 'const':
    case 'volatile':
      return { ...t, to: inner(t.to) };
    case 'array':
      return { ...t, of: inner(t.of) };
    case 'function': {
      const { proto } = t;
      const params = proto.params.map((p) => ({ ...p, type: inner(p.type) }));
      return { kind: 'function', proto: { ...proto, returns: inner(proto.returns), params } };
    }
    default:
      return t;
  }
}

/**
 * Where the two spellings follow the same conventions: formatType writes `bool` for `_Bool` and `char [16]`
 * for `char[16]`, and the model drops `restrict` (it changes no layout or calling convention).
 */
const comparable = (truth: string): boolean => !truth.includes('[') && !truth.includes('_Bool');
const withoutRestrict = (truth: string): string => truth.replace(/ ?\brestrict\b/g, '');

interface Figures {
  expected: number;
  found: number;
  signatures: number;
  definitions: number;
  agreedDefinitions: number;
  spelled: number;
  agreedSpelling: number;
  bySymbol: number;
}

function score(truth: Truth, dwarf: DwarfTypes): Figures {
  const f: Figures = {
    expected: 0,
    found: 0,
    signatures: 0,
    definitions: 0,
    agreedDefinitions: 0,
    spelled: 0,
    agreedSpelling: 0,
    bySymbol: 0,
  };
  for (const t of truth.functions) {
    // GCC's identical-code folding left these without an address in the DWARF; the truth took the
    // symbol's. Nothing in the DWARF places them, so a DWARF reader cannot list them.
    if (t.pc_source === 'symbol') {
      f.bySymbol++;
      continue;
    }
    f.expected++;
    const ours = dwarf.functions.get(Number(t.address));
    if (!ours) continue;
    f.found++;
    if (signatureAgrees(ours, t)) f.signatures++;
    t.params.forEach((p, i) => {
      const mine = ours.prototype.params[i];
      if (!mine || !comparable(p.resolved)) return;
      f.spelled += 2;
      if (formatType(mine.type) === withoutRestrict(p.type)) f.agreedSpelling++;
      if (formatType(withoutTypedefs(mine.type)) === withoutRestrict(p.resolved)) f.agreedSpelling++;
    });
  }
  for (const [key, def] of Object.entries(truth.types)) {
    f.definitions++;
    if (definitionAgrees(dwarf, key, def)) f.agreedDefinitions++;
  }
  return f;
}

function truthFiles(): string[] {
  return existsSync(TYPES)
    ? readdirSync(TYPES)
        .filter((n) => n.endsWith('.json'))
        .sort()
    : [];
}

const readTruth = (file: string): Truth => JSON.parse(readFileSync(path.join(TYPES, file), 'utf8')) as Truth;

const ratio = (a: number, b: number): number => (b === 0 ? 1 : a / b);
const pct = (a: number, b: number): string => `${a}/${b} (${(100 * ratio(a, b)).toFixed(2)}%)`;

test('corpus: the DWARF of every -g twin agrees with its type truth', async (t) => {
  const files = truthFiles();
  if (files.length === 0) return t.skip(`${TYPES} absent`);
  assert.equal(files.length, 18, 'the corpus README lists 18 DWARF twins');
  for (const file of files) {
    await t.test(file, () => {
      const truth = readTruth(file);
      const dwarf = readDwarfTypes(parseBinary(new Uint8Array(readFileSync(path.join(CORPUS, truth.binary)))));
      assert.ok(dwarf, 'the twin has DWARF');
      const f = score(truth, dwarf);
      console.log(
        `${file}: functions ${pct(f.found, f.expected)} (+${f.bySymbol} placed by symbol only, left out), ` +
          `signatures ${pct(f.signatures, f.found)}, definitions ${pct(f.agreedDefinitions, f.definitions)}, ` +
          `spelling ${pct(f.agreedSpelling, f.spelled)}; diagnostics: ${dwarf.diagnostics.join(' | ') || 'none'}`,
      );
      assert.ok(ratio(f.found, f.expected) >= AGREEMENT, 'functions found by address');
      assert.ok(ratio(f.signatures, f.found) >= AGREEMENT, 'signatures (count, classes, return, variadic)');
      assert.ok(ratio(f.agreedDefinitions, f.definitions) >= AGREEMENT, 'structure, union and enum layouts');
      assert.ok(ratio(f.agreedSpelling, f.spelled) >= AGREEMENT, 'formatType against `type` and `resolved`');
    });
  }
});

test('corpus: reading the largest twin takes well under a second', (t) => {
  const binaries = truthFiles().map((f) => path.join(CORPUS, readTruth(f).binary));
  if (binaries.length === 0) return t.skip(`${TYPES} absent`);
  const largest = binaries.sort((a, b) => statSync(b).size - statSync(a).size)[0]!;
  const image = parseBinary(new Uint8Array(readFileSync(largest)));
  const first = cpuTimed(() => readDwarfTypes(image));
  const again = cpuTimed(() => readDwarfTypes(image));
  console.log(
    `${path.basename(largest)}: ${first.value?.functions.size} functions, ${first.value?.table.size} definitions; ` +
      `${first.ms.toFixed(0)} ms CPU (first), ${again.ms.toFixed(0)} ms (again)`,
  );
  assert.ok(first.ms < 1000, `took ${first.ms.toFixed(0)} ms`);
  assert.deepEqual(again.value, first.value, 'the same bytes give the same result');
});
