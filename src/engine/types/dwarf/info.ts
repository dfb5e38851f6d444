// Reads every unit of .debug_info (and DWARF 4's .debug_types) into DIE trees. Bounded: a budget of DIEs
// for the whole file, a nesting depth, a unit count. Damage inside a unit ends that unit (the DIEs before
// it stay); the next unit is found from the header's length, so one bad unit costs only itself.
import { readAbbrevTable, type AbbrevTable } from './abbrev.js';
import { address, offsetOrIndex } from './attributes.js';
import { ByteReader, DwarfFormatError } from './byte-reader.js';
import { AT, TAG } from './constants.js';
import type { Diagnostics } from './diagnostics.js';
import type { Die, DwarfData, Unit } from './die.js';
import { skipForm } from './forms.js';
import type { DwarfSections } from './sections.js';
import { readUnitHeader, type UnitHeader } from './units.js';

export interface DwarfLimits {
  /**
   * DIEs read over the whole file. sqlite's twins have ~100 000, read at ~3 million a second; a DIE kept
   * costs ~160 bytes. 2 million bounds a hostile file to under a second and ~320 MB even if all are kept.
   */
  maxDies: number;
  /** Nesting of DIEs: C rarely passes 10 (unit, function, blocks, a local struct's members). */
  maxDepth: number;
  maxUnits: number;
}

export const DEFAULT_LIMITS: DwarfLimits = { maxDies: 2_000_000, maxDepth: 256, maxUnits: 200_000 };

interface Budget {
  dies: number;
  exhausted: boolean;
}

const hex = (n: number): string => `0x${n.toString(16)}`;

/**
 * Subtrees read past without keeping: call sites, labels and inlined copies (whose names and types are
 * their abstract instance's, kept where it is). In sqlite's -O2 twin they are two thirds of the DIEs.
 */
const PASSED_OVER = new Set<number>([
  TAG.inlined_subroutine,
  TAG.call_site,
  TAG.call_site_parameter,
  TAG.GNU_call_site,
  TAG.GNU_call_site_parameter,
  TAG.label,
]);

/** Standard defaults of the DWARF 5 bases, just past the header of a .debug_str_offsets / .debug_addr contribution. */
const defaultBase = (offsetSize: 4 | 8): number => (offsetSize === 8 ? 16 : 8);

export function readDies(sections: DwarfSections, diagnostics: Diagnostics, limits = DEFAULT_LIMITS): DwarfData {
  const dwarf: DwarfData = {
    sections,
    units: [],
    dies: new Map(),
    signatures: new Map(),
    lineFiles: new Map(),
    diagnostics,
  };
  const budget: Budget = { dies: limits.maxDies, exhausted: false };
  if (sections.info) readSection(dwarf, sections.info, 0, '.debug_info', budget, limits);
  if (sections.types) readSection(dwarf, sections.types, sections.info?.length ?? 0, '.debug_types', budget, limits);
  if (budget.exhausted) diagnostics.add(`DIE limit ${limits.maxDies} reached: the rest of the DWARF is not read`);
  return dwarf;
}

function readSection(
  dwarf: DwarfData,
  bytes: Uint8Array,
  bias: number,
  name: string,
  budget: Budget,
  limits: DwarfLimits,
): void {
  const abbrevCache = new Map<string, AbbrevTable>();
  const little = dwarf.sections.little;
  for (let offset = 0; offset < bytes.length && !budget.exhausted;) {
    if (dwarf.units.length >= limits.maxUnits) {
      dwarf.diagnostics.add(`${name}: more than ${limits.maxUnits} units; the rest are not read`);
      return;
    }
    let header: UnitHeader;
    try {
      header = readUnitHeader(bytes, little, offset, name === '.debug_types');
    } catch (err) {
      if (!(err instanceof DwarfFormatError)) throw err;
      dwarf.diagnostics.add(`${name}: ${err.message}; the units after it are not read`);
      return;
    }
    if (header.end > bytes.length) dwarf.diagnostics.add(`${name}: unit at ${hex(offset)} runs past the section`);
    try {
      const unit = openUnit(dwarf, header, bytes, bias, abbrevCache);
      dwarf.units.push(unit);
      readTree(unit, header.dieStart, budget, limits);
    } catch (err) {
      if (!(err instanceof DwarfFormatError)) throw err;
      dwarf.diagnostics.add(`${name}: unit at ${hex(offset)}: ${err.message}`);
    }
    offset = header.end;
  }
}

