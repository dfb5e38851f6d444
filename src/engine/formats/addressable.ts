// BinaryImage keeps addresses as numbers, exact only below 2^53 (image.ts). ELF and Mach-O read 64-bit
// addresses, so a damaged header can claim one above that: past 2^53 two addresses share a number, and
// later stages that look code up by address (function recovery's region search) lose their footing.
// Such entries are dropped here, with one diagnostic, rather than rounded.
import type { BinaryImage } from './image.js';

const exact = (a: number): boolean => Number.isSafeInteger(a) && a >= 0;

/**
 * `image` without the sections, segments, symbols and entries whose addresses a number cannot hold. A
 * section's or segment's file-backed bytes must be addressable; sizes beyond them are only reported.
 */
export function keepAddressable(image: BinaryImage): BinaryImage {
  let dropped = 0;
  const keep = <T>(items: T[], ok: (item: T) => boolean): T[] => {
    const kept = items.filter(ok);
    dropped += items.length - kept.length;
    return kept;
  };
  const out: BinaryImage = {
    ...image,
    sections: keep(image.sections, (s) => exact(s.vaddr) && exact(s.vaddr + s.fileSize)),
    segments: keep(image.segments, (s) => exact(s.vaddr) && exact(s.vaddr + s.fileSize)),
    symbols: keep(image.symbols, (s) => exact(s.vaddr)),
    imports: keep(image.imports, (i) => exact(i.slot) && i.stubs.every(exact)),
    exports: keep(image.exports, (e) => exact(e.vaddr)),
    entryPoints: keep(image.entryPoints, (e) => exact(e.vaddr)),
    unwind: keep(image.unwind, (u) => exact(u.start) && exact(u.end)),
    pointers: keep(image.pointers, (p) => exact(p.at) && exact(p.target)),
  };
  if (image.functionStarts) out.functionStarts = keep(image.functionStarts, exact);
  if (dropped === 0) return image;
  out.diagnostics = [...image.diagnostics, `${dropped} entries at addresses of 2^53 or more dropped`];
  return out;
}
