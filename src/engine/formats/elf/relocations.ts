// Dynamic relocations (REL, RELA and packed RELR; 32 and 64-bit). JUMP_SLOT/GLOB_DAT against undefined
// symbols become imports (the slot the loader fills); RELATIVE/IRELATIVE and absolute relocations against
// defined symbols become pointers (a code or data address the loader writes, found without disassembly).
import type { PointerRef } from '../image.js';
import { EM_386, EM_AARCH64, EM_ARM, EM_MIPS, EM_X86_64, SHF_ALLOC, SHT_REL, SHT_RELA } from './constants.js';
import type { ElfContext } from './context.js';
import {
  DT_JMPREL,
  DT_PLTREL,
  DT_PLTRELSZ,
  DT_REL,
  DT_RELA,
  DT_RELAENT,
  DT_RELASZ,
  DT_RELENT,
  DT_RELR,
  DT_RELRENT,
  DT_RELRSZ,
  DT_RELSZ,
  type DynamicTable,
} from './dynamic.js';
import type { Budget, SymbolTable } from './symbols.js';

/** 4 Mi relocations: the largest real binaries carry ~1 Mi; at 8-24 bytes each this is 32-96 MB of file. */
export const MAX_RELOCATIONS = 4 * 1024 * 1024;
/** Linked files carry 2-4 dynamic relocation tables; objects one per section, rarely thousands. */
const MAX_TABLES = 4096;
/** RELR bitmaps expand up to 63 pointers per word, so pointers get their own cap. */
export const MAX_POINTERS = 4 * 1024 * 1024;
const TWO_32 = 0x1_0000_0000;

interface RelocTypes {
  jumpSlot: number;
  globDat: number;
  relative: number;
  irelative: number;
  /** Word-sized absolute relocations (S + A). */
  abs: number;
  /** Tables use RELA unless DT_PLTREL says otherwise. */
  rela: boolean;
}

const R_MIPS_REL32 = 3;
const TYPES: Record<number, RelocTypes> = {
  [EM_X86_64]: { jumpSlot: 7, globDat: 6, relative: 8, irelative: 37, abs: 1, rela: true },
  [EM_386]: { jumpSlot: 7, globDat: 6, relative: 8, irelative: 42, abs: 1, rela: false },
  [EM_AARCH64]: { jumpSlot: 1026, globDat: 1025, relative: 1027, irelative: 1032, abs: 257, rela: true },
  [EM_ARM]: { jumpSlot: 22, globDat: 21, relative: 23, irelative: 160, abs: 2, rela: false },
  // MIPS: no GLOB_DAT (the GOT is filled from DT_MIPS_GOTSYM on), REL32 is handled on its own.
  [EM_MIPS]: { jumpSlot: 127, globDat: -1, relative: -1, irelative: 128, abs: -1, rela: false },
  // PowerPC (32/64) and RISC-V: same idea, their numbers.
  20: { jumpSlot: 21, globDat: 20, relative: 22, irelative: 248, abs: 1, rela: true },
  21: { jumpSlot: 21, globDat: 20, relative: 22, irelative: 248, abs: 38, rela: true },
  243: { jumpSlot: 5, globDat: -1, relative: 3, irelative: 58, abs: 2, rela: true },
};
const UNKNOWN: RelocTypes = { jumpSlot: -1, globDat: -1, relative: -1, irelative: -1, abs: -1, rela: true };

export interface RelocTable {
  label: string;
  offset: number;
  size: number;
  entsize: number;
  rela: boolean;
}

export interface ImportSlot {
  name: string;
  slot: number;
  symIndex: number;
  /** From a JUMP_SLOT (PLT) relocation rather than GLOB_DAT. */
  jumpSlot: boolean;
}

export interface RelocationResult {
  imports: ImportSlot[];
  pointers: PointerRef[];
}

