// Initialisers and finalisers: DT_INIT/DT_FINI and the (pre)init/fini arrays, from the dynamic table and
// from SHT_*_ARRAY sections (static executables have no dynamic table). In a PIE the array words are 0 in
// the file and written by RELATIVE relocations, so a slot's relocated value wins over its file value.
import type { EntryPoint, PointerRef } from '../image.js';
import { EM_ARM, SHF_ALLOC, SHT_FINI_ARRAY, SHT_INIT_ARRAY, SHT_PREINIT_ARRAY } from './constants.js';
import type { ElfContext } from './context.js';
import {
  DT_FINI,
  DT_FINI_ARRAY,
  DT_FINI_ARRAYSZ,
  DT_INIT,
  DT_INIT_ARRAY,
  DT_INIT_ARRAYSZ,
  DT_PREINIT_ARRAY,
  DT_PREINIT_ARRAYSZ,
  type DynamicTable,
} from './dynamic.js';

/**
 * Entries read over all arrays: real arrays hold a handful (C++ programs: one per translation unit with
 * static constructors), so 64 Ki is generous; and at most this many arrays (sections) are looked at.
 */
const MAX_ENTRIES = 1 << 16;
const MAX_ARRAYS = 256;

interface ArrayRef {
  addr: number;
  size: number;
  kind: 'init' | 'fini';
}

/**
 * A code address as an entry point; on ARM the low bit selects Thumb, and a clear bit is A32 code (glibc's
 * `_init`/`_fini` in .init/.fini are A32 in Thumb-2 builds: decoding them as Thumb lost their calls).
 */
export function entryAt(ctx: ElfContext, value: number, kind: EntryPoint['kind']): EntryPoint {
  if (ctx.header.machine === EM_ARM)
    return value % 2 === 1 ? { vaddr: value - 1, kind, thumb: true } : { vaddr: value, kind, thumb: false };
  return { vaddr: value, kind };
}

function arrays(ctx: ElfContext, dyn: DynamicTable): ArrayRef[] {
  const out: ArrayRef[] = [];
  const fromDyn = (addrTag: number, sizeTag: number, kind: ArrayRef['kind']): void => {
    const addr = dyn.get(addrTag);
    if (addr !== undefined) out.push({ addr, size: dyn.get(sizeTag) ?? 0, kind });
  };
  fromDyn(DT_PREINIT_ARRAY, DT_PREINIT_ARRAYSZ, 'init');
  fromDyn(DT_INIT_ARRAY, DT_INIT_ARRAYSZ, 'init');
  fromDyn(DT_FINI_ARRAY, DT_FINI_ARRAYSZ, 'fini');
  const seen = new Set(out.map((a) => a.addr));
  for (const s of ctx.sections) {
    if (out.length >= MAX_ARRAYS) break;
    if ((s.flags & SHF_ALLOC) === 0 || seen.has(s.addr)) continue;
    seen.add(s.addr);
    if (s.type === SHT_INIT_ARRAY || s.type === SHT_PREINIT_ARRAY)
      out.push({ addr: s.addr, size: s.size, kind: 'init' });
    else if (s.type === SHT_FINI_ARRAY) out.push({ addr: s.addr, size: s.size, kind: 'fini' });
  }
  return out;
}

export function initFini(
  ctx: ElfContext,
  dyn: DynamicTable,
  relocated: ReadonlyMap<number, number>,
): { entries: EntryPoint[]; pointers: PointerRef[] } {
  const entries: EntryPoint[] = [];
  const pointers: PointerRef[] = [];
  const { view, map } = ctx;
  const code = (v: number): boolean => v !== 0 && (!map.hasExec || map.isExec(v - (v % 2)));
  const init = dyn.get(DT_INIT);
  const fini = dyn.get(DT_FINI);
  if (init !== undefined && code(init)) entries.push(entryAt(ctx, init, 'init'));
  if (fini !== undefined && code(fini)) entries.push(entryAt(ctx, fini, 'fini'));
  const word = view.wordSize;
  const allOnes = word === 8 ? 2 ** 64 : 0xffffffff;
  let budget = MAX_ENTRIES;
  for (const a of arrays(ctx, dyn)) {
    const count = Math.min(Math.floor(a.size / word), budget);
    budget -= count;
    for (let i = 0; i < count; i++) {
      const slot = a.addr + i * word;
      let target = relocated.get(slot);
      if (target === undefined) {
        const off = map.toOffset(slot, word);
        if (off < 0) break;
        target = view.addr(off);
      }
      // 0 and -1 are the old .ctors/.dtors list markers, not functions.
      if (target === 0 || target === allOnes) continue;
      pointers.push({ at: slot, target });
      if (code(target)) entries.push(entryAt(ctx, target, a.kind));
    }
  }
  return { entries, pointers };
}
