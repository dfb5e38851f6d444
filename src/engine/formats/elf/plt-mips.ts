// MIPS imports and stubs. PIC MIPS has no JUMP_SLOT relocations: the GOT's global part, from DT_MIPS_GOTSYM
// on, holds one slot per dynamic symbol, after DT_MIPS_LOCAL_GOTNO local slots. Lazy-binding stubs in
// .MIPS.stubs load the resolver (not the slot) and name their symbol by index in t8; non-PIC executables
// may use a .plt whose entries load the slot with `lui; lw t9`.
import type { CodeBytes, StubSink } from './code-bytes.js';
import type { ElfContext } from './context.js';
import { DT_MIPS_GOTSYM, DT_MIPS_LOCAL_GOTNO, DT_MIPS_SYMTABNO, DT_PLTGOT, type DynamicTable } from './dynamic.js';
import type { ImportSlot } from './relocations.js';
import type { SymbolTable } from './symbols.js';

const TWO_32 = 0x1_0000_0000;

export function mipsGotImports(ctx: ElfContext, dyn: DynamicTable, dynsym: SymbolTable | null): ImportSlot[] {
  const gotsym = dyn.get(DT_MIPS_GOTSYM);
  const localGotno = dyn.get(DT_MIPS_LOCAL_GOTNO);
  const pltgot = dyn.get(DT_PLTGOT);
  if (!dynsym || gotsym === undefined || localGotno === undefined || pltgot === undefined) return [];
  const symtabno = Math.min(dyn.get(DT_MIPS_SYMTABNO) ?? dynsym.count, dynsym.count);
  const word = ctx.view.wordSize;
  const out: ImportSlot[] = [];
  for (let i = gotsym; i < symtabno; i++) {
    if (dynsym.isDefined(i)) continue;
    const name = dynsym.name(i);
    if (name !== '') out.push({ name, slot: pltgot + (localGotno + i - gotsym) * word, symIndex: i, jumpSlot: false });
  }
  return out;
}

const LW_T9_GP = 0x8f990000;
const LD_T9_GP = 0xdf990000;
/** addiu / ori / daddiu t8, zero, imm: the symbol index of a small dynamic symbol table. */
const LI_T8 = [0x24180000, 0x34180000, 0x64180000];
const LUI_T8 = 0x3c180000;
const ORI_T8_T8 = 0x37180000;
/** A stub is 4 instructions (5-6 when the index needs lui+ori); look no further than this. */
const STUB_WINDOW = 6;

/** .MIPS.stubs: each stub starts with `lw/ld t9, off(gp)` and sets t8 to its dynamic symbol index. */
export function scanMipsStubs(
  code: CodeBytes,
  start: number,
  end: number,
  vaddr: number,
  sink: (stub: number, symIndex: number) => void,
): void {
  for (let i = start; i + 4 <= end; i += 4) {
    const w = code.u32(i);
    const hi16 = (w & 0xffff0000) >>> 0;
    if (hi16 !== LW_T9_GP && hi16 !== LD_T9_GP) continue;
    let upper = 0;
    for (let k = i + 4, n = 0; n < STUB_WINDOW && k + 4 <= end; k += 4, n++) {
      const x = code.u32(k);
      const op = (x & 0xffff0000) >>> 0;
      if (op === LW_T9_GP || op === LD_T9_GP) break;
      if (LI_T8.includes(op)) {
        sink(vaddr + (i - start), x & 0xffff);
        break;
      }
      if (op === LUI_T8) upper = (x & 0xffff) * 0x10000;
      else if (op === ORI_T8_T8) {
        sink(vaddr + (i - start), upper + (x & 0xffff));
        break;
      }
    }
  }
}

/** Non-PIC .plt entries: `lui rX, %hi(slot); lw/ld t9, %lo(slot)(rX)`. */
export function scanMipsPlt(code: CodeBytes, start: number, end: number, vaddr: number, sink: StubSink): void {
  for (let i = start; i + 8 <= end; i += 4) {
    const lui = code.u32(i);
    if ((lui & 0xffe00000) >>> 0 !== 0x3c000000) continue;
    const rx = (lui >>> 16) & 31;
    const load = code.u32(i + 4);
    const opcode = load >>> 26;
    if ((opcode !== 0x23 && opcode !== 0x37) || ((load >>> 21) & 31) !== rx || ((load >>> 16) & 31) !== 25) continue;
    const lo = load & 0xffff;
    const slot = ((lui & 0xffff) * 0x10000 + (lo >= 0x8000 ? lo - 0x10000 : lo) + TWO_32) % TWO_32;
    sink(vaddr + (i - start), slot);
  }
}
