// Assembles a BinaryImage from the ELF stages. Each stage after the headers runs guarded: a bug that a
// hostile file provokes in one stage costs that stage's facts (and leaves a diagnostic), not the parse.
import type { BinaryIdentity } from '../../../contracts/result.js';
import { identifyElf } from './identify.js';
import { keepAddressable } from '../addressable.js';
import { FormatError } from '../errors.js';
import type {
  BinaryImage,
  EntryPoint,
  ImportInfo,
  PointerRef,
  SectionInfo,
  SymbolInfo,
  UnwindRange,
} from '../image.js';
import { AddressMap } from './address-map.js';
import { arrangeUnwind, mergePointers, overlayOf, uniqueEntries } from './assemble.js';
import { SHF_ALLOC, SHF_EXECINSTR, SHF_WRITE, SHT_DYNSYM, SHT_NULL, SHT_SYMTAB, EM_MIPS } from './constants.js';
import type { ElfContext } from './context.js';
import { parseArmExidx } from './arm-exidx.js';
import { debugInfo } from './debug.js';
import { Diagnostics } from './diagnostics.js';
import { DT_SYMENT, DT_SYMTAB, DynamicTable, dynamicStrings, neededLibraries, readDynamic } from './dynamic.js';
import { MAX_FDES, frameSections, parseFrames } from './eh-frame.js';
import { dynsymBytes } from './hash.js';
import { readHeaders } from './headers.js';
import { entryAt, initFini } from './init-arrays.js';
import { loadSegments } from './load-plan.js';
import { attachStubs } from './plt.js';
import { mipsGotImports } from './plt-mips.js';
import { MAX_RELOCATIONS, resolveRelocations, type ImportSlot } from './relocations.js';
import { securityFeatures } from './security.js';
import {
  MAX_SYMBOLS,
  listExports,
  listSymbols,
  openSymbolTable,
  symbolEntrySize,
  symbolTableFromSection,
  undefinedNames,
  type SymbolTable,
} from './symbols.js';

export interface ElfParse {
  image: BinaryImage;
  /** GOT slots filled through JUMP_SLOT relocations (PLT calls): for checks that every one has a stub. */
  jumpSlots: number[];
}

function guard<T>(diag: Diagnostics, stage: string, fallback: T, run: () => T): T {
  try {
    return run();
  } catch (err) {
    if (err instanceof FormatError) throw err;
    diag.add(`internal error while reading ${stage}: ${err instanceof Error ? err.message : String(err)}`);
    return fallback;
  }
}

function dynamicSymbols(ctx: ElfContext, dyn: DynamicTable, budget: { left: number }): SymbolTable | null {
  const sec = ctx.sections.find((s) => s.type === SHT_DYNSYM);
  if (sec) return symbolTableFromSection(ctx, sec, budget);
  const addr = dyn.get(DT_SYMTAB);
  if (addr === undefined) return null;
  const offset = ctx.map.toOffset(addr);
  if (offset < 0) {
    ctx.diag.add('DT_SYMTAB is not mapped by any segment');
    return null;
  }
  const entsize = dyn.get(DT_SYMENT) ?? symbolEntrySize(ctx.header.is64);
  const strings = dynamicStrings(ctx, dyn) ?? [0, 0];
  const bytes = Math.min(dynsymBytes(ctx, dyn, entsize), ctx.map.fileBytesFrom(addr));
  return openSymbolTable(ctx, 'dynamic symbol table', offset, entsize, bytes, strings[0], strings[1], budget);
}

function sectionInfos(ctx: ElfContext): SectionInfo[] {
  return ctx.sections
    .filter((s) => s.type !== SHT_NULL)
    .map((s) => ({
      name: s.name,
      vaddr: s.addr,
      size: s.size,
      fileOffset: s.offset,
      fileSize: s.fileBytes,
      read: (s.flags & SHF_ALLOC) !== 0,
      write: (s.flags & SHF_WRITE) !== 0,
      exec: (s.flags & SHF_EXECINSTR) !== 0,
    }));
}

function uniqueSlots(slots: ImportSlot[]): ImportSlot[] {
  const seen = new Set<string>();
  return slots
    .filter((s) => {
      const key = `${s.slot}:${s.name}`;
      if (seen.has(key)) return false;
      seen.add(key);
      return true;
    })
    .sort((a, b) => a.slot - b.slot || (a.name < b.name ? -1 : 1));
}

