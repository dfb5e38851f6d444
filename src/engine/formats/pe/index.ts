// PE/COFF images (PE32 and PE32+) → BinaryImage. Each table has its own reader; each reader bounds its
// reads and loop counts and reports damage as diagnostics, so a broken table costs only that table.
// May import only ../byte-view, ../image, ../errors, ../pe (identification) and src/contracts.
import { ByteView } from '../byte-view.js';
import { FormatError } from '../errors.js';
import { UNKNOWN_SECURITY, type BinaryImage, type EntryPoint } from '../image.js';
import { identifyPe, isMz } from './identify.js';
import { readCoffSymbols } from './coff-symbols.js';
import { PeContext } from './context.js';
import { readDebug } from './debug.js';
import { readExports } from './exports.js';
import { DIR, readHeaders } from './headers.js';
import { readImports } from './imports.js';
import { findOverlay, toSections, toSegments } from './layout.js';
import { readPdata } from './pdata.js';
import { readRelocations } from './relocations.js';
import { RvaMap } from './rva-map.js';
import { readSecurity } from './security.js';
import { findStubs } from './stubs.js';
import { readTlsCallbacks } from './tls.js';

/** Signature + COFF header + the optional header through DllCharacteristics, from e_lfanew on. */
const PE_HEADERS_MIN = 4 + 20 + 72;

/**
 * Parse a whole PE file. Throws FormatError only when the bytes are not a PE whose optional header can be
 * read; any later damage leaves the affected table empty or partial and is listed in `diagnostics`.
 */
export function parsePe(bytes: Uint8Array): BinaryImage {
  const identity = identifyPe(bytes);
  const ctx = new PeContext(new ByteView(bytes, true));
  const h = identity ? readHeaders(ctx) : null;
  if (!identity || !h) {
    const headersEnd = ctx.v.u32(0x3c) + PE_HEADERS_MIN;
    const reason = !isMz(bytes) ? 'bad-magic' : bytes.length < Math.max(0x40, headersEnd) ? 'truncated' : 'bad-header';
    throw new FormatError('pe', reason, 'not a PE image, or its optional header is unreadable');
  }
  const map = new RvaMap(h, bytes.length);
  const guard = <T>(table: string, read: () => T, fallback: T): T => {
    try {
      return read();
    } catch (error) {
      // Readers are written not to throw; this keeps a reader bug from costing the whole image.
      ctx.warn(`internal error reading ${table}: ${error instanceof Error ? error.message : String(error)}`);
      return fallback;
    }
  };

  const { imports, libraries } = guard('imports', () => readImports(ctx, h, map), { imports: [], libraries: [] });
  guard('import thunks', () => findStubs(ctx, h, imports), undefined);
  const exports = guard('exports', () => readExports(ctx, h, map), []);
  const symbols = guard('COFF symbols', () => readCoffSymbols(ctx, h), []);
  const unwind = guard('exception directory', () => readPdata(ctx, h, map), []);
  const pointers = guard('base relocations', () => readRelocations(ctx, h, map), []);
  const tls = guard('TLS directory', () => readTlsCallbacks(ctx, h, map), []);
  const debug = guard('debug directory', () => readDebug(ctx, h, map), {
    dwarf: false,
    dwarfSections: [],
    buildId: null,
    pdbPath: null,
    pdbGuid: null,
    uuid: null,
  });
  const security = guard('security', () => readSecurity(ctx, h, map, imports, symbols), { ...UNKNOWN_SECURITY });

  const entryPoints: EntryPoint[] = [];
  const seen = new Set<string>();
  const addEntry = (e: EntryPoint): void => {
    const key = `${e.kind}:${e.vaddr}`;
    if (!seen.has(key)) entryPoints.push(e);
    seen.add(key);
  };
  if (h.entryRva !== 0) addEntry({ vaddr: h.imageBase + h.entryRva, kind: 'entry' });
  for (const e of tls) addEntry(e);
  // Exported data (variables, tables) is not code: only exports into executable sections are entry points.
  for (const e of exports) if (map.isExecRva(e.vaddr - h.imageBase)) addEntry({ vaddr: e.vaddr, kind: 'export' });

  const cert = h.dirs[DIR.security]!;
  if (cert.size > 0 && !ctx.v.has(cert.rva, cert.size)) ctx.warn('certificate table runs past the end of the file');
  const overlay = findOverlay(ctx, h);
  return {
    // DWARF kept in the image and CodeView both count as debug information, as the contract says.
    identity: { ...identity, debug: identity.debug || debug.dwarf || debug.pdbPath !== null },
    bytes,
    sections: toSections(h),
    segments: toSegments(h, bytes.length),
    symbols,
    imports,
    exports,
    libraries,
    entryPoints,
    unwind,
    pointers,
    security,
    debug,
    signed: cert.size > 0,
    overlay,
    diagnostics: ctx.finish(),
  };
}
