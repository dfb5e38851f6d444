// .symtab and .dynsym. A SymbolTable reads entries lazily from the file (relocations look up a few dynamic
// symbols by index; listing walks them once), so no per-entry objects exist until a SymbolInfo is made.
import type { SymbolInfo, SymbolSource } from '../image.js';
import {
  EM_AARCH64,
  EM_ARM,
  STB_GLOBAL,
  STB_LOCAL,
  STB_WEAK,
  STT_COMMON,
  STT_FILE,
  STT_FUNC,
  STT_GNU_IFUNC,
  STT_OBJECT,
  STT_SECTION,
  SHN_UNDEF,
} from './constants.js';
import type { ElfContext } from './context.js';
import type { SectionHeader } from './headers.js';
import type { ElfView } from './view.js';

/** Symbols kept over the whole parse: the largest real binaries (Chromium) hold ~1.5 million. */
export const MAX_SYMBOLS = 2_000_000;
const STB_GNU_UNIQUE = 10;
const STV_HIDDEN = 2;
const STV_INTERNAL = 1;

export interface Budget {
  left: number;
}

export class SymbolTable {
  readonly entsize: number;
  /** Names by string-table offset: symbols sharing a name (or a hostile table repeating one) decode once. */
  private readonly names = new Map<number, string>();

  constructor(
    private readonly view: ElfView,
    readonly offset: number,
    entsize: number,
    readonly count: number,
    private readonly strStart: number,
    private readonly strEnd: number,
  ) {
    this.entsize = entsize;
  }

  private at(i: number): number {
    return this.offset + i * this.entsize;
  }

  name(i: number): string {
    if (i < 0 || i >= this.count) return '';
    const off = this.view.u32(this.at(i));
    const known = this.names.get(off);
    if (known !== undefined) return this.view.charge(known);
    const name = this.view.name(this.strStart + off, this.strEnd);
    this.names.set(off, name);
    return name;
  }

  value(i: number): number {
    return this.view.is64 ? this.view.u64(this.at(i) + 8) : this.view.u32(this.at(i) + 4);
  }

  size(i: number): number {
    return this.view.is64 ? this.view.u64(this.at(i) + 16) : this.view.u32(this.at(i) + 8);
  }

  info(i: number): number {
    return this.view.u8(this.at(i) + (this.view.is64 ? 4 : 12));
  }

  other(i: number): number {
    return this.view.u8(this.at(i) + (this.view.is64 ? 5 : 13));
  }

  shndx(i: number): number {
    return this.view.u16(this.at(i) + (this.view.is64 ? 6 : 14));
  }

  isDefined(i: number): boolean {
    return i > 0 && i < this.count && this.shndx(i) !== SHN_UNDEF;
  }
}

/** Standard entry size; a zero or too-small sh_entsize is damage we repair by assuming this. */
export function symbolEntrySize(is64: boolean): number {
  return is64 ? 24 : 16;
}

/**
 * A symbol table of `count` entries at file `offset`, clipped to the file and to the budget. The string
 * table bounds are file offsets; names past `strEnd` read as ''.
 */
export function openSymbolTable(
  ctx: ElfContext,
  label: string,
  offset: number,
  entsize: number,
  maxBytes: number,
  strStart: number,
  strEnd: number,
  budget: Budget,
): SymbolTable | null {
  const std = symbolEntrySize(ctx.header.is64);
  let stride = entsize;
  if (stride < std) {
    ctx.diag.add(`${label}: entry size ${entsize} is invalid, using ${std}`);
    stride = std;
  }
  if (!ctx.view.has(offset, 0)) {
    ctx.diag.add(`${label}: table lies outside the file`);
    return null;
  }
  const room = Math.min(maxBytes, ctx.view.length - offset);
  let count = Math.max(0, Math.floor(room / stride));
  if (count > budget.left) {
    ctx.diag.add(`${label}: ${count} symbols exceed the limit of ${MAX_SYMBOLS}; the rest are ignored`);
    count = budget.left;
  }
  budget.left -= count;
  const end = Math.min(strEnd, ctx.view.length);
  return new SymbolTable(ctx.view, offset, stride, count, strStart, end);
}

