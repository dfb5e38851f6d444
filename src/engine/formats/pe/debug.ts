// Debug information: the debug directory's CodeView record (RSDS: PDB GUID + age + path; NB10: signature +
// age + path), and DWARF sections that mingw keeps in the image (`.debug_info` …, long names resolved from
// the COFF string table).
import type { DebugInfo } from '../image.js';
import { LIMITS } from './context.js';
import type { PeContext } from './context.js';
import { DIR } from './headers.js';
import type { PeHeaders } from './headers.js';
import type { RvaMap } from './rva-map.js';

const ENTRY_SIZE = 28;
const IMAGE_DEBUG_TYPE_CODEVIEW = 2;
const RSDS = 0x53445352;
const NB10 = 0x3031424e;
const DWARF_SECTION = /^\.z?debug_/;

export function readDebug(ctx: PeContext, h: PeHeaders, map: RvaMap): DebugInfo {
  const dwarfSections = h.sections.map((s) => s.name).filter((n) => DWARF_SECTION.test(n));
  const info: DebugInfo = {
    dwarf: dwarfSections.length > 0,
    dwarfSections,
    buildId: null,
    pdbPath: null,
    pdbGuid: null,
    uuid: null,
  };
  const dir = h.dirs[DIR.debug]!;
  if (dir.rva === 0 || dir.size === 0) return info;
  let count = Math.floor(dir.size / ENTRY_SIZE);
  if (count > LIMITS.debugEntries) {
    ctx.warn(`debug directory: ${count} entries capped at ${LIMITS.debugEntries}`);
    count = LIMITS.debugEntries;
  }
  const v = ctx.v;
  for (let i = 0; i < count; i++) {
    const at = map.offset(dir.rva + i * ENTRY_SIZE, ENTRY_SIZE);
    if (at < 0) {
      ctx.warn(`debug directory entry ${i} lies outside the file`);
      break;
    }
    if (v.u32(at + 12) !== IMAGE_DEBUG_TYPE_CODEVIEW) continue;
    const size = v.u32(at + 16);
    // PointerToRawData is a file offset and works for unmapped records; AddressOfRawData is the fallback.
    const pointer = v.u32(at + 24);
    const data = pointer !== 0 && v.has(pointer, size) ? pointer : map.offset(v.u32(at + 20), size);
    if (data < 0 || size < 16) {
      ctx.warn(`CodeView record ${i} unreadable`);
      continue;
    }
    const signature = v.u32(data);
    if (signature === RSDS && size >= 24) {
      info.pdbGuid = `${formatGuid(v.bytes, data + 4)}-${v.u32(data + 20)}`;
      info.pdbPath = ctx.name(data + 24, size - 24) || null;
    } else if (signature === NB10) {
      info.pdbGuid = `${hex(v.u32(data + 8), 8)}-${v.u32(data + 12)}`;
      info.pdbPath = ctx.name(data + 16, size - 16) || null;
    }
  }
  return info;
}

function hex(value: number, digits: number): string {
  return value.toString(16).toUpperCase().padStart(digits, '0');
}

/** GUID as Windows prints it: Data1-Data2-Data3 little-endian, then Data4's 8 bytes in order. */
export function formatGuid(bytes: Uint8Array, at: number): string {
  const b = (i: number): number => bytes[at + i] ?? 0;
  const le = (i: number, n: number): string => {
    let s = '';
    for (let k = n - 1; k >= 0; k--) s += hex(b(i + k), 2);
    return s;
  };
  const run = (i: number, n: number): string => {
    let s = '';
    for (let k = 0; k < n; k++) s += hex(b(i + k), 2);
    return s;
  };
  return `${le(0, 4)}-${le(4, 2)}-${le(6, 2)}-${run(8, 2)}-${run(10, 6)}`;
}
