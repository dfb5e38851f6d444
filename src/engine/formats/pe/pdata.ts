// x86-64 exception directory (directory 3): RUNTIME_FUNCTION {BeginAddress, EndAddress, UnwindInfoAddress}
// records, one per non-leaf function and one per fragment. A fragment whose UNWIND_INFO carries
// UNW_FLAG_CHAININFO (a hot/cold split, a shrink-wrapped region) is still a code range and is reported as
// one; the UNWIND_INFO itself is not needed for that, so it is not read.
import type { UnwindRange } from '../image.js';
import { LIMITS } from './context.js';
import type { PeContext } from './context.js';
import { DIR } from './headers.js';
import type { PeHeaders } from './headers.js';
import type { RvaMap } from './rva-map.js';

const RUNTIME_FUNCTION_SIZE = 12;
const MACHINE_AMD64 = 0x8664;

export function readPdata(ctx: PeContext, h: PeHeaders, map: RvaMap): UnwindRange[] {
  const dir = h.dirs[DIR.exception]!;
  // i386 has no table (SEH is frame-based); ARM64's packed records are a different format.
  if (h.machine !== MACHINE_AMD64 || dir.rva === 0 || dir.size === 0) return [];
  let count = Math.floor(dir.size / RUNTIME_FUNCTION_SIZE);
  if (count > LIMITS.pdata) {
    ctx.warn(`exception directory: ${count} entries capped at ${LIMITS.pdata}`);
    count = LIMITS.pdata;
  }
  const v = ctx.v;
  const out: UnwindRange[] = [];
  let bad = 0;
  for (let i = 0; i < count; i++) {
    const at = map.offset(dir.rva + i * RUNTIME_FUNCTION_SIZE, RUNTIME_FUNCTION_SIZE);
    if (at < 0) {
      ctx.warn(`exception directory truncated at entry ${i} of ${count}`);
      break;
    }
    const begin = v.u32(at);
    const end = v.u32(at + 4);
    if (begin === 0 && end === 0) continue;
    if (end <= begin || end > h.sizeOfImage) {
      bad++;
      continue;
    }
    out.push({ start: h.imageBase + begin, end: h.imageBase + end });
  }
  if (bad > 0) ctx.warn(`${bad} exception-directory entries with empty or out-of-image ranges skipped`);
  return out;
}
