// The DIE tree as read: units with their header facts, and DIEs that keep only where their attributes
// are. Attributes are decoded when asked for (attributes.ts): the import reads a small part of them. In
// sqlite's -O2 twin, 28 000 of its 102 000 DIEs are kept (call sites and inlined copies are passed over,
// info.ts) at ~160 bytes each with the offset map: 4.5 MB, read in ~30 ms.
import type { AbbrevTable, Abbrev, Geometry } from './abbrev.js';
import type { ByteReader } from './byte-reader.js';
import type { Diagnostics } from './diagnostics.js';
import type { DwarfSections } from './sections.js';

export interface Unit extends Geometry {
  /** The section the unit is in: .debug_info, or .debug_types for DWARF 4 type units. */
  reader: ByteReader;
  /** Added to offsets within that section to make DIE offsets unique across both sections. */
  bias: number;
  /** The unit header's offset in its section, and one past its last byte. */
  offset: number;
  end: number;
  unitType: number;
  abbrevs: AbbrevTable;
  root: Die | null;
  /** Bases of DWARF 5 indexed forms, from the root DIE (or the standard's defaults past the headers). */
  strOffsetsBase: number;
  addrBase: number;
  rnglistsBase: number | null;
  /** The base address range lists are relative to: the root's DW_AT_low_pc. */
  baseAddress: number;
  /** Source file basenames by DW_AT_decl_file index, read from .debug_line when first needed. */
  files: string[] | null;
  dwarf: DwarfData;
}

export interface Die {
  /** Offset in .debug_info (plus the bias for .debug_types): what references name. */
  offset: number;
  /** Where the first attribute starts in the unit's section. */
  attrStart: number;
  abbrev: Abbrev;
  unit: Unit;
  parent: Die | null;
  children: Die[] | null;
}

export interface DwarfData {
  sections: DwarfSections;
  units: Unit[];
  dies: Map<number, Die>;
  /** Type unit signatures (hex of the 8 bytes as stored) → offset of the type's DIE. */
  signatures: Map<string, number>;
  /** Line table file names by .debug_line offset (line-files.ts). */
  lineFiles: Map<number, string[]>;
  diagnostics: Diagnostics;
}

export const tagOf = (die: Die): number => die.abbrev.tag;
