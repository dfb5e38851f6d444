// The dynamic table (PT_DYNAMIC, else the SHT_DYNAMIC section): needed libraries, init/fini, relocation
// tables, binding flags, the dynamic symbol and string tables and the MIPS GOT layout.
import { PT_DYNAMIC, SHT_DYNAMIC } from './constants.js';
import type { ElfContext } from './context.js';

export const DT_NULL = 0;
export const DT_NEEDED = 1;
export const DT_PLTRELSZ = 2;
export const DT_PLTGOT = 3;
export const DT_HASH = 4;
export const DT_STRTAB = 5;
export const DT_SYMTAB = 6;
export const DT_RELA = 7;
export const DT_RELASZ = 8;
export const DT_RELAENT = 9;
export const DT_STRSZ = 10;
export const DT_SYMENT = 11;
export const DT_INIT = 12;
export const DT_FINI = 13;
export const DT_REL = 17;
export const DT_RELSZ = 18;
export const DT_RELENT = 19;
export const DT_PLTREL = 20;
export const DT_JMPREL = 23;
export const DT_BIND_NOW = 24;
export const DT_INIT_ARRAY = 25;
export const DT_FINI_ARRAY = 26;
export const DT_INIT_ARRAYSZ = 27;
export const DT_FINI_ARRAYSZ = 28;
export const DT_FLAGS = 30;
export const DT_PREINIT_ARRAY = 32;
export const DT_PREINIT_ARRAYSZ = 33;
export const DT_RELRSZ = 35;
export const DT_RELR = 36;
export const DT_RELRENT = 37;
export const DT_GNU_HASH = 0x6ffffef5;
export const DT_FLAGS_1 = 0x6ffffffb;
export const DT_MIPS_LOCAL_GOTNO = 0x7000000a;
export const DT_MIPS_SYMTABNO = 0x70000011;
export const DT_MIPS_GOTSYM = 0x70000013;

const DF_BIND_NOW = 0x8;
const DF_1_NOW = 0x1;
const DF_1_PIE = 0x08000000;

/** Real tables hold 20-60 entries; 64 Ki is far past any linker's output. */
const MAX_DYNAMIC = 1 << 16;
const MAX_NEEDED = 4096;

export class DynamicTable {
  constructor(
    readonly tags: readonly number[],
    readonly values: readonly number[],
  ) {}

  get present(): boolean {
    return this.tags.length > 0;
  }

  /** Value of the first entry with `tag` (the loader uses the first), or undefined. */
  get(tag: number): number | undefined {
    const i = this.tags.indexOf(tag);
    return i < 0 ? undefined : this.values[i];
  }

  all(tag: number): number[] {
    const out: number[] = [];
    for (let i = 0; i < this.tags.length; i++) if (this.tags[i] === tag) out.push(this.values[i]!);
    return out;
  }

  get bindNow(): boolean {
    return (
      this.get(DT_BIND_NOW) !== undefined ||
      ((this.get(DT_FLAGS) ?? 0) & DF_BIND_NOW) !== 0 ||
      ((this.get(DT_FLAGS_1) ?? 0) & DF_1_NOW) !== 0
    );
  }

  get pieFlag(): boolean {
    return ((this.get(DT_FLAGS_1) ?? 0) & DF_1_PIE) !== 0;
  }
}

function locate(ctx: ElfContext): [number, number] | null {
  const seg = ctx.segments.find((p) => p.type === PT_DYNAMIC && p.fileBytes > 0);
  if (seg) return [seg.offset, seg.fileBytes];
  const sec = ctx.sections.find((s) => s.type === SHT_DYNAMIC && s.fileBytes > 0);
  return sec ? [sec.offset, sec.fileBytes] : null;
}

export function readDynamic(ctx: ElfContext): DynamicTable {
  const where = locate(ctx);
  if (!where) return new DynamicTable([], []);
  const [offset, size] = where;
  const { view } = ctx;
  const entsize = view.is64 ? 16 : 8;
  const count = Math.min(Math.floor(size / entsize), MAX_DYNAMIC);
  const tags: number[] = [];
  const values: number[] = [];
  let terminated = false;
  for (let i = 0; i < count; i++) {
    const at = offset + i * entsize;
    const tag = view.addr(at);
    if (tag === DT_NULL) {
      terminated = true;
      break;
    }
    tags.push(tag);
    values.push(view.addr(at + view.wordSize));
  }
  if (!terminated) ctx.diag.add('dynamic table has no DT_NULL terminator inside its bounds');
  return new DynamicTable(tags, values);
}

/** File range of the dynamic string table: DT_STRTAB/DT_STRSZ, else the .dynstr section. */
export function dynamicStrings(ctx: ElfContext, dyn: DynamicTable): [number, number] | null {
  const addr = dyn.get(DT_STRTAB);
  if (addr !== undefined) {
    const off = ctx.map.toOffset(addr);
    if (off >= 0) {
      const size = dyn.get(DT_STRSZ) ?? ctx.map.fileBytesFrom(addr);
      return [off, off + Math.min(size, ctx.map.fileBytesFrom(addr))];
    }
    ctx.diag.add('DT_STRTAB is not mapped by any segment');
  }
  const sec = ctx.sections.find((s) => s.name === '.dynstr' && s.fileBytes > 0);
  return sec ? [sec.offset, sec.offset + sec.fileBytes] : null;
}

export function neededLibraries(ctx: ElfContext, dyn: DynamicTable, strings: [number, number] | null): string[] {
  const offsets = dyn.all(DT_NEEDED);
  if (offsets.length === 0) return [];
  if (!strings) {
    ctx.diag.add('DT_NEEDED entries without a readable string table');
    return [];
  }
  const out: string[] = [];
  for (const off of offsets.slice(0, MAX_NEEDED)) {
    const name = ctx.view.name(strings[0] + off, strings[1]);
    if (name !== '') out.push(name);
  }
  return out;
}