function openUnit(
  dwarf: DwarfData,
  h: UnitHeader,
  bytes: Uint8Array,
  bias: number,
  abbrevCache: Map<string, AbbrevTable>,
): Unit {
  const abbrevSection = dwarf.sections.abbrev;
  if (!abbrevSection) throw new DwarfFormatError('no .debug_abbrev');
  // Tables are shared between units only when their form sizes agree (address and offset size, version).
  const key = `${h.abbrevOffset}:${h.addressSize}:${h.offsetSize}:${h.version}`;
  let abbrevs = abbrevCache.get(key);
  if (!abbrevs) {
    abbrevs = readAbbrevTable(abbrevSection, h.abbrevOffset, h);
    abbrevCache.set(key, abbrevs);
  }
  const end = Math.min(h.end, bytes.length);
  if (h.signature !== null) dwarf.signatures.set(h.signature, bias + h.offset + h.typeOffset);
  return {
    reader: new ByteReader(bytes, dwarf.sections.little, 0, end),
    bias,
    offset: h.offset,
    end,
    version: h.version,
    unitType: h.unitType,
    addressSize: h.addressSize,
    offsetSize: h.offsetSize,
    abbrevs,
    root: null,
    strOffsetsBase: defaultBase(h.offsetSize),
    addrBase: defaultBase(h.offsetSize),
    rnglistsBase: null,
    baseAddress: 0,
    files: null,
    dwarf,
  };
}

/** Bases of the indexed forms, from the root DIE: read before any attribute of the unit is decoded. */
function setBases(unit: Unit, root: Die): void {
  unit.strOffsetsBase = offsetOrIndex(root, AT.str_offsets_base) ?? unit.strOffsetsBase;
  unit.addrBase = offsetOrIndex(root, AT.addr_base) ?? offsetOrIndex(root, AT.GNU_addr_base) ?? unit.addrBase;
  unit.rnglistsBase = offsetOrIndex(root, AT.rnglists_base);
  unit.baseAddress = address(root, AT.low_pc) ?? 0;
}

function readTree(unit: Unit, start: number, budget: Budget, limits: DwarfLimits): void {
  const r = new ByteReader(unit.reader.bytes, unit.reader.little, start, unit.end);
  const dies = unit.dwarf.dies;
  let parent: Die | null = null;
  const stack: (Die | null)[] = [];
  /** Levels inside a subtree passed over (PASSED_OVER), 0 when keeping DIEs. */
  let passing = 0;
  while (r.pos < unit.end) {
    const at = r.pos;
    const code = r.uleb();
    if (code === 0) {
      // The end of a sibling list; at the top level, padding.
      if (passing > 0) passing--;
      else if (stack.length > 0) parent = stack.pop()!;
      continue;
    }
    // A unit has one root DIE: anything after its children is not part of the tree.
    if (parent === null && unit.root !== null) return;
    const abbrev = unit.abbrevs.get(code);
    if (!abbrev) throw new DwarfFormatError(`unknown abbreviation code ${code} at ${hex(at)}`);
    if (budget.dies <= 0) {
      budget.exhausted = true;
      return;
    }
    budget.dies--;
    const attrStart = r.pos;
    if (abbrev.fixedSize >= 0) r.skip(abbrev.fixedSize);
    else for (const form of abbrev.forms) skipForm(r, form, unit);
    if (abbrev.hasChildren && stack.length + passing >= limits.maxDepth)
      throw new DwarfFormatError(`DIEs nested deeper than ${limits.maxDepth}`);
    if (passing > 0 || PASSED_OVER.has(abbrev.tag)) {
      if (abbrev.hasChildren) passing++;
      continue;
    }
    const die: Die = { offset: unit.bias + at, attrStart, abbrev, unit, parent, children: null };
    dies.set(die.offset, die);
    if (parent) (parent.children ??= []).push(die);
    else {
      unit.root = die;
      setBases(unit, die);
    }
    if (abbrev.hasChildren) {
      stack.push(parent);
      parent = die;
    }
  }
}
