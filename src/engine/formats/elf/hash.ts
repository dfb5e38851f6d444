// Size of the dynamic symbol table when no section header says it (section-stripped files): the loader
// never needs the count, so it is only recoverable from the symbol hash tables.
import type { ElfContext } from './context.js';
import { DT_GNU_HASH, DT_HASH, DT_STRTAB, DT_SYMTAB, type DynamicTable } from './dynamic.js';

/** nchain of the SysV hash table equals the number of dynamic symbols. */
function fromSysvHash(ctx: ElfContext, addr: number): number | null {
  const off = ctx.map.toOffset(addr, 8);
  return off < 0 ? null : ctx.view.u32(off + 4);
}

/**
 * GNU hash: the highest symbol index any bucket reaches, then along its chain to the end marker (low bit
 * set). The chain walk is bounded by the file, so a chain without an end marker cannot loop.
 */
function fromGnuHash(ctx: ElfContext, addr: number): number | null {
  const { view, map } = ctx;
  const off = map.toOffset(addr, 16);
  if (off < 0) return null;
  const nbuckets = view.u32(off);
  const symoffset = view.u32(off + 4);
  const bloomSize = view.u32(off + 8);
  const buckets = off + 16 + bloomSize * view.wordSize;
  if (!view.has(buckets, nbuckets * 4)) return null;
  let max = 0;
  for (let i = 0; i < nbuckets; i++) max = Math.max(max, view.u32(buckets + i * 4));
  if (max < symoffset) return symoffset;
  const chains = buckets + nbuckets * 4;
  let idx = max;
  for (;;) {
    const at = chains + (idx - symoffset) * 4;
    if (!view.has(at, 4)) return idx;
    if ((view.u32(at) & 1) !== 0) return idx + 1;
    idx++;
  }
}

/**
 * Number of dynamic symbols from DT_HASH or DT_GNU_HASH; failing both, the bytes between DT_SYMTAB and
 * DT_STRTAB (linkers place .dynstr right after .dynsym), as a byte count to be divided by the entry size.
 */
export function dynsymBytes(ctx: ElfContext, dyn: DynamicTable, entsize: number): number {
  const hash = dyn.get(DT_HASH);
  const gnu = dyn.get(DT_GNU_HASH);
  const count =
    (hash !== undefined ? fromSysvHash(ctx, hash) : null) ?? (gnu !== undefined ? fromGnuHash(ctx, gnu) : null);
  if (count !== null) return count * entsize;
  const symtab = dyn.get(DT_SYMTAB) ?? 0;
  const strtab = dyn.get(DT_STRTAB) ?? 0;
  if (strtab > symtab) return strtab - symtab;
  return ctx.map.fileBytesFrom(symtab);
}