export function symbolTableFromSection(ctx: ElfContext, s: SectionHeader, budget: Budget): SymbolTable | null {
  const strtab = ctx.sections[s.link];
  const label = `symbol table ${s.name || s.index}`;
  let strStart = 0;
  let strEnd = 0;
  if (!strtab || s.link === 0 || strtab.fileBytes === 0) ctx.diag.add(`${label}: no string table, names lost`);
  else [strStart, strEnd] = [strtab.offset, strtab.offset + strtab.fileBytes];
  return openSymbolTable(ctx, label, s.offset, s.entsize, s.fileBytes, strStart, strEnd, budget);
}

/** ARM/AArch64 mapping symbols ($a, $t, $d, $x and their `.n` forms) mark code/data runs, not functions. */
function isMappingSymbol(name: string): boolean {
  if (name.charCodeAt(0) !== 36 /* $ */) return false;
  const c = name[1];
  return (c === 'a' || c === 't' || c === 'd' || c === 'x') && (name.length === 2 || name[2] === '.');
}

function kindOf(type: number): SymbolInfo['kind'] {
  if (type === STT_FUNC || type === STT_GNU_IFUNC) return 'function';
  if (type === STT_OBJECT || type === STT_COMMON) return 'object';
  return 'other';
}

function bindingOf(bind: number): SymbolInfo['binding'] {
  if (bind === STB_WEAK) return 'weak';
  if (bind === STB_GLOBAL || bind === STB_GNU_UNIQUE) return 'global';
  return 'local';
}

/** Address of a symbol and whether it is Thumb code: on ARM a function's low address bit selects Thumb. */
export function codeAddress(machine: number, type: number, value: number): { vaddr: number; thumb: boolean } {
  const func = type === STT_FUNC || type === STT_GNU_IFUNC;
  if (machine === EM_ARM && func && value % 2 === 1) return { vaddr: value - 1, thumb: true };
  return { vaddr: value, thumb: false };
}

/** Defined, named symbols of a table as SymbolInfo, leaving out section/file symbols and mapping symbols. */
export function listSymbols(ctx: ElfContext, table: SymbolTable, source: SymbolSource): SymbolInfo[] {
  const out: SymbolInfo[] = [];
  const machine = ctx.header.machine;
  const mapping = machine === EM_ARM || machine === EM_AARCH64 || machine === 243;
  for (let i = 1; i < table.count; i++) {
    if (table.shndx(i) === SHN_UNDEF) continue;
    const info = table.info(i);
    const type = info & 0xf;
    if (type === STT_SECTION || type === STT_FILE) continue;
    const name = table.name(i);
    if (name === '' || (mapping && isMappingSymbol(name))) continue;
    const { vaddr, thumb } = codeAddress(machine, type, table.value(i));
    const sym: SymbolInfo = {
      name,
      vaddr,
      size: table.size(i),
      kind: kindOf(type),
      binding: bindingOf(info >> 4),
      source,
    };
    if (thumb) sym.thumb = true;
    out.push(sym);
  }
  return out;
}

export interface ExportedFunction {
  name: string;
  vaddr: number;
  thumb: boolean;
}

/** Functions the dynamic symbol table exports: global or weak, defined, default or protected visibility. */
export function listExports(ctx: ElfContext, dynsym: SymbolTable): ExportedFunction[] {
  const out: ExportedFunction[] = [];
  for (let i = 1; i < dynsym.count; i++) {
    const info = dynsym.info(i);
    const type = info & 0xf;
    const bind = info >> 4;
    if (type !== STT_FUNC && type !== STT_GNU_IFUNC) continue;
    if (bind === STB_LOCAL || dynsym.shndx(i) === SHN_UNDEF) continue;
    const vis = dynsym.other(i) & 3;
    if (vis === STV_HIDDEN || vis === STV_INTERNAL) continue;
    const name = dynsym.name(i);
    if (name === '') continue;
    out.push({ name, ...codeAddress(ctx.header.machine, type, dynsym.value(i)) });
  }
  return out;
}

/** Names of undefined symbols (what the file needs from elsewhere), for the security checks. */
export function undefinedNames(table: SymbolTable): string[] {
  const out: string[] = [];
  for (let i = 1; i < table.count; i++) {
    if (table.shndx(i) !== SHN_UNDEF) continue;
    const name = table.name(i);
    if (name !== '') out.push(name);
  }
  return out;
}
