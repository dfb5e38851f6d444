// LC_SYMTAB: nlist / nlist_64 records {n_strx, n_type, n_sect, n_desc, n_value} and their string table.
// Defined (N_SECT) symbols become SymbolInfo; external defined ones are the exports; undefined external
// ones are what the image imports (their slots come from the indirect symbol table, see imports.ts).
import type { ExportInfo, SymbolInfo } from '../image.js';
import { LIMITS } from './context.js';
import type { MachOContext } from './context.js';
import type { Commands } from './load-commands.js';

const N_STAB = 0xe0;
const N_PEXT = 0x10;
const N_TYPE = 0x0e;
const N_EXT = 0x01;
const N_UNDF = 0x0;
const N_SECT = 0xe;
const N_WEAK_DEF = 0x0080;
const N_ARM_THUMB_DEF = 0x0008;
const CPU_TYPE_ARM = 12;

export interface Nlist {
  name: string;
  type: number;
  sect: number;
  desc: number;
  value: number;
}

/** Random access to the records, bounded by the table and the file. */
export class NlistTable {
  readonly count: number;
  private readonly entrySize: number;

  constructor(
    private readonly ctx: MachOContext,
    private readonly cmds: Commands,
  ) {
    const st = cmds.symtab;
    this.entrySize = cmds.header.is64 ? 16 : 12;
    if (!st) {
      this.count = 0;
      return;
    }
    const fit = Math.max(0, Math.floor((ctx.v.length - st.symoff) / this.entrySize));
    let count = Math.min(st.nsyms, fit);
    if (count < st.nsyms) ctx.warn(`symbol table truncated: ${fit} of ${st.nsyms} records in the file`);
    if (count > LIMITS.symbols) {
      ctx.warn(`symbols capped at ${LIMITS.symbols}`);
      count = LIMITS.symbols;
    }
    this.count = count;
  }

  at(index: number): Nlist {
    const st = this.cmds.symtab!;
    const v = this.ctx.v;
    const at = st.symoff + index * this.entrySize;
    const strx = v.u32(at);
    const nameOk = strx > 0 && strx < st.strsize;
    return {
      name: nameOk ? this.ctx.name(st.stroff + strx, st.strsize - strx) : '',
      type: v.u8(at + 4),
      sect: v.u8(at + 5),
      desc: v.u16(at + 6),
      value: this.ctx.word(at + 8, this.cmds.header.is64),
    };
  }
}

export interface SymbolTables {
  symbols: SymbolInfo[];
  exports: ExportInfo[];
  /** Names of undefined external symbols: imports, whether or not the indirect table gives them a slot. */
  undefinedNames: string[];
}

export function readSymbols(table: NlistTable, cmds: Commands): SymbolTables {
  const out: SymbolTables = { symbols: [], exports: [], undefinedNames: [] };
  const arm = cmds.header.cputype === CPU_TYPE_ARM;
  for (let i = 0; i < table.count; i++) {
    const n = table.at(i);
    if (n.type & N_STAB || n.name === '') continue;
    const kind = n.type & N_TYPE;
    const external = (n.type & N_EXT) !== 0;
    if (kind === N_UNDF && external) {
      out.undefinedNames.push(n.name);
      continue;
    }
    const section = kind === N_SECT && n.sect > 0 ? cmds.sections[n.sect - 1] : undefined;
    if (!section) continue;
    const inside = n.value >= section.addr && n.value < section.addr + section.size;
    const symbol: SymbolInfo = {
      name: n.name,
      vaddr: n.value,
      size: 0,
      // Outside its section's bytes (__mh_execute_header, section-end labels) a symbol marks no object.
      kind: !inside ? 'other' : section.exec ? 'function' : 'object',
      binding: !external ? 'local' : n.desc & N_WEAK_DEF ? 'weak' : 'global',
      source: 'nlist',
    };
    if (arm && n.desc & N_ARM_THUMB_DEF) symbol.thumb = true;
    out.symbols.push(symbol);
    if (external && !(n.type & N_PEXT)) out.exports.push({ name: n.name, vaddr: n.value });
  }
  return out;
}
