// Attribute forms: how many bytes each takes, so DIEs can be stepped over without decoding what the type
// import never asks for (locations, call sites, producers).
import { fixedFormSize, type Geometry } from './abbrev.js';
import { DwarfFormatError, type ByteReader } from './byte-reader.js';
import { FORM } from './constants.js';

/** DW_FORM_indirect names the form in the data; chaining them is legal, producers never do it. */
const MAX_INDIRECT = 4;

/** The form of an attribute at the reader's position, reading past DW_FORM_indirect's LEB128 form codes. */
export function directForm(r: ByteReader, form: number): number {
  let f = form;
  for (let i = 0; f === FORM.indirect; i++) {
    if (i >= MAX_INDIRECT) throw new DwarfFormatError(`DW_FORM_indirect chain longer than ${MAX_INDIRECT}`);
    f = r.uleb();
  }
  return f;
}

/** Moves the reader past one attribute value of `form`; throws DwarfFormatError for a form DWARF lacks. */
export function skipForm(r: ByteReader, form: number, g: Geometry): void {
  const f = directForm(r, form);
  const size = fixedFormSize(f, g);
  if (size >= 0) {
    r.skip(size);
    return;
  }
  switch (f) {
    case FORM.string:
      r.skipString();
      return;
    case FORM.block1:
      r.skip(r.u8());
      return;
    case FORM.block2:
      r.skip(r.u16());
      return;
    case FORM.block4:
      r.skip(r.u32());
      return;
    case FORM.block:
    case FORM.exprloc:
      r.skip(r.uleb());
      return;
    case FORM.sdata:
      r.sleb();
      return;
    case FORM.udata:
    case FORM.ref_udata:
    case FORM.strx:
    case FORM.addrx:
    case FORM.loclistx:
    case FORM.rnglistx:
    case FORM.GNU_addr_index:
    case FORM.GNU_str_index:
      r.uleb();
      return;
    default:
      throw new DwarfFormatError(`unknown form 0x${f.toString(16)}`);
  }
}
