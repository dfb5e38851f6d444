// Imports through LC_DYSYMTAB's indirect symbol table: a section of type S_SYMBOL_STUBS, S_LAZY_SYMBOL_POINTERS,
// S_NON_LAZY_SYMBOL_POINTERS (__got) or S_LAZY_DYLIB_SYMBOL_POINTERS owns entries reserved1 … reserved1+n−1
// of that table, one per stub (reserved2 bytes each) or pointer; each entry is an nlist index. The library is
// the two-level-namespace ordinal in the nlist's n_desc >> 8, counting dylib load commands from 1.
import type { ImportInfo } from '../image.js';
import { LIMITS } from './context.js';
import type { MachOContext } from './context.js';
import type { Commands } from './load-commands.js';
import type { NlistTable } from './symbols.js';

const S_NON_LAZY_SYMBOL_POINTERS = 0x6;
const S_LAZY_SYMBOL_POINTERS = 0x7;
const S_SYMBOL_STUBS = 0x8;
const S_LAZY_DYLIB_SYMBOL_POINTERS = 0x10;
const INDIRECT_SYMBOL_LOCAL = 0x80000000;
const INDIRECT_SYMBOL_ABS = 0x40000000;
/** Library ordinals with no dylib behind them: the image itself, flat lookup, the main executable. */
const SELF_LIBRARY_ORDINAL = 0;
const DYNAMIC_LOOKUP_ORDINAL = 0xfe;
const EXECUTABLE_ORDINAL = 0xff;

interface Uses {
  lazy: number[];
  nonLazy: number[];
  stubs: number[];
}

/**
 * One ImportInfo per (symbol, pointer): the stubs go with the symbol's lazy pointer when it has one (classic
 * dyld binds stubs through __la_symbol_ptr), else with its first non-lazy one (chained-fixup binaries jump
 * through __got). A symbol with stubs but no pointer at all gets slot 0.
 */
export function readImports(ctx: MachOContext, cmds: Commands, table: NlistTable): ImportInfo[] {
  const ind = cmds.indirect;
  if (!ind || ind.size === 0) return [];
  const v = ctx.v;
  const ptrSize = cmds.header.is64 ? 8 : 4;
  const bySymbol = new Map<number, Uses>();
  let budget: number = LIMITS.indirectSymbols;
  let bad = 0;
  for (const s of cmds.sections) {
    const isStubs = s.type === S_SYMBOL_STUBS;
    const isLazy = s.type === S_LAZY_SYMBOL_POINTERS || s.type === S_LAZY_DYLIB_SYMBOL_POINTERS;
    if (!isStubs && !isLazy && s.type !== S_NON_LAZY_SYMBOL_POINTERS) continue;
    const stride = isStubs ? s.reserved2 : ptrSize;
    if (stride === 0) {
      ctx.warn(`${s.segname},${s.sectname}: stub size 0`);
      continue;
    }
    let count = Math.floor(s.size / stride);
    if (count > budget) {
      ctx.warn(`indirect symbol entries capped at ${LIMITS.indirectSymbols}`);
      count = budget;
    }
    budget -= count;
    for (let k = 0; k < count; k++) {
      const index = s.reserved1 + k;
      if (index >= ind.size || !v.has(ind.offset + index * 4, 4)) {
        ctx.warn(`${s.segname},${s.sectname}: indirect symbol table ends at entry ${k} of ${count}`);
        break;
      }
      const symbol = v.u32(ind.offset + index * 4);
      if (symbol & (INDIRECT_SYMBOL_LOCAL | INDIRECT_SYMBOL_ABS)) continue;
      if (symbol >= table.count) {
        bad++;
        continue;
      }
      let uses = bySymbol.get(symbol);
      if (!uses) bySymbol.set(symbol, (uses = { lazy: [], nonLazy: [], stubs: [] }));
      const address = s.addr + k * stride;
      (isStubs ? uses.stubs : isLazy ? uses.lazy : uses.nonLazy).push(address);
    }
    if (budget === 0) break;
  }
  if (bad > 0) ctx.warn(`${bad} indirect symbol entries point past the symbol table`);

  const out: ImportInfo[] = [];
  for (const [symbol, uses] of bySymbol) {
    const n = table.at(symbol);
    if (n.name === '') continue;
    const ordinal = (n.desc >> 8) & 0xff;
    const noLibrary =
      ordinal === SELF_LIBRARY_ORDINAL || ordinal === DYNAMIC_LOOKUP_ORDINAL || ordinal === EXECUTABLE_ORDINAL;
    const library = noLibrary ? null : cmds.dylibs[ordinal - 1] || null;
    const slots = [...uses.lazy, ...uses.nonLazy];
    if (slots.length === 0) slots.push(0);
    slots.forEach((slot, i) => out.push({ name: n.name, library, slot, stubs: i === 0 ? uses.stubs : [] }));
  }
  return out;
}
