// PLT stubs → imports, so a call to `printf@plt` can be named. The per-architecture decoders report
// (stub, GOT slot); a stub is kept when its slot is an import's slot (which drops PLT0, whose slot is the
// resolver's). MIPS stubs name their symbol directly instead.
import type { ImportInfo } from '../image.js';
import { CodeBytes } from './code-bytes.js';
import { EM_386, EM_AARCH64, EM_ARM, EM_MIPS, EM_X86_64, PF_X, PT_LOAD, SHF_EXECINSTR, STT_FUNC } from './constants.js';
import { codeIsLittle, sectionNamed, type ElfContext } from './context.js';
import { DT_PLTGOT, type DynamicTable } from './dynamic.js';
import { scanAarch64, scanArm } from './plt-arm.js';
import { scanMipsPlt, scanMipsStubs } from './plt-mips.js';
import { scanX86 } from './plt-x86.js';
import type { ImportSlot } from './relocations.js';
import type { SymbolTable } from './symbols.js';

/** A real import has 1-3 stubs (.plt, .plt.sec, a Thumb entry); more is a hostile pattern repeated. */
const MAX_STUBS = 16;
const PLT_SECTIONS = new Set(['.plt', '.plt.sec', '.plt.got', '.plt.bnd', '.iplt', '.MIPS.stubs']);
/**
 * Without section headers the decoders scan executable segments instead. 16 MiB (~20 ms of scanning)
 * covers any real text segment. Real PLT sections (or code segments) do not overlap, so they never add
 * up to more than the file: hostile files repeating one region thousands of times stop at its size.
 */
const MAX_SCAN = 16 * 1024 * 1024;

interface Region {
  name: string;
  start: number;
  end: number;
  vaddr: number;
}

function regions(ctx: ElfContext): Region[] {
  const named = ctx.sections.filter(
    (s) => PLT_SECTIONS.has(s.name) && (s.flags & SHF_EXECINSTR) !== 0 && s.fileBytes > 0,
  );
  const candidates =
    named.length > 0 || ctx.sections.length > 0
      ? named.map((s) => ({ name: s.name, offset: s.offset, size: s.fileBytes, vaddr: s.addr }))
      : ctx.segments
          .filter((p) => p.type === PT_LOAD && (p.flags & PF_X) !== 0 && p.fileBytes > 0)
          .map((p) => ({ name: '', offset: p.offset, size: p.fileBytes, vaddr: p.vaddr }));
  if (named.length === 0 && candidates.length > 0)
    ctx.diag.add('no section headers: PLT stubs searched for in executable segments');
  const limit = Math.min(MAX_SCAN, ctx.view.bytes.length);
  let budget = limit;
  const out: Region[] = [];
  const seen = new Set<string>();
  for (const c of candidates) {
    const key = `${c.name}:${c.offset}:${c.size}:${c.vaddr}`;
    if (budget <= 0 || seen.has(key)) continue;
    seen.add(key);
    const size = Math.min(c.size, budget);
    budget -= size;
    out.push({ name: c.name, start: c.offset, end: c.offset + size, vaddr: c.vaddr });
  }
  if (budget <= 0) ctx.diag.add(`PLT scan stopped after ${limit} bytes`);
  return out;
}

/** The i386 PIC stubs address slots from %ebx, which holds the GOT base (.got.plt, DT_PLTGOT). */
function i386GotBase(ctx: ElfContext, dyn: DynamicTable): number | null {
  return dyn.get(DT_PLTGOT) ?? sectionNamed(ctx, '.got.plt')?.addr ?? null;
}

export function attachStubs(
  ctx: ElfContext,
  dyn: DynamicTable,
  slots: ImportSlot[],
  dynsym: SymbolTable | null,
): ImportInfo[] {
  const bySlot = new Map<number, Set<number>>();
  const bySym = new Map<number, Set<number>>();
  const wanted = new Set(slots.map((s) => s.slot));
  const add = (map: Map<number, Set<number>>, key: number, stub: number): void => {
    const set = map.get(key);
    if (!set) map.set(key, new Set([stub]));
    else if (set.size < MAX_STUBS) set.add(stub);
  };
  const onSlot = (stub: number, slot: number): void => {
    if (wanted.has(slot)) add(bySlot, slot, stub);
  };
  const code = new CodeBytes(ctx.view.bytes, codeIsLittle(ctx));
  const { machine } = ctx.header;
  if (wanted.size > 0) {
    for (const r of regions(ctx)) {
      if (machine === EM_X86_64) scanX86(code, r.start, r.end, r.vaddr, true, null, onSlot);
      else if (machine === EM_386) scanX86(code, r.start, r.end, r.vaddr, false, i386GotBase(ctx, dyn), onSlot);
      else if (machine === EM_AARCH64) scanAarch64(code, r.start, r.end, r.vaddr, onSlot);
      else if (machine === EM_ARM) scanArm(code, r.start, r.end, r.vaddr, onSlot);
      else if (machine === EM_MIPS && r.name === '.MIPS.stubs') {
        scanMipsStubs(code, r.start, r.end, r.vaddr, (stub, sym) => add(bySym, sym, stub));
      } else if (machine === EM_MIPS) scanMipsPlt(code, r.start, r.end, r.vaddr, onSlot);
    }
  }
  if (machine === EM_MIPS && dynsym) {
    // An undefined MIPS function symbol's value, when set, is the address of its stub (canonical PLT).
    for (const s of slots) {
      const value = dynsym.value(s.symIndex);
      if (value !== 0 && (dynsym.info(s.symIndex) & 0xf) === STT_FUNC && ctx.map.isExec(value))
        add(bySym, s.symIndex, value);
    }
  }
  return slots.map((s) => {
    const stubs = [...(bySlot.get(s.slot) ?? []), ...(bySym.get(s.symIndex) ?? [])];
    return { name: s.name, library: null, slot: s.slot, stubs: [...new Set(stubs)].sort((a, b) => a - b) };
  });
}
