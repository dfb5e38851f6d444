// The few DWARF expressions whose meaning is a plain number: a member's offset (DW_OP_plus_uconst n), a
// local's frame slot (DW_OP_fbreg n), a global's address (DW_OP_addr a). Anything longer is a location
// that only an evaluator with registers could give, and reads as null.
import { indexedAddress } from './attributes.js';
import { ByteReader, DwarfFormatError } from './byte-reader.js';
import { OP } from './constants.js';
import type { Unit } from './die.js';

/** Runs `read` over the whole expression; null unless it consumes exactly every byte without damage. */
function whole<T>(expr: Uint8Array, little: boolean, read: (r: ByteReader) => T | null): T | null {
  const r = new ByteReader(expr, little);
  try {
    const value = read(r);
    return r.pos === expr.length ? value : null;
  } catch (err) {
    if (err instanceof DwarfFormatError) return null;
    throw err;
  }
}

/** `DW_OP_fbreg n` alone: the offset from the frame base. */
export function frameOffset(expr: Uint8Array): number | null {
  return whole(expr, true, (r) => (r.u8() === OP.fbreg ? r.sleb() : null));
}

/** `DW_OP_plus_uconst n` or `DW_OP_constu n` alone (DWARF 2/3 member locations): the byte offset. */
export function memberOffset(expr: Uint8Array): number | null {
  return whole(expr, true, (r) => {
    const op = r.u8();
    return op === OP.plus_uconst || op === OP.constu ? r.uleb() : null;
  });
}

/** `DW_OP_addr a` or `DW_OP_addrx i` alone: a static address (0 means the linker discarded it). */
export function staticAddress(expr: Uint8Array, unit: Unit): number | null {
  return whole(expr, unit.dwarf.sections.little, (r) => {
    const op = r.u8();
    if (op === OP.addr) return r.uint(unit.addressSize);
    if (op === OP.addrx || op === OP.GNU_addr_index) return indexedAddress(unit, r.uleb());
    return null;
  });
}
