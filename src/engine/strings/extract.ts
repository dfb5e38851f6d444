import type { BinaryImage } from '../formats/image.js';

export type StringEncoding = 'ascii' | 'utf8' | 'utf16le';

export interface FoundString {
  vaddr: number;
  value: string;
  encoding: StringEncoding;
  section: string;
  /** Length in bytes in the file (without the terminator). */
  byteLength: number;
}

export interface ExtractOptions {
  /** Shortest string reported, in characters. */
  minLength?: number;
  /** Longest string kept whole; longer ones are cut (the byte length stays true). */
  maxLength?: number;
  /** Upper bound on strings reported (hostile files full of text). */
  maxStrings?: number;
}

const DEFAULTS = { minLength: 4, maxLength: 4096, maxStrings: 1_000_000 };

/** Loader metadata (symbol and version tables, relocations, notes), not the program's own text. */
const METADATA = /^\.(dyn|gnu\.|note|rel|hash|interp|symtab|strtab|shstrtab|comment)/;

/** Printable ASCII plus tab, newline and carriage return. */
const isText = (c: number) => (c >= 0x20 && c < 0x7f) || c === 0x09 || c === 0x0a || c === 0x0d;

/** Length of a valid UTF-8 multi-byte sequence of a printable character at `i`, else 0. */
function utf8Length(b: Uint8Array, i: number, end: number): number {
  const c = b[i]!;
  const n = c >= 0xc2 && c <= 0xdf ? 2 : c >= 0xe0 && c <= 0xef ? 3 : c >= 0xf0 && c <= 0xf4 ? 4 : 0;
  if (n === 0 || i + n > end) return 0;
  for (let k = 1; k < n; k++) if ((b[i + k]! & 0xc0) !== 0x80) return 0;
  return n;
}

const utf8 = new TextDecoder('utf-8', { fatal: false });
const utf16 = new TextDecoder('utf-16le', { fatal: false });

/**
 * Strings in the file-backed sections that hold data (and in code sections for formats that mix them):
 * runs of printable ASCII/UTF-8 and of UTF-16LE, at least `minLength` characters.
 */
export function extractStrings(image: BinaryImage, options: ExtractOptions = {}): FoundString[] {
  const o = { ...DEFAULTS, ...options };
  const out: FoundString[] = [];
  const b = image.bytes;
  for (const s of image.sections) {
    // Only what the program loads: sections outside memory (symbol tables, .comment) and loader
    // metadata hold names and notes, not strings the code uses.
    if (s.fileSize <= 0 || s.exec || !(s.read || s.write) || METADATA.test(s.name)) continue;
    const start = Math.max(0, s.fileOffset);
    const end = Math.min(b.length, s.fileOffset + s.fileSize);
    scan8(b, start, end, s.vaddr - s.fileOffset, s.name, o, out);
    scan16(b, start, end, s.vaddr - s.fileOffset, s.name, o, out);
    if (out.length >= o.maxStrings) break;
  }
  out.sort((x, y) => x.vaddr - y.vaddr);
  return out.slice(0, o.maxStrings);
}

function scan8(
  b: Uint8Array,
  start: number,
  end: number,
  delta: number,
  section: string,
  o: typeof DEFAULTS,
  out: FoundString[],
) {
  let i = start;
  while (i < end && out.length < o.maxStrings) {
    const from = i;
    let chars = 0;
    let multibyte = false;
    for (;;) {
      if (i >= end) break;
      const c = b[i]!;
      if (isText(c)) {
        i++;
        chars++;
        continue;
      }
      const n = c >= 0x80 ? utf8Length(b, i, end) : 0;
      if (n === 0) break;
      i += n;
      chars++;
      multibyte = true;
    }
    if (chars >= o.minLength) {
      const bytes = b.subarray(from, Math.min(i, from + o.maxLength * 4));
      const value = (multibyte ? utf8.decode(bytes) : latin(bytes)).slice(0, o.maxLength);
      out.push({ vaddr: from + delta, value, encoding: multibyte ? 'utf8' : 'ascii', section, byteLength: i - from });
    }
    if (i === from) i++;
  }
}

function scan16(
  b: Uint8Array,
  start: number,
  end: number,
  delta: number,
  section: string,
  o: typeof DEFAULTS,
  out: FoundString[],
) {
  // UTF-16LE text of Latin script alternates a printable byte and a zero byte; both alignments are tried.
  for (let phase = 0; phase < 2; phase++) {
    let i = start + ((start + phase) & 1 ? 1 : 0);
    while (i + 1 < end && out.length < o.maxStrings) {
      const from = i;
      while (i + 1 < end && isText(b[i]!) && b[i + 1] === 0) i += 2;
      const chars = (i - from) / 2;
      if (chars >= o.minLength) {
        const value = utf16.decode(b.subarray(from, Math.min(i, from + o.maxLength * 2)));
        out.push({ vaddr: from + delta, value, encoding: 'utf16le', section, byteLength: i - from });
      }
      i = i === from ? i + 2 : i;
    }
  }
}

function latin(bytes: Uint8Array): string {
  let s = '';
  for (let k = 0; k < bytes.length; k += 8192) s += String.fromCharCode(...bytes.subarray(k, k + 8192));
  return s;
}
