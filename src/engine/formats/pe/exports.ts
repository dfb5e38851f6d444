// Export directory (directory 0): the address table (EAT) indexed by ordinal − Base, and the name table whose
// parallel ordinal table points into the EAT. An EAT entry inside the directory itself is a forwarder string
// ("OTHER.dll.Func"), code of another DLL, so it is skipped.
import type { ExportInfo } from '../image.js';
import { LIMITS } from './context.js';
import type { PeContext } from './context.js';
import { DIR } from './headers.js';
import type { PeHeaders } from './headers.js';
import type { RvaMap } from './rva-map.js';

const DIRECTORY_SIZE = 40;

export function readExports(ctx: PeContext, h: PeHeaders, map: RvaMap): ExportInfo[] {
  const dir = h.dirs[DIR.export]!;
  if (dir.rva === 0) return [];
  const v = ctx.v;
  const at = map.offset(dir.rva, DIRECTORY_SIZE);
  if (at < 0) {
    ctx.warn('export directory lies outside the file');
    return [];
  }
  const base = v.u32(at + 16);
  let functionCount = v.u32(at + 20);
  let nameCount = v.u32(at + 24);
  const functions = v.u32(at + 28);
  const names = v.u32(at + 32);
  const ordinals = v.u32(at + 36);
  if (functionCount > LIMITS.exports || nameCount > LIMITS.exports) {
    ctx.warn(`export counts ${functionCount}/${nameCount} capped at ${LIMITS.exports}`);
    functionCount = Math.min(functionCount, LIMITS.exports);
    nameCount = Math.min(nameCount, LIMITS.exports);
  }

  // Names first, keyed by EAT index; the first name given to an index wins (aliases are rare and kept
  // out so each exported address appears once per index).
  const nameOf = new Map<number, string>();
  for (let i = 0; i < nameCount; i++) {
    const nameAt = map.offset(names + i * 4, 4);
    const ordAt = map.offset(ordinals + i * 2, 2);
    if (nameAt < 0 || ordAt < 0) {
      ctx.warn(`export name table truncated at ${i} of ${nameCount}`);
      break;
    }
    const index = v.u16(ordAt);
    const strAt = map.offset(v.u32(nameAt));
    const name = strAt >= 0 ? ctx.name(strAt) : '';
    if (name !== '' && !nameOf.has(index)) nameOf.set(index, name);
  }

  const out: ExportInfo[] = [];
  for (let i = 0; i < functionCount; i++) {
    const entryAt = map.offset(functions + i * 4, 4);
    if (entryAt < 0) {
      ctx.warn(`export address table truncated at ${i} of ${functionCount}`);
      break;
    }
    const rva = v.u32(entryAt);
    if (rva === 0) continue;
    if (rva >= dir.rva && rva < dir.rva + dir.size) continue;
    const ordinal = base + i;
    out.push({ name: nameOf.get(i) ?? `ordinal_${ordinal}`, vaddr: h.imageBase + rva, ordinal });
  }
  return out;
}
