// A PE image as a loader mapped it (a memory dump of an unpacked or injected module) has each section at its
// RVA, not at its raw offset: rewriting the section table so each section's raw data is where it was mapped
// makes the dump read as a file, which is what analysing the unpacked code needs (as PE-sieve's "unmapping").
import { LIMITS } from './context.js';

const SECTION_HEADER_SIZE = 40;

/** A copy of the mapped image whose section table points at the mapped places; null when it is no PE. */
export function fileFromMappedImage(mapped: Uint8Array): Uint8Array | null {
  const bytes = mapped.slice();
  const v = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const has = (at: number, n: number) => at >= 0 && at + n <= bytes.length;
  if (!has(0x3c, 4)) return null;
  const pe = v.getUint32(0x3c, true);
  if (!has(pe, 24) || v.getUint32(pe, true) !== 0x00004550) return null;
  const coff = pe + 4;
  const opt = coff + 20;
  if (!has(opt, 40)) return null;
  // FileAlignment becomes SectionAlignment: raw pointers are RVAs now.
  v.setUint32(opt + 36, v.getUint32(opt + 32, true), true);
  const table = opt + v.getUint16(coff + 16, true);
  const count = Math.min(v.getUint16(coff + 2, true), LIMITS.sections);
  for (let i = 0; i < count && has(table + i * SECTION_HEADER_SIZE, SECTION_HEADER_SIZE); i++) {
    const s = table + i * SECTION_HEADER_SIZE;
    const rva = v.getUint32(s + 12, true);
    const size = Math.max(v.getUint32(s + 8, true), v.getUint32(s + 16, true));
    const inDump = rva < bytes.length ? Math.min(size, bytes.length - rva) : 0;
    v.setUint32(s + 16, inDump, true);
    v.setUint32(s + 20, inDump > 0 ? rva : 0, true);
  }
  return bytes;
}
