// Import descriptors (directory 1) and delay-load descriptors (directory 13): for each DLL, the lookup table
// (INT) names the functions and the address table (IAT) holds the slots the loader fills.
import type { ImportInfo } from '../image.js';
import { LIMITS } from './context.js';
import type { PeContext } from './context.js';
import { DIR } from './headers.js';
import type { PeHeaders } from './headers.js';
import type { RvaMap } from './rva-map.js';

const DESCRIPTOR_SIZE = 20;
const DELAY_DESCRIPTOR_SIZE = 32;
/** ImgDelayDescr.grAttrs bit 0: fields are RVAs; VC6-era tables hold virtual addresses instead. */
const DELAY_ATTR_RVA = 1;

export interface ImportTables {
  imports: ImportInfo[];
  /** DLL names in descriptor order, de-duplicated ignoring case (Windows resolves them that way). */
  libraries: string[];
}

interface Walk {
  ctx: PeContext;
  h: PeHeaders;
  map: RvaMap;
  out: ImportTables;
  seen: Set<string>;
  /** Lookup-table entries read so far, named or not: the loop bound, whatever the names say. */
  thunks: number;
}

export function readImports(ctx: PeContext, h: PeHeaders, map: RvaMap): ImportTables {
  const walk: Walk = { ctx, h, map, out: { imports: [], libraries: [] }, seen: new Set(), thunks: 0 };
  const dir = h.dirs[DIR.import]!;
  if (dir.rva !== 0) {
    for (let i = 0; ; i++) {
      if (i >= LIMITS.importDescriptors) {
        ctx.warn(`import descriptors: stopped after ${i} without a terminator`);
        break;
      }
      const at = map.offset(dir.rva + i * DESCRIPTOR_SIZE, DESCRIPTOR_SIZE);
      if (at < 0) {
        ctx.warn(`import descriptor ${i} lies outside the file`);
        break;
      }
      const lookup = ctx.v.u32(at);
      const nameRva = ctx.v.u32(at + 12);
      const iat = ctx.v.u32(at + 16);
      if (nameRva === 0 && iat === 0) break;
      // Without a lookup table (old bound imports) the IAT on disk still holds the name RVAs.
      readLibrary(walk, nameRva, lookup !== 0 ? lookup : iat, iat);
    }
  }
  readDelayImports(walk);
  return walk.out;
}

function readDelayImports(walk: Walk): void {
  const { ctx, h, map } = walk;
  const dir = h.dirs[DIR.delayImport]!;
  if (dir.rva === 0) return;
  for (let i = 0; ; i++) {
    if (i >= LIMITS.importDescriptors) {
      ctx.warn(`delay-load descriptors: stopped after ${i} without a terminator`);
      return;
    }
    const at = map.offset(dir.rva + i * DELAY_DESCRIPTOR_SIZE, DELAY_DESCRIPTOR_SIZE);
    if (at < 0) {
      ctx.warn(`delay-load descriptor ${i} lies outside the file`);
      return;
    }
    const rvaBased = (ctx.v.u32(at) & DELAY_ATTR_RVA) !== 0;
    const fix = (x: number): number => (rvaBased || x === 0 ? x : x - h.imageBase);
    const nameRva = fix(ctx.v.u32(at + 4));
    const iat = fix(ctx.v.u32(at + 12));
    const lookup = fix(ctx.v.u32(at + 16));
    if (nameRva === 0 && iat === 0) return;
    // A delay-load IAT initially points at the loader helper's thunks, so only the name table names.
    if (lookup === 0) ctx.warn(`delay-load descriptor ${i} has no name table`);
    else readLibrary(walk, nameRva, lookup, iat);
  }
}

function readLibrary(walk: Walk, nameRva: number, lookupRva: number, iatRva: number): void {
  const { ctx, h, map, out } = walk;
  const nameAt = map.offset(nameRva);
  const library = nameAt >= 0 ? ctx.name(nameAt) : '';
  if (library === '') ctx.warn(`import descriptor with unreadable DLL name (RVA 0x${nameRva.toString(16)})`);
  else if (!walk.seen.has(library.toLowerCase())) {
    walk.seen.add(library.toLowerCase());
    out.libraries.push(library);
  }
  const width = h.is64 ? 8 : 4;
  let unnamed = 0;
  for (let j = 0; ; j++) {
    if (walk.thunks++ === LIMITS.imports) ctx.warn(`import lookup entries capped at ${LIMITS.imports}`);
    if (walk.thunks > LIMITS.imports) return;
    const at = map.offset(lookupRva + j * width, width);
    if (at < 0) {
      ctx.warn(`import lookup table of ${library || '?'} runs outside the file`);
      return;
    }
    // Two 32-bit reads instead of a BigInt: the ordinal flag is the top bit, the payload the low 31 bits.
    const low = ctx.v.u32(at);
    const high = h.is64 ? ctx.v.u32(at + 4) : 0;
    if (low === 0 && high === 0) break;
    const byOrdinal = h.is64 ? high >= 0x80000000 : low >= 0x80000000;
    let name: string;
    if (byOrdinal) name = `ordinal_${low & 0xffff}`;
    else {
      const hintAt = map.offset((low & 0x7fffffff) + 2);
      name = hintAt >= 0 ? ctx.name(hintAt) : '';
    }
    if (name === '') unnamed++;
    else out.imports.push({ name, library: library || null, slot: h.imageBase + iatRva + j * width, stubs: [] });
  }
  if (unnamed > 0) ctx.warn(`${unnamed} imports of ${library || '?'} have unreadable names`);
}
