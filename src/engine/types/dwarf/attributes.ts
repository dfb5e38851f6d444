// Attribute values of a DIE, decoded on demand by what the caller wants: a constant, a string, a reference,
// an address, an expression. Indexed forms (strx, addrx) go through the unit's bases; a value another
// section must supply and cannot (offset outside it, supplementary file) reads as absent.
import { ByteReader, stringAt } from './byte-reader.js';
import { FORM } from './constants.js';
import type { Die, Unit } from './die.js';
import { directForm, skipForm } from './forms.js';

interface Slot {
  r: ByteReader;
  form: number;
  index: number;
}

/** Positions the unit's reader at attribute `at` of `die`; null when the DIE has no such attribute. */
function slot(die: Die, at: number): Slot | null {
  const a = die.abbrev;
  const index = a.attrs.indexOf(at);
  if (index < 0) return null;
  const r = die.unit.reader;
  const fixed = a.fixedOffsets[index]!;
  if (fixed >= 0) r.pos = die.attrStart + fixed;
  else {
    r.pos = die.attrStart;
    for (let j = 0; j < index; j++) skipForm(r, a.forms[j]!, die.unit);
  }
  return { r, form: directForm(r, a.forms[index]!), index };
}

export const has = (die: Die, at: number): boolean => die.abbrev.attrs.includes(at);

/** The attribute's form (DW_FORM_indirect resolved), or -1 when absent. */
export function formOf(die: Die, at: number): number {
  return slot(die, at)?.form ?? -1;
}

/** An unsigned integer at `pos` of a section, or null when it does not fit there. */
export function uintAt(section: Uint8Array | null, little: boolean, pos: number, size: number): number | null {
  if (!section || !Number.isSafeInteger(pos) || pos < 0 || pos + size > section.length) return null;
  return new ByteReader(section, little, pos).uint(size);
}

/** A constant (data, sdata, udata, implicit_const, flag); data forms read unsigned. Null for other classes. */
export function constant(die: Die, at: number): number | null {
  const s = slot(die, at);
  if (!s) return null;
  const { r } = s;
  switch (s.form) {
    case FORM.data1:
    case FORM.flag:
      return r.u8();
    case FORM.data2:
      return r.u16();
    case FORM.data4:
      return r.u32();
    case FORM.data8:
      return r.u64();
    case FORM.sdata:
      return r.sleb();
    case FORM.udata:
      return r.uleb();
    case FORM.implicit_const:
      return die.abbrev.implicit[s.index]!;
    case FORM.flag_present:
      return 1;
    default:
      return null;
  }
}

export function flag(die: Die, at: number): boolean {
  return (constant(die, at) ?? 0) !== 0;
}

function indexedString(unit: Unit, index: number): string | null {
  const { sections } = unit.dwarf;
  const offset = uintAt(
    sections.strOffsets,
    sections.little,
    unit.strOffsetsBase + index * unit.offsetSize,
    unit.offsetSize,
  );
  return offset === null ? null : stringAt(sections.str, offset);
}

/** A string-class value of `form` at the reader's position; `offsetSize` of the table it is in. */
export function stringValue(r: ByteReader, form: number, unit: Unit, offsetSize: number): string | null {
  const { sections } = unit.dwarf;
  switch (form) {
    case FORM.string:
      return r.cstring();
    case FORM.strp:
      return stringAt(sections.str, r.uint(offsetSize));
    case FORM.line_strp:
      return stringAt(sections.lineStr, r.uint(offsetSize));
    case FORM.strx:
    case FORM.GNU_str_index:
      return indexedString(unit, r.uleb());
    case FORM.strx1:
      return indexedString(unit, r.u8());
    case FORM.strx2:
      return indexedString(unit, r.u16());
    case FORM.strx3:
      return indexedString(unit, r.u24());
    case FORM.strx4:
      return indexedString(unit, r.u32());
    default:
      // strp_sup / GNU_strp_alt point into a supplementary file (dwz) this import does not have.
      return null;
  }
}

