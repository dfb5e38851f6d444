// Abbreviation tables (.debug_abbrev): for each code, the DIE's tag, whether it has children, and its
// attributes with their forms. Each abbreviation also records where its attributes sit while their forms
// have fixed sizes, so reading a DIE usually skips its attributes with one addition and an attribute
// lookup lands without decoding the ones before it.
import { ByteReader, DwarfFormatError } from './byte-reader.js';
import { FORM } from './constants.js';

export interface Abbrev {
  code: number;
  tag: number;
  hasChildren: boolean;
  attrs: number[];
  forms: number[];
  /** DW_FORM_implicit_const values by attribute index (0 for other forms). */
  implicit: number[];
  /** Offset of each attribute from the DIE's first attribute while every form before it is fixed, else -1. */
  fixedOffsets: number[];
  /** Bytes of all the attributes when every form is fixed, else -1. */
  fixedSize: number;
}

/** What fixes the size of forms: the unit's address size, its offset size (DWARF32/64) and its version. */
export interface Geometry {
  addressSize: number;
  offsetSize: 4 | 8;
  version: number;
}

export interface AbbrevTable {
  get(code: number): Abbrev | undefined;
  readonly count: number;
}

/** No producer writes more; a larger table is damage (it would only cost memory). */
const MAX_ABBREVS = 1 << 16;
/** DWARF defines ~130 attributes; a DIE with more than this is damage. */
const MAX_ATTRS = 256;
/** Codes below this live in an array (they are dense: producers number from 1). */
const DENSE_CODES = 4096;

/** Bytes a form takes in a unit of `g`, or -1 when its size is in the data (strings, blocks, LEB128). */
export function fixedFormSize(form: number, g: Geometry): number {
  switch (form) {
    case FORM.flag_present:
    case FORM.implicit_const:
      return 0;
    case FORM.data1:
    case FORM.ref1:
    case FORM.flag:
    case FORM.strx1:
    case FORM.addrx1:
      return 1;
    case FORM.data2:
    case FORM.ref2:
    case FORM.strx2:
    case FORM.addrx2:
      return 2;
    case FORM.strx3:
    case FORM.addrx3:
      return 3;
    case FORM.data4:
    case FORM.ref4:
    case FORM.strx4:
    case FORM.addrx4:
    case FORM.ref_sup4:
      return 4;
    case FORM.data8:
    case FORM.ref8:
    case FORM.ref_sig8:
    case FORM.ref_sup8:
      return 8;
    case FORM.data16:
      return 16;
    case FORM.addr:
      return g.addressSize;
    case FORM.strp:
    case FORM.line_strp:
    case FORM.sec_offset:
    case FORM.strp_sup:
    case FORM.GNU_ref_alt:
    case FORM.GNU_strp_alt:
      return g.offsetSize;
    case FORM.ref_addr:
      // DWARF 2 sized DW_FORM_ref_addr as an address; 3 and later as an offset.
      return g.version <= 2 ? g.addressSize : g.offsetSize;
    default:
      return -1;
  }
}

function layout(abbrev: Omit<Abbrev, 'fixedOffsets' | 'fixedSize'>, g: Geometry): Abbrev {
  const fixedOffsets: number[] = [];
  let at = 0;
  for (const form of abbrev.forms) {
    fixedOffsets.push(at);
    const size = at < 0 ? -1 : fixedFormSize(form, g);
    at = size < 0 ? -1 : at + size;
  }
  return { ...abbrev, fixedOffsets, fixedSize: at };
}

function readOne(r: ByteReader, code: number, g: Geometry): Abbrev {
  const tag = r.uleb();
  const hasChildren = r.u8() !== 0;
  const attrs: number[] = [];
  const forms: number[] = [];
  const implicit: number[] = [];
  for (;;) {
    const attr = r.uleb();
    const form = r.uleb();
    if (attr === 0 && form === 0) break;
    if (attrs.length >= MAX_ATTRS) throw new DwarfFormatError(`abbreviation ${code} has over ${MAX_ATTRS} attributes`);
    attrs.push(attr);
    forms.push(form);
    implicit.push(form === FORM.implicit_const ? r.sleb() : 0);
  }
  return layout({ code, tag, hasChildren, attrs, forms, implicit }, g);
}

/** The table at `offset` of .debug_abbrev; throws DwarfFormatError when it runs off the section. */
export function readAbbrevTable(section: Uint8Array, offset: number, g: Geometry): AbbrevTable {
  const r = new ByteReader(section, true, offset);
  if (offset < 0 || offset >= section.length)
    throw new DwarfFormatError(`abbreviation offset 0x${offset.toString(16)} outside .debug_abbrev`);
  const dense: (Abbrev | undefined)[] = [];
  const sparse = new Map<number, Abbrev>();
  let count = 0;
  for (;;) {
    const code = r.uleb();
    if (code === 0) break;
    if (++count > MAX_ABBREVS) throw new DwarfFormatError(`abbreviation table over ${MAX_ABBREVS} entries`);
    const abbrev = readOne(r, code, g);
    // The first definition of a code wins, as a reader walking the table would find it.
    if (code < DENSE_CODES) dense[code] ??= abbrev;
    else if (!sparse.has(code)) sparse.set(code, abbrev);
  }
  return { get: (code) => (code < DENSE_CODES ? dense[code] : sparse.get(code)), count };
}
