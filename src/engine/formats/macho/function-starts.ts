// LC_FUNCTION_STARTS: ULEB128 deltas, the first from the start of __TEXT, each next from the previous start;
// a zero delta (or the end of the data) ends the list. Exactly the linker's list of function entry points.
import { LIMITS } from './context.js';
import type { MachOContext } from './context.js';
import type { LinkeditRange } from './load-commands.js';

/** A ULEB128 longer than this overflows 2^56, far past any address: the data is corrupt. */
const MAX_ULEB_BYTES = 8;

export function readFunctionStarts(ctx: MachOContext, range: LinkeditRange, textStart: number): number[] {
  const v = ctx.v;
  if (range.size === 0) return [];
  if (!v.has(range.offset, range.size)) {
    ctx.warn('LC_FUNCTION_STARTS data lies outside the file');
    return [];
  }
  const bytes = v.bytes;
  const end = range.offset + range.size;
  const out: number[] = [];
  let address = textStart;
  for (let p = range.offset; p < end;) {
    let delta = 0;
    let scale = 1;
    let length = 0;
    let byte: number;
    do {
      byte = bytes[p++] ?? 0;
      delta += (byte & 0x7f) * scale;
      scale *= 128;
      length++;
    } while (byte & 0x80 && p < end && length < MAX_ULEB_BYTES);
    if (byte & 0x80) {
      ctx.warn('LC_FUNCTION_STARTS: unterminated or oversized ULEB128');
      break;
    }
    if (delta === 0) break;
    if (out.length >= LIMITS.functionStarts) {
      ctx.warn(`function starts capped at ${LIMITS.functionStarts}`);
      break;
    }
    address += delta;
    out.push(address);
  }
  return out;
}