export function string(die: Die, at: number): string | null {
  const s = slot(die, at);
  return s ? stringValue(s.r, s.form, die.unit, die.unit.offsetSize) : null;
}

/** The address in slot `index` of .debug_addr for `unit`. */
export function indexedAddress(unit: Unit, index: number): number | null {
  const { sections } = unit.dwarf;
  return uintAt(sections.addr, sections.little, unit.addrBase + index * unit.addressSize, unit.addressSize);
}

/** An address-class value (DW_FORM_addr and the indexed forms); null for constants and the rest. */
export function address(die: Die, at: number): number | null {
  const s = slot(die, at);
  if (!s) return null;
  const { r } = s;
  switch (s.form) {
    case FORM.addr:
      return r.uint(die.unit.addressSize);
    case FORM.addrx:
    case FORM.GNU_addr_index:
      return indexedAddress(die.unit, r.uleb());
    case FORM.addrx1:
      return indexedAddress(die.unit, r.u8());
    case FORM.addrx2:
      return indexedAddress(die.unit, r.u16());
    case FORM.addrx3:
      return indexedAddress(die.unit, r.u24());
    case FORM.addrx4:
      return indexedAddress(die.unit, r.u32());
    default:
      return null;
  }
}

/** The DIE offset a reference attribute names, or null (absent, not a reference, into another file). */
export function reference(die: Die, at: number): number | null {
  const s = slot(die, at);
  if (!s) return null;
  const { r } = s;
  const local = die.unit.bias + die.unit.offset;
  switch (s.form) {
    case FORM.ref1:
      return local + r.u8();
    case FORM.ref2:
      return local + r.u16();
    case FORM.ref4:
      return local + r.u32();
    case FORM.ref8:
      return local + r.u64();
    case FORM.ref_udata:
      return local + r.uleb();
    case FORM.ref_addr:
      // Always an offset in .debug_info, whichever section the referring unit is in.
      return r.uint(die.unit.version <= 2 ? die.unit.addressSize : die.unit.offsetSize);
    case FORM.ref_sig8:
      return die.unit.dwarf.signatures.get(r.signature()) ?? null;
    default:
      return null;
  }
}

export function referencedDie(die: Die, at: number): Die | null {
  const offset = reference(die, at);
  return offset === null ? null : (die.unit.dwarf.dies.get(offset) ?? null);
}

/** The bytes of a block or expression (exprloc, block1/2/4, block); null for other classes. */
export function block(die: Die, at: number): Uint8Array | null {
  const s = slot(die, at);
  if (!s) return null;
  const { r } = s;
  let length: number;
  switch (s.form) {
    case FORM.exprloc:
    case FORM.block:
      length = r.uleb();
      break;
    case FORM.block1:
      length = r.u8();
      break;
    case FORM.block2:
      length = r.u16();
      break;
    case FORM.block4:
      length = r.u32();
      break;
    default:
      return null;
  }
  const start = r.pos;
  r.skip(length);
  return r.bytes.subarray(start, start + length);
}

/** A section offset or list index (sec_offset, data4/data8 before DWARF 4, udata, rnglistx). */
export function offsetOrIndex(die: Die, at: number): number | null {
  const s = slot(die, at);
  if (!s) return null;
  const { r } = s;
  switch (s.form) {
    case FORM.sec_offset:
      return r.uint(die.unit.offsetSize);
    case FORM.data4:
      return r.u32();
    case FORM.data8:
      return r.u64();
    case FORM.udata:
    case FORM.rnglistx:
    case FORM.loclistx:
      return r.uleb();
    default:
      return null;
  }
}

/** The type signature a DW_FORM_ref_sig8 attribute names (hex), or null for other forms. */
export function signatureRef(die: Die, at: number): string | null {
  const s = slot(die, at);
  return s && s.form === FORM.ref_sig8 ? s.r.signature() : null;
}
