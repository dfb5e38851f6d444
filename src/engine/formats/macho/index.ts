// Mach-O images (thin 32/64-bit of either byte order, or one slice of a universal file) → BinaryImage.
// Each reader bounds its reads and loops and reports damage as diagnostics.
// May import only ../byte-view, ../image, ../errors, ../macho (identification) and src/contracts.
import { ByteView } from '../byte-view.js';
import { keepAddressable } from '../addressable.js';
import { FormatError } from '../errors.js';
import type { BinaryImage, DebugInfo, EntryPoint, ImportInfo, SecurityFeatures } from '../image.js';
import { identifyMachO, isMachO } from './identify.js';
import { MachOContext } from './context.js';
import { initializers, mainEntry, textSegment } from './entries.js';
import { readFunctionStarts } from './function-starts.js';
import { readImports } from './imports.js';
import { codeTest, findOverlay, toSections, toSegments } from './layout.js';
import { emptyCommands, readCommands, readHeader } from './load-commands.js';
import type { Commands } from './load-commands.js';
import { pickSlice } from './slice.js';
import { NlistTable, readSymbols } from './symbols.js';

const MH_ALLOW_STACK_EXECUTION = 0x20000;
const MH_PIE = 0x200000;
const CANARY_NAMES = new Set(['___stack_chk_fail', '___stack_chk_guard']);
/** Fortify wrappers (___memcpy_chk …): C names get a leading underscore in Mach-O. */
const FORTIFY_NAME = /^___\w+_chk$/;

/**
 * Parse a Mach-O file. `bytes` of the result, and every file offset in it, are those of the parsed slice.
 * Throws FormatError only when there is no slice whose header can be read.
 */
export function parseMachO(bytes: Uint8Array): BinaryImage {
  const slice = pickSlice(bytes);
  const identity = slice ? identifyMachO(slice.bytes) : null;
  if (!slice || !identity) {
    const reason = !isMachO(bytes) ? 'bad-magic' : slice ? 'truncated' : 'bad-header';
    throw new FormatError('macho', reason, 'not a Mach-O image, or no slice with a readable header');
  }
  const magic = new ByteView(slice.bytes, false).u32(0);
  const ctx = new MachOContext(new ByteView(slice.bytes, magic === 0xcefaedfe || magic === 0xcffaedfe));
  for (const note of slice.notes) ctx.warn(note);
  const guard = <T>(what: string, read: () => T, fallback: T): T => {
    try {
      return read();
    } catch (error) {
      // Readers are written not to throw; this keeps a reader bug from costing the whole image.
      ctx.warn(`internal error reading ${what}: ${error instanceof Error ? error.message : String(error)}`);
      return fallback;
    }
  };

  const header = readHeader(ctx);
  const cmds = guard('load commands', () => readCommands(ctx, header), emptyCommands(header));
  const isCode = codeTest(cmds);
  const table = new NlistTable(ctx, cmds);
  const { symbols, exports, undefinedNames } = guard('symbols', () => readSymbols(table, cmds), {
    symbols: [],
    exports: [],
    undefinedNames: [],
  });
  const imports = guard('indirect symbols', () => readImports(ctx, cmds, table), []);
  const text = textSegment(cmds);
  const functionStarts = cmds.functionStarts
    ? guard('function starts', () => readFunctionStarts(ctx, cmds.functionStarts!, text?.vmaddr ?? 0), [])
    : undefined;

  const entry = guard('entry point', () => mainEntry(ctx, cmds), null);
  const entryPoints: EntryPoint[] = [];
  const seen = new Set<string>();
  const add = (e: EntryPoint): void => {
    const key = `${e.kind}:${e.vaddr}`;
    if (!seen.has(key)) entryPoints.push(e);
    seen.add(key);
  };
  if (entry !== null) add({ vaddr: entry, kind: 'entry' });
  for (const e of guard('initializers', () => initializers(ctx, cmds, isCode), [])) add(e);
  for (const e of exports) if (isCode(e.vaddr)) add({ vaddr: e.vaddr, kind: 'export' });

  const debug = debugInfo(cmds);
  const image: BinaryImage = {
    // identify() reports LC_MAIN's raw entryoff; an image speaks in virtual addresses.
    identity: { ...identity, entryPoint: entry, debug: identity.debug || debug.dwarf },
    bytes: slice.bytes,
    sections: toSections(cmds),
    segments: toSegments(cmds, slice.bytes.length),
    symbols,
    imports,
    exports,
    libraries: [...new Set(cmds.dylibs.filter((d) => d !== ''))],
    entryPoints,
    unwind: [],
    pointers: [],
    security: security(cmds.header.flags, imports, undefinedNames),
    debug,
    signed: (cmds.codeSignature?.size ?? 0) > 0,
    overlay: findOverlay(cmds, slice.bytes.length),
    diagnostics: [],
  };
  if (functionStarts) image.functionStarts = functionStarts;
  image.diagnostics = ctx.finish();
  return keepAddressable(image);
}

function debugInfo(cmds: Commands): DebugInfo {
  const dwarfSections = cmds.sections
    .filter((s) => s.segname === '__DWARF' || s.sectname.startsWith('__debug_'))
    .map((s) => s.sectname);
  return {
    dwarf: dwarfSections.length > 0 || cmds.segments.some((s) => s.name === '__DWARF'),
    dwarfSections,
    buildId: null,
    pdbPath: null,
    pdbGuid: null,
    uuid: cmds.uuid,
  };
}

function security(flags: number, imports: ImportInfo[], undefinedNames: string[]): SecurityFeatures {
  const names = [...imports.map((i) => i.name), ...undefinedNames];
  return {
    nx: (flags & MH_ALLOW_STACK_EXECUTION) === 0,
    pie: (flags & MH_PIE) !== 0,
    relro: null,
    canary: names.some((n) => CANARY_NAMES.has(n)),
    fortify: names.some((n) => FORTIFY_NAME.test(n)),
    aslr: null,
    dep: null,
    cfg: null,
    seh: null,
    highEntropyVa: null,
  };
}