function tableFromDynamic(
  ctx: ElfContext,
  label: string,
  addr: number | undefined,
  size: number | undefined,
  rela: boolean,
  ent: number | undefined,
): RelocTable | null {
  if (addr === undefined || !size) return null;
  const offset = ctx.map.toOffset(addr);
  if (offset < 0) {
    ctx.diag.add(`${label} table at 0x${addr.toString(16)} is not in the file`);
    return null;
  }
  const std = relocEntrySize(ctx.header.is64, rela);
  return {
    label,
    offset,
    size: Math.min(size, ctx.map.fileBytesFrom(addr)),
    entsize: ent && ent >= std ? ent : std,
    rela,
  };
}

export function relocEntrySize(is64: boolean, rela: boolean): number {
  return (is64 ? 16 : 8) + (rela ? (is64 ? 8 : 4) : 0);
}

/** The loader's tables from the dynamic section, plus allocated REL/RELA sections none of them covers. */
export function relocationTables(ctx: ElfContext, dyn: DynamicTable): RelocTable[] {
  const types = TYPES[ctx.header.machine] ?? UNKNOWN;
  const pltRela = dyn.get(DT_PLTREL) === undefined ? types.rela : dyn.get(DT_PLTREL) === DT_RELA;
  const tables = [
    tableFromDynamic(ctx, 'DT_RELA', dyn.get(DT_RELA), dyn.get(DT_RELASZ), true, dyn.get(DT_RELAENT)),
    tableFromDynamic(ctx, 'DT_REL', dyn.get(DT_REL), dyn.get(DT_RELSZ), false, dyn.get(DT_RELENT)),
    tableFromDynamic(ctx, 'DT_JMPREL', dyn.get(DT_JMPREL), dyn.get(DT_PLTRELSZ), pltRela, undefined),
  ].filter((t): t is RelocTable => t !== null);
  for (const s of ctx.sections) {
    if ((s.type !== SHT_REL && s.type !== SHT_RELA) || (s.flags & SHF_ALLOC) === 0 || s.fileBytes === 0) continue;
    if (tables.length >= MAX_TABLES) {
      ctx.diag.add(`more than ${MAX_TABLES} relocation tables; the rest are ignored`);
      break;
    }
    const covered = tables.some((t) => s.offset >= t.offset && s.offset + s.fileBytes <= t.offset + t.size);
    if (covered) continue;
    const rela = s.type === SHT_RELA;
    const std = relocEntrySize(ctx.header.is64, rela);
    tables.push({
      label: s.name || `section ${s.index}`,
      offset: s.offset,
      size: s.fileBytes,
      entsize: Math.max(std, s.entsize),
      rela,
    });
  }
  return tables;
}

/** A relocated value as an address, wrapped to the file class; null when it is no usable address. */
function address(value: number, is64: boolean): number | null {
  if (!Number.isFinite(value)) return null;
  const v = is64 ? value : ((value % TWO_32) + TWO_32) % TWO_32;
  return Number.isSafeInteger(v) && v > 0 ? v : null;
}

