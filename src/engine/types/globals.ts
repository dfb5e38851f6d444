// Globals a function reads and writes: memory at constant addresses (absolute, or PC-relative once
// propagated) inside the image's data, as the records' GlobalVariable dependencies. Named and typed by
// DWARF where it covers the address, else by the object symbol containing it, else `g_<address>` typed by
// the width accessed.
import type { DataFlow } from '../ir/dataflow.js';
import { forEachLoad } from '../ir/dataflow.js';
import { importsByAddress, type BinaryImage } from '../formats/image.js';
import type { TypeDependencyRecord } from '../../shared/type-records.js';
import { formatType, intType, sizeOf, type CType, type TypeTable } from './ctype.js';
import type { DwarfGlobal } from './dwarf/index.js';

export interface GlobalAccess {
  address: number;
  /** The widest access, in bytes. */
  size: number;
}

/**
 * ELF's linkage tables: a slot there holds a global's address for position-independent code, not a
 * variable of the program (the variable is what the slot points to).
 */
const LINKAGE = /^\.got(\.plt)?$/;

/** Distinct globals one function lists at most (a table-driven function may touch hundreds). */
const MAX_GLOBALS = 256;

/**
 * Constant addresses the function's loads and stores use, widest access each: call and jump targets (import
 * slots read to branch through) are no data.
 */
export function globalAccesses(df: DataFlow): GlobalAccess[] {
  const widest = new Map<number, number>();
  const add = (addr: Parameters<DataFlow['evaluate']>[0], w: number) => {
    const v = df.evaluate(addr);
    if (v.kind !== 'const' || v.v <= 0n || (widest.size >= MAX_GLOBALS && !widest.has(Number(v.v)))) return;
    const at = Number(BigInt.asUintN(df.ssa.fn.regs.addressSize * 8, v.v));
    widest.set(at, Math.max(widest.get(at) ?? 0, w));
  };
  for (const b of df.ssa.fn.blocks)
    for (const s of b.stmts) {
      if (s.k === 'store') add(s.addr, s.w);
      const roots = s.k === 'set' ? [s.e] : s.k === 'store' ? [s.addr, s.v] : s.k === 'branch' ? [s.c] : [];
      for (const r of roots) forEachLoad(r, (l) => add(l.addr, l.w));
    }
  return [...widest].map(([address, size]) => ({ address, size })).sort((a, b) => a.address - b.address);
}

interface Named {
  address: number;
  size: number;
  name: string;
  /** The declared type (DWARF); symbols have none. */
  type: CType | null;
}

/** Names the globals functions access, once per image. */
export class GlobalNames {
  private readonly named: Named[];
  private readonly data: { start: number; end: number }[];
  private readonly imports: Map<number, string>;

  constructor(image: BinaryImage, dwarf: { globals: DwarfGlobal[]; table: TypeTable } | null, word: 4 | 8) {
    const declared: Named[] = (dwarf?.globals ?? []).map((g) => ({
      address: g.address,
      size: sizeOf(g.type, dwarf!.table) ?? word,
      name: g.name,
      type: g.type,
    }));
    const seen = new Set(declared.map((g) => g.address));
    const symbols: Named[] = image.symbols
      .filter((s) => s.kind === 'object' && s.vaddr > 0 && !seen.has(s.vaddr))
      .map((s) => ({ address: s.vaddr, size: s.size, name: s.name, type: null }));
    this.named = [...declared, ...symbols].sort((a, b) => a.address - b.address);
    this.data = image.sections
      .filter((s) => s.read && !s.exec && s.size > 0 && !LINKAGE.test(s.name))
      .map((s) => ({ start: s.vaddr, end: s.vaddr + s.size }));
    this.imports = importsByAddress(image);
  }

  /** One dependency per global the accesses reach, in address order; addresses outside the data are none. */
  dependencies(accesses: GlobalAccess[]): TypeDependencyRecord[] {
    const out = new Map<number, TypeDependencyRecord>();
    for (const a of accesses) {
      if (this.imports.has(a.address) || !this.data.some((d) => a.address >= d.start && a.address < d.end)) continue;
      const g = this.containing(a.address);
      if (!g) {
        if (!out.has(a.address)) out.set(a.address, this.record(`g_${a.address.toString(16)}`, a.address, a.size));
        continue;
      }
      if (out.has(g.address)) continue;
      // A symbol accessed whole is an integer of that width; one accessed inside (an array, a structure)
      // is its bytes until someone says more.
      const whole = a.address === g.address && (g.size === 0 || g.size === a.size);
      out.set(
        g.address,
        g.type
          ? { kind: 'global', name: g.name, type: formatType(g.type), size: g.size, vaddr: g.address }
          : this.record(g.name, g.address, whole ? a.size : g.size, !whole),
      );
    }
    return [...out.values()].sort((x, y) => (x as { vaddr: number }).vaddr - (y as { vaddr: number }).vaddr);
  }

  /**
   * A global known only by size: an integer of the width accessed, or bytes when accessed inside or wider
   * than an integer (a vector constant).
   */
  private record(name: string, vaddr: number, size: number, bytes = false): TypeDependencyRecord {
    const type: CType =
      bytes || ![1, 2, 4, 8].includes(size)
        ? { kind: 'array', of: intType(1, false), count: size }
        : intType(size as 1 | 2 | 4 | 8);
    return { kind: 'global', name, type: formatType(type), size, vaddr };
  }

  /** The named global whose bytes hold `address` (the last starting at or before it, if it reaches). */
  private containing(address: number): Named | null {
    let lo = 0;
    let hi = this.named.length - 1;
    let best: Named | null = null;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      if (this.named[mid]!.address <= address) {
        best = this.named[mid]!;
        lo = mid + 1;
      } else hi = mid - 1;
    }
    return best && address < best.address + Math.max(1, best.size) ? best : null;
  }
}