export function parseElfDetailed(bytes: Uint8Array): ElfParse {
  const diag = new Diagnostics();
  const headers = readHeaders(bytes, diag);
  const identity: BinaryIdentity | null = guard(diag, 'identity', null, () => identifyElf(bytes));
  if (!identity) throw new FormatError('elf', 'bad-header', 'ELF header could not be identified');
  const ctx: ElfContext = { ...headers, map: new AddressMap(headers.segments, headers.sections), diag };
  const { header } = ctx;

  const dyn = guard(diag, 'dynamic table', new DynamicTable([], []), () => readDynamic(ctx));
  const symBudget = { left: MAX_SYMBOLS };
  const symtabSec = ctx.sections.find((s) => s.type === SHT_SYMTAB);
  const symtab = guard(diag, '.symtab', null, () =>
    symtabSec ? symbolTableFromSection(ctx, symtabSec, symBudget) : null,
  );
  const dynsym = guard(diag, 'dynamic symbols', null, () => dynamicSymbols(ctx, dyn, symBudget));

  const symbols = guard<SymbolInfo[]>(diag, 'symbols', [], () => {
    const own = symtab ? listSymbols(ctx, symtab, 'symtab') : [];
    // Names by address, not "addr:name" keys: building key strings would copy every (possibly 4 KiB) name.
    const seen = new Map<number, Set<string>>();
    for (const s of own) {
      const names = seen.get(s.vaddr);
      if (names) names.add(s.name);
      else seen.set(s.vaddr, new Set([s.name]));
    }
    const dynamic = dynsym ? listSymbols(ctx, dynsym, 'dynsym').filter((s) => !seen.get(s.vaddr)?.has(s.name)) : [];
    return own.concat(dynamic);
  });
  const libraries = guard(diag, 'needed libraries', [], () => neededLibraries(ctx, dyn, dynamicStrings(ctx, dyn)));

  const relocBudget = { left: MAX_RELOCATIONS };
  const relocs = guard(diag, 'relocations', { imports: [], pointers: [] }, () =>
    resolveRelocations(ctx, dyn, dynsym, relocBudget),
  );
  const mipsSlots =
    header.machine === EM_MIPS ? guard(diag, 'MIPS GOT', [], () => mipsGotImports(ctx, dyn, dynsym)) : [];
  const slots = uniqueSlots([...relocs.imports, ...mipsSlots]);
  const imports = guard<ImportInfo[]>(
    diag,
    'PLT stubs',
    slots.map((s) => ({ name: s.name, library: null, slot: s.slot, stubs: [] })),
    () => attachStubs(ctx, dyn, slots, dynsym),
  );

  const relocated = new Map<number, number>();
  for (const p of relocs.pointers) if (!relocated.has(p.at)) relocated.set(p.at, p.target);
  const inits = guard(diag, 'init/fini arrays', { entries: [], pointers: [] }, () => initFini(ctx, dyn, relocated));
  const pointers: PointerRef[] = mergePointers(relocs.pointers, inits.pointers);

  const exported = guard(diag, 'exports', [], () => (dynsym ? listExports(ctx, dynsym) : []));
  const entries: EntryPoint[] = [];
  if (header.entry !== 0) entries.push(entryAt(ctx, header.entry, 'entry'));
  entries.push(...inits.entries);
  for (const e of exported)
    entries.push(e.thumb ? { vaddr: e.vaddr, kind: 'export', thumb: true } : { vaddr: e.vaddr, kind: 'export' });

  const unwindBudget = { left: MAX_FDES };
  const unwind = guard<UnwindRange[]>(diag, 'unwind tables', [], () => {
    const ranges: UnwindRange[] = [];
    const text = ctx.sections.find((s) => s.name === '.text')?.addr ?? null;
    const got = ctx.sections.find((s) => s.name === '.got')?.addr ?? null;
    for (const sec of frameSections(ctx)) parseFrames(ctx, sec, { text, data: got }, unwindBudget, ranges);
    ranges.push(...parseArmExidx(ctx, unwindBudget));
    return arrangeUnwind(ctx, ranges);
  });

  const names = function* (): Generator<string> {
    for (const i of imports) yield i.name;
    for (const s of symbols) yield s.name;
    if (dynsym) yield* undefinedNames(dynsym);
  };
  const security = guard(diag, 'security features', null, () => securityFeatures(ctx, dyn, names()));
  const debug = guard(diag, 'debug information', null, () => debugInfo(ctx));
  if (ctx.view.budgetExhausted) diag.add('string tables exceed the name budget: later names are shortened');

  const image: BinaryImage = keepAddressable({
    identity: { ...identity, debug: identity.debug || (debug?.dwarf ?? false) },
    bytes,
    sections: sectionInfos(ctx),
    segments: loadSegments(ctx.segments),
    symbols,
    imports,
    exports: exported.map((e) => ({ name: e.name, vaddr: e.vaddr })),
    libraries,
    entryPoints: uniqueEntries(entries),
    unwind,
    pointers,
    security: security ?? {
      nx: false,
      pie: false,
      relro: 'none',
      canary: false,
      fortify: false,
      aslr: null,
      dep: null,
      cfg: null,
      seh: null,
      highEntropyVa: null,
    },
    debug: debug ?? { dwarf: false, dwarfSections: [], buildId: null, pdbPath: null, pdbGuid: null, uuid: null },
    signed: false,
    overlay: overlayOf(ctx),
    diagnostics: diag.toArray(),
  });
  return { image, jumpSlots: relocs.imports.filter((i) => i.jumpSlot).map((i) => i.slot) };
}