export function resolveRelocations(
  ctx: ElfContext,
  dyn: DynamicTable,
  dynsym: SymbolTable | null,
  budget: Budget,
): RelocationResult {
  const { view, map, header } = ctx;
  const types = TYPES[header.machine] ?? UNKNOWN;
  const mips64 = header.machine === EM_MIPS && header.is64;
  const word = view.wordSize;
  const imports: ImportSlot[] = [];
  const pointers: PointerRef[] = [];
  const stored = (at: number): number => {
    const off = map.toOffset(at, word);
    return off < 0 ? 0 : view.addr(off);
  };
  const point = (at: number, value: number): boolean => {
    if (pointers.length >= MAX_POINTERS) {
      ctx.diag.add(`relocated pointers exceed the limit of ${MAX_POINTERS}; the rest are ignored`);
      return false;
    }
    const target = address(value, header.is64);
    if (target !== null) pointers.push({ at, target });
    return true;
  };

  for (const t of relocationTables(ctx, dyn)) {
    let count = Math.floor(t.size / t.entsize);
    if (count > budget.left) {
      ctx.diag.add(`relocations exceed the limit of ${MAX_RELOCATIONS}; the rest are ignored`);
      count = budget.left;
    }
    budget.left -= count;
    for (let i = 0; i < count; i++) {
      const e = t.offset + i * t.entsize;
      const at = view.addr(e);
      let type: number;
      let sym: number;
      if (!header.is64) {
        const info = view.u32(e + 4);
        type = info & 0xff;
        sym = info >>> 8;
      } else if (mips64) {
        // MIPS64 r_info: 32-bit symbol, then ssym, type3, type2, type bytes (MIPS64 ELF supplement).
        sym = view.u32(e + 8);
        type = view.u8(e + 15);
      } else {
        sym = view.u32(e + (header.little ? 12 : 8));
        type = view.u32(e + (header.little ? 8 : 12));
      }
      const addend = t.rela ? (header.is64 ? view.i64(e + 16) : view.i32(e + 8)) : 0;
      if (type === types.relative || type === types.irelative) {
        point(at, t.rela ? addend : stored(at));
      } else if (type === types.jumpSlot || type === types.globDat) {
        if (sym === 0 || !dynsym) continue;
        if (dynsym.isDefined(sym)) point(at, dynsym.value(sym) + addend);
        else {
          const name = dynsym.name(sym);
          if (name !== '') imports.push({ name, slot: at, symIndex: sym, jumpSlot: type === types.jumpSlot });
        }
      } else if (type === types.abs && sym !== 0 && dynsym?.isDefined(sym)) {
        point(at, dynsym.value(sym) + (t.rela ? addend : stored(at)));
      } else if (header.machine === EM_MIPS && type === R_MIPS_REL32) {
        // REL32 adds the load base (symbol 0) or the symbol's value to the word in place; a REL32
        // against an undefined symbol points outside this file.
        if (sym === 0) point(at, stored(at));
        else if (dynsym?.isDefined(sym)) point(at, stored(at) + dynsym.value(sym));
      }
    }
  }
  readRelr(ctx, dyn, budget, (at) => point(at, stored(at)));
  return { imports, pointers };
}

/**
 * Packed relative relocations (DT_RELR): an even word is an address; an odd word is a bitmap of the
 * following word-1 words after the last address. Each marked word holds its own addend.
 */
function readRelr(ctx: ElfContext, dyn: DynamicTable, budget: Budget, emit: (at: number) => boolean): void {
  const addr = dyn.get(DT_RELR);
  const size = dyn.get(DT_RELRSZ);
  if (addr === undefined || !size) return;
  const { view, map } = ctx;
  const word = view.wordSize;
  const ent = dyn.get(DT_RELRENT) ?? word;
  const off = map.toOffset(addr);
  if (off < 0 || ent !== word) {
    ctx.diag.add('DT_RELR table unreadable');
    return;
  }
  const count = Math.min(Math.floor(Math.min(size, map.fileBytesFrom(addr)) / word), budget.left);
  budget.left -= count;
  let base = 0;
  for (let i = 0; i < count; i++) {
    const e = off + i * word;
    const lo = view.u32(e + (view.is64 && !view.little ? 4 : 0));
    if ((lo & 1) === 0) {
      const at = view.addr(e);
      if (!emit(at)) return;
      base = at + word;
      continue;
    }
    const hi = view.is64 ? view.u32(e + (view.little ? 4 : 0)) : 0;
    const bits = word * 8 - 1;
    for (let b = 1; b <= bits; b++) {
      const set = b < 32 ? (lo >>> b) & 1 : (hi >>> (b - 32)) & 1;
      if (set && !emit(base + (b - 1) * word)) return;
    }
    base += bits * word;
  }
}
