// Names from a separate debug file (an ELF with a symbol table, e.g. `objcopy --only-keep-debug` output or
// the unstripped build of a stripped upload). Both files come from one link, so addresses agree as they
// are; a file for another architecture or build is refused rather than mis-naming everything.
import type { BinaryImage, SymbolInfo } from './formats/image.js';
import { parseBinary } from './formats/parse.js';

/**
 * The debug file, parsed, when it belongs to `image`; else null with the reason in the image's diagnostics
 * (a bad debug file never fails the analysis).
 */
export function loadDebugFile(image: BinaryImage, debugBytes: Uint8Array): BinaryImage | null {
  let debug: BinaryImage;
  try {
    debug = parseBinary(debugBytes);
  } catch (err) {
    image.diagnostics.push(`debug file ignored: ${(err as Error).message}`);
    return null;
  }
  const mismatch = debugMismatch(image, debug);
  if (mismatch) {
    image.diagnostics.push(`debug file ignored: ${mismatch}`);
    return null;
  }
  return debug;
}

/** Adds the debug file's function symbols that `image` lacks to `image.symbols` (source 'debug') and returns their addresses. */
export function adoptDebugSymbols(image: BinaryImage, debug: BinaryImage): Set<number> {
  const adopted = new Set<number>();
  const known = new Set(image.symbols.filter((s) => s.kind === 'function').map((s) => s.vaddr));
  for (const s of debug.symbols) {
    if (s.kind !== 'function' || known.has(s.vaddr) || !insideCode(image, s)) continue;
    known.add(s.vaddr);
    adopted.add(s.vaddr);
    image.symbols.push({ ...s, source: 'debug' });
  }
  return adopted;
}

function debugMismatch(image: BinaryImage, debug: BinaryImage): string | null {
  const a = image.identity;
  const b = debug.identity;
  if (a.format !== b.format || a.architecture !== b.architecture || a.bits !== b.bits)
    return `it is ${b.format} ${b.architecture}/${b.bits}, the binary ${a.format} ${a.architecture}/${a.bits}`;
  const ours = image.debug.buildId;
  const theirs = debug.debug.buildId;
  if (ours && theirs && ours !== theirs) return `build id ${theirs} does not match the binary's ${ours}`;
  return null;
}

/** A debug file's symbol only names code the binary itself maps executable. */
const insideCode = (image: BinaryImage, s: SymbolInfo) =>
  [...image.sections, ...image.segments.map((g) => ({ ...g, size: g.memSize }))].some(
    (r) => r.exec && s.vaddr >= r.vaddr && s.vaddr < r.vaddr + r.size,
  );
