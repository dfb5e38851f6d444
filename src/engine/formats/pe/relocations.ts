// Base relocations (directory 5): blocks of {page RVA, block size, u16 entries (type << 12 | offset)}. Each
// HIGHLOW/DIR64 entry marks a stored absolute address; those that point into code are function-pointer
// tables, vtables and the like, the pointer sources later stages want.
import type { PointerRef } from '../image.js';
import { LIMITS } from './context.js';
import type { PeContext } from './context.js';
import { DIR } from './headers.js';
import type { PeHeaders } from './headers.js';
import type { RvaMap } from './rva-map.js';

const BLOCK_HEADER = 8;
const REL_BASED_ABSOLUTE = 0;
const REL_BASED_HIGHLOW = 3;
const REL_BASED_DIR64 = 10;

export function readRelocations(ctx: PeContext, h: PeHeaders, map: RvaMap): PointerRef[] {
  const dir = h.dirs[DIR.baseReloc]!;
  if (dir.rva === 0 || dir.size === 0) return [];
  const v = ctx.v;
  const out: PointerRef[] = [];
  const end = dir.rva + dir.size;
  let entries = 0;
  let skipped = 0;
  for (let block = dir.rva; block + BLOCK_HEADER <= end;) {
    const at = map.offset(block, BLOCK_HEADER);
    if (at < 0) {
      ctx.warn(`relocation block at RVA 0x${block.toString(16)} lies outside the file`);
      break;
    }
    const page = v.u32(at);
    const size = v.u32(at + 4);
    // A block smaller than its header would never advance the walk.
    if (size < BLOCK_HEADER || block + size > end) {
      ctx.warn(`relocation block at RVA 0x${block.toString(16)} has bad size ${size}`);
      break;
    }
    const count = (size - BLOCK_HEADER) >>> 1;
    const list = map.offset(block + BLOCK_HEADER, count * 2);
    if (list < 0) {
      ctx.warn(`relocation entries at RVA 0x${block.toString(16)} lie outside the file`);
      break;
    }
    if (entries + count > LIMITS.relocations) {
      ctx.warn(`relocations capped at ${LIMITS.relocations}`);
      break;
    }
    entries += count;
    for (let i = 0; i < count; i++) {
      const entry = v.u16(list + i * 2);
      const type = entry >>> 12;
      if (type === REL_BASED_ABSOLUTE) continue;
      if (type !== REL_BASED_HIGHLOW && type !== REL_BASED_DIR64) {
        skipped++;
        continue;
      }
      const rva = page + (entry & 0xfff);
      const width = type === REL_BASED_DIR64 ? 8 : 4;
      const where = map.offset(rva, width);
      if (where < 0) continue;
      // Two 32-bit reads rather than a BigInt per entry; a pointer above 2^53 cannot hit code anyway.
      const target = v.u32(where) + (width === 8 ? v.u32(where + 4) * 0x100000000 : 0);
      if (map.isExecRva(target - h.imageBase)) out.push({ at: h.imageBase + rva, target });
    }
    block += size;
  }
  if (skipped > 0) ctx.warn(`${skipped} relocations of types other than HIGHLOW/DIR64 ignored`);
  return out;
}
