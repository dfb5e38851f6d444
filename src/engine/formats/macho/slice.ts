// Which bytes to parse: a thin image as is, or from a universal ("fat") file the first slice whose CPU we
// know and whose header reads. Fat headers are always big-endian. A slice that is itself a fat header is
// refused (no recursion), as the loader refuses it.
import { ByteView } from '../byte-view.js';
import { LIMITS } from './context.js';
import { FAT_MAGIC, FAT_MAGIC_64 } from './constants.js';

const THIN_MAGICS = new Set([0xfeedface, 0xfeedfacf, 0xcefaedfe, 0xcffaedfe]);

const CPU_NAMES: ReadonlyMap<number, string> = new Map([
  [7, 'x86'],
  [0x01000007, 'x86_64'],
  [12, 'arm'],
  [0x0100000c, 'arm64'],
  [18, 'ppc'],
  [0x01000012, 'ppc64'],
]);

export interface Slice {
  bytes: Uint8Array;
  /** Offset of the slice in the whole file (0 for thin files). */
  offset: number;
  notes: string[];
}

export function isThinMagic(bytes: Uint8Array, at = 0): boolean {
  return THIN_MAGICS.has(new ByteView(bytes, false).u32(at));
}

export function cpuName(cputype: number): string {
  return CPU_NAMES.get(cputype) ?? `cputype 0x${cputype.toString(16)}`;
}

/** The slice to parse, or null when there is none (not Mach-O, no known slice, every slice broken). */
export function pickSlice(bytes: Uint8Array): Slice | null {
  if (isThinMagic(bytes)) return { bytes, offset: 0, notes: [] };
  const v = new ByteView(bytes, false);
  const magic = v.u32(0);
  if (magic !== FAT_MAGIC && magic !== FAT_MAGIC_64) return null;
  const is64 = magic === FAT_MAGIC_64;
  const declared = v.u32(4);
  // Java class files share 0xcafebabe and put their version (≥ 45) here; identify() draws the same line.
  if (declared === 0 || declared >= LIMITS.fatArchs) return null;
  const entrySize = is64 ? 32 : 20;
  const notes: string[] = [];
  let chosen: Slice | null = null;
  for (let i = 0; i < declared; i++) {
    const at = 8 + i * entrySize;
    if (!v.has(at, entrySize)) {
      notes.push(`fat: arch ${i} of ${declared} lies past the end of the file`);
      break;
    }
    const cputype = v.u32(at);
    const offset = is64 ? v.u64(at + 8) : v.u32(at + 8);
    const size = is64 ? v.u64(at + 16) : v.u32(at + 12);
    const label = `fat: slice ${i} (${cpuName(cputype)}) at 0x${offset.toString(16)}`;
    if (chosen) {
      notes.push(`${label} not parsed`);
      continue;
    }
    if (!CPU_NAMES.has(cputype)) {
      notes.push(`${label} skipped: unknown CPU`);
      continue;
    }
    if (offset < 8 || !v.has(offset, 4)) {
      notes.push(`${label} skipped: offset outside the file`);
      continue;
    }
    const end = Math.min(bytes.length, offset + size);
    if (end < offset + size) notes.push(`${label}: slice truncated by the end of the file`);
    const slice = bytes.subarray(offset, end);
    if (!isThinMagic(slice)) {
      notes.push(`${label} skipped: no thin Mach-O header there (nested fat files are not followed)`);
      continue;
    }
    notes.push(`${label} parsed`);
    chosen = { bytes: slice, offset, notes };
  }
  return chosen;
}
