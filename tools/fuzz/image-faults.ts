// What a parsed image must never hold, whatever the input: addresses that are not safe integers (the
// image's numbers must stay below 2^53: formats/image.ts; for sections and segments, of their file-backed
// bytes, which is all later stages read), and file ranges past the end of the file.
// A parser that lets one through does not throw, but a later stage (function recovery) then does.
import type { BinaryImage } from '../../src/engine/formats/image.js';

const addressable = (a: number): boolean => Number.isSafeInteger(a) && a >= 0;

/** Broken invariants of `image`, at most one message per kind, plus swallowed "internal error"s. */
export function imageFaults(image: BinaryImage): string[] {
  const faults = new Set<string>();
  const need = (ok: boolean, what: string): void => void (ok || faults.add(what));
  for (const s of image.sections) {
    need(addressable(s.vaddr) && addressable(s.vaddr + s.fileSize), 'section address range not a safe integer');
    need(s.fileSize === 0 || s.fileOffset + s.fileSize <= image.bytes.length, 'section file range past the end');
  }
  for (const s of image.segments) {
    need(addressable(s.vaddr) && addressable(s.vaddr + s.fileSize), 'segment address range not a safe integer');
    need(s.fileSize === 0 || s.fileOffset + s.fileSize <= image.bytes.length, 'segment file range past the end');
  }
  for (const s of image.symbols) need(addressable(s.vaddr), 'symbol address not a safe integer');
  for (const e of image.exports) need(addressable(e.vaddr), 'export address not a safe integer');
  for (const i of image.imports) need(addressable(i.slot) && i.stubs.every(addressable), 'import address unsafe');
  for (const e of image.entryPoints) need(addressable(e.vaddr), 'entry point not a safe integer');
  for (const u of image.unwind) need(addressable(u.start) && addressable(u.end), 'unwind range not a safe integer');
  for (const p of image.pointers) need(addressable(p.at) && addressable(p.target), 'pointer not a safe integer');
  for (const d of image.diagnostics) if (d.startsWith('internal error')) faults.add(d);
  return [...faults];
}
