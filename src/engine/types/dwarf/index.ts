// DWARF type import: the functions (prototypes, locals), globals, typedefs and the structure, union and
// enum definitions of a binary's DWARF 2–5 (or of an uploaded debug file), in the C type model of
// ../ctype.ts. Pure: bytes of a BinaryImage in, plain data out. May import ../ctype.ts and
// ../../formats/image.ts (types only), nothing else of the engine.
//
// Reading is bounded (DIEs, nesting, type depth, list lengths, string lengths) and never throws: damage
// becomes a diagnostic and the import keeps what it read. The same bytes give the same result.
import type { CType, TypeTable } from '../ctype.js';
import type { BinaryImage } from '../../formats/image.js';
import { DwarfFormatError } from './byte-reader.js';
import { TAG } from './constants.js';
import { defineTypes } from './definitions.js';
import { Diagnostics } from './diagnostics.js';
import { tagOf, type Die, type DwarfData } from './die.js';
import { isUnitLevel, readFunction, readGlobal, type DwarfFunction, type DwarfGlobal } from './functions.js';
import { DEFAULT_LIMITS, readDies, type DwarfLimits } from './info.js';
import { findDwarfSections } from './sections.js';
import { TypeBuilder } from './types.js';

export type { DwarfFunction, DwarfGlobal, DwarfLocal } from './functions.js';
export type { DwarfLimits } from './info.js';

export interface DwarfTypes {
  /** Functions with code, by entry address. */
  functions: Map<number, DwarfFunction>;
  /** Every structure, union and enum of the DWARF, by tableKey. */
  table: TypeTable;
  /** Unit-level variables at static addresses, by address. */
  globals: DwarfGlobal[];
  /** Each typedef name and the type it names (one step: a typedef of a typedef stays one). */
  typedefs: Map<string, CType>;
  diagnostics: string[];
}

const hex = (n: number): string => `0x${n.toString(16)}`;

interface Collected {
  functions: DwarfFunction[];
  globals: DwarfGlobal[];
  /** Subprograms at address 0: code the linker discarded (--gc-sections) whose DWARF stayed. */
  atZero: number;
}

/** The DWARF of `image`, or null when it has none (no .debug_info). */
export function readDwarfTypes(image: BinaryImage, limits: Partial<DwarfLimits> = {}): DwarfTypes | null {
  const diagnostics = new Diagnostics();
  const builder = new TypeBuilder(diagnostics);
  const collected: Collected = { functions: [], globals: [], atZero: 0 };
  try {
    const early: string[] = [];
    const sections = findDwarfSections(image, early);
    for (const line of early) diagnostics.add(line);
    if (!sections) return early.length > 0 ? result(builder, collected, diagnostics) : null;
    const dwarf = readDies(sections, diagnostics, { ...DEFAULT_LIMITS, ...limits });
    importDies(dwarf, builder, collected);
  } catch (err) {
    // Every DIE is guarded below; this is for a fault outside them. What was read so far is kept.
    diagnostics.add(`internal error: ${(err as Error).message}`);
  }
  defineTypes(builder);
  return result(builder, collected, diagnostics);
}

function importDies(dwarf: DwarfData, builder: TypeBuilder, collected: Collected): void {
  for (const die of dwarf.dies.values()) {
    try {
      importDie(die, builder, collected);
    } catch (err) {
      const what = err instanceof DwarfFormatError ? '' : 'internal error at ';
      dwarf.diagnostics.add(`${what}DIE ${hex(die.offset)}: ${(err as Error).message}`);
    }
  }
}

function importDie(die: Die, builder: TypeBuilder, collected: Collected): void {
  switch (tagOf(die)) {
    case TAG.structure_type:
    case TAG.class_type:
    case TAG.union_type:
    case TAG.enumeration_type:
      // Converting queues the definition: the whole DWARF is imported, not only what functions reach.
      builder.typeOf(die);
      return;
    case TAG.typedef:
      builder.addTypedef(die);
      return;
    case TAG.subprogram: {
      const f = readFunction(die, builder);
      if (f && f.address === 0) collected.atZero++;
      else if (f) collected.functions.push(f);
      return;
    }
    case TAG.variable: {
      const g = isUnitLevel(die) ? readGlobal(die, builder) : null;
      if (g) collected.globals.push(g);
      return;
    }
  }
}

function result(builder: TypeBuilder, collected: Collected, diagnostics: Diagnostics): DwarfTypes {
  const functions = new Map<number, DwarfFunction>();
  let shared = 0;
  // Stable sort: of two DIEs at one address (identical code folded by the linker) the first read is kept.
  for (const f of [...collected.functions].sort((a, b) => a.address - b.address)) {
    if (functions.has(f.address)) shared++;
    else functions.set(f.address, f);
  }
  if (shared > 0) diagnostics.add(`${shared} functions share their address with an earlier one and are left out`);
  if (collected.atZero > 0) diagnostics.add(`${collected.atZero} functions at address 0 (discarded code) left out`);
  if (builder.typedefConflicts.size > 0) {
    const some = [...builder.typedefConflicts].slice(0, 5).join(', ');
    diagnostics.add(
      `${builder.typedefConflicts.size} typedef names stand for different types in different units, the first kept: ${some}`,
    );
  }
  const globals = [...collected.globals].sort(
    (a, b) => a.address - b.address || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0),
  );
  return { functions, table: builder.table, globals, typedefs: builder.typedefs, diagnostics: diagnostics.lines() };
}
