// Unit headers of .debug_info (DWARF 2–5) and .debug_types (DWARF 4). They differ by version:
//   2–4: unit_length, version, debug_abbrev_offset, address_size [.debug_types: signature, type_offset]
//   5:   unit_length, version, unit_type, address_size, debug_abbrev_offset, then by unit type a signature
//        and type_offset (type units) or a dwo_id (skeleton and split units).
// unit_length 0xffffffff announces 64-bit DWARF: a 64-bit length follows and offsets are 8 bytes.
import type { Geometry } from './abbrev.js';
import { ByteReader, DwarfFormatError } from './byte-reader.js';
import { UT } from './constants.js';

export interface UnitHeader extends Geometry {
  offset: number;
  /** One past the unit's last byte as declared (may lie past the section when it is truncated). */
  end: number;
  unitType: number;
  abbrevOffset: number;
  /** Where the first DIE starts. */
  dieStart: number;
  /** Type units: the signature (hex of the bytes as stored) and the type DIE's offset in the unit. */
  signature: string | null;
  typeOffset: number;
}

/** unit_length values 0xfffffff0–0xfffffffe are reserved; 0xffffffff escapes to 64-bit DWARF. */
const RESERVED_LENGTH = 0xffff_fff0;
const DWARF64 = 0xffff_ffff;

/** Reads the header at `offset`; `typesSection` for .debug_types, whose DWARF 4 units carry a signature. */
export function readUnitHeader(
  section: Uint8Array,
  little: boolean,
  offset: number,
  typesSection: boolean,
): UnitHeader {
  const r = new ByteReader(section, little, offset);
  let length = r.u32();
  let offsetSize: 4 | 8 = 4;
  if (length === DWARF64) {
    length = r.u64();
    offsetSize = 8;
  } else if (length >= RESERVED_LENGTH) {
    throw new DwarfFormatError(`reserved unit length 0x${length.toString(16)} at 0x${offset.toString(16)}`);
  }
  const end = r.pos + length;
  const version = r.u16();
  if (version < 2 || version > 5) throw new DwarfFormatError(`unit at 0x${offset.toString(16)}: version ${version}`);
  let unitType: number = typesSection ? UT.type : UT.compile;
  let addressSize: number;
  let abbrevOffset: number;
  if (version >= 5) {
    unitType = r.u8();
    addressSize = r.u8();
    abbrevOffset = r.uint(offsetSize);
  } else {
    abbrevOffset = r.uint(offsetSize);
    addressSize = r.u8();
  }
  if (addressSize !== 2 && addressSize !== 4 && addressSize !== 8)
    throw new DwarfFormatError(`unit at 0x${offset.toString(16)}: address size ${addressSize}`);
  let signature: string | null = null;
  let typeOffset = 0;
  if (unitType === UT.type || unitType === UT.split_type) {
    signature = r.signature();
    typeOffset = r.uint(offsetSize);
  } else if (unitType === UT.skeleton || unitType === UT.split_compile) {
    r.skip(8);
  }
  return {
    offset,
    end,
    version,
    unitType,
    addressSize,
    offsetSize,
    abbrevOffset,
    dieStart: r.pos,
    signature,
    typeOffset,
  };
}
