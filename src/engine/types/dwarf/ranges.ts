// Address ranges of a DIE with DW_AT_ranges (GCC's hot/cold split functions): .debug_ranges before
// DWARF 5 (address pairs, a base-address selection entry, 0/0 at the end), .debug_rnglists from DWARF 5
// (typed entries, offsets through DW_AT_rnglists_base when the form is DW_FORM_rnglistx).
import { formOf, indexedAddress, offsetOrIndex, uintAt } from './attributes.js';
import { ByteReader, DwarfFormatError } from './byte-reader.js';
import { AT, FORM, RLE } from './constants.js';
import type { Die, Unit } from './die.js';

export type Range = [start: number, end: number];

/** A function split into more pieces than this is damage (GCC splits in two). */
const MAX_ENTRIES = 65_536;

/** The ranges of `die` in list order, empty ones dropped; [] without DW_AT_ranges. */
export function rangesOf(die: Die): Range[] {
  const value = offsetOrIndex(die, AT.ranges);
  if (value === null) return [];
  const unit = die.unit;
  const { sections } = unit.dwarf;
  if (unit.version < 5) {
    if (!sections.ranges) throw new DwarfFormatError('DW_AT_ranges without .debug_ranges');
    return legacyRanges(new ByteReader(sections.ranges, sections.little, value), unit);
  }
  if (!sections.rnglists) throw new DwarfFormatError('DW_AT_ranges without .debug_rnglists');
  let offset = value;
  if (formOf(die, AT.ranges) === FORM.rnglistx) {
    // The index picks an offset, relative to the base, from the table just past the list header.
    const base = unit.rnglistsBase ?? (unit.offsetSize === 8 ? 20 : 12);
    const relative = uintAt(sections.rnglists, sections.little, base + value * unit.offsetSize, unit.offsetSize);
    if (relative === null) throw new DwarfFormatError(`range list index ${value} outside .debug_rnglists`);
    offset = base + relative;
  }
  return rangeList(new ByteReader(sections.rnglists, sections.little, offset), unit);
}

/** All bytes 0xff: the base-address selection entry's first word. */
function isMaxAddress(r: ByteReader, size: number): boolean {
  for (let i = 0; i < size; i++) if (r.bytes[r.pos + i] !== 0xff) return false;
  return r.pos + size <= r.end;
}

function legacyRanges(r: ByteReader, unit: Unit): Range[] {
  const out: Range[] = [];
  let base = unit.baseAddress;
  for (let i = 0; i < MAX_ENTRIES; i++) {
    const selectsBase = isMaxAddress(r, unit.addressSize);
    const start = r.uint(unit.addressSize);
    const end = r.uint(unit.addressSize);
    if (selectsBase) base = end;
    else if (start === 0 && end === 0) return out;
    else if (end > start) out.push([base + start, base + end]);
  }
  throw new DwarfFormatError(`range list over ${MAX_ENTRIES} entries`);
}

function address(unit: Unit, index: number): number {
  const a = indexedAddress(unit, index);
  if (a === null) throw new DwarfFormatError(`address index ${index} outside .debug_addr`);
  return a;
}

function rangeList(r: ByteReader, unit: Unit): Range[] {
  const out: Range[] = [];
  let base = unit.baseAddress;
  const push = (start: number, end: number): void => {
    if (end > start) out.push([start, end]);
  };
  for (let i = 0; i < MAX_ENTRIES; i++) {
    const kind = r.u8();
    switch (kind) {
      case RLE.end_of_list:
        return out;
      case RLE.base_addressx:
        base = address(unit, r.uleb());
        break;
      case RLE.startx_endx: {
        const start = address(unit, r.uleb());
        push(start, address(unit, r.uleb()));
        break;
      }
      case RLE.startx_length: {
        const start = address(unit, r.uleb());
        push(start, start + r.uleb());
        break;
      }
      case RLE.offset_pair: {
        const start = base + r.uleb();
        push(start, base + r.uleb());
        break;
      }
      case RLE.base_address:
        base = r.uint(unit.addressSize);
        break;
      case RLE.start_end: {
        const start = r.uint(unit.addressSize);
        push(start, r.uint(unit.addressSize));
        break;
      }
      case RLE.start_length: {
        const start = r.uint(unit.addressSize);
        push(start, start + r.uleb());
        break;
      }
      default:
        throw new DwarfFormatError(`range list entry kind ${kind}`);
    }
  }
  throw new DwarfFormatError(`range list over ${MAX_ENTRIES} entries`);
}
