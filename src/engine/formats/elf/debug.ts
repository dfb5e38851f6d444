// Debug information: which DWARF sections are present, and the GNU build ID note.
import type { DebugInfo } from '../image.js';
import { PT_NOTE, SHT_NOTE } from './constants.js';
import type { ElfContext } from './context.js';

const NT_GNU_BUILD_ID = 3;
/** Build IDs are 16 (md5/uuid) or 20 (sha1) bytes, 32 for sha256; more than 64 is not an ID. */
const MAX_BUILD_ID = 64;
/** Notes looked at over the whole file; real files carry fewer than ten. */
const MAX_NOTES = 4096;

function isDwarfSection(name: string): boolean {
  return name.startsWith('.debug_') || name.startsWith('.zdebug_');
}

/** Walk one note area [start, end) for NT_GNU_BUILD_ID with name "GNU"; notes are 4-byte aligned (8 in some 64-bit areas). */
function findBuildId(
  ctx: ElfContext,
  start: number,
  end: number,
  align: number,
  budget: { left: number },
): string | null {
  const { view } = ctx;
  const pad = (n: number): number => Math.ceil(n / align) * align;
  let pos = start;
  while (pos + 12 <= end && budget.left-- > 0) {
    const namesz = view.u32(pos);
    const descsz = view.u32(pos + 4);
    const type = view.u32(pos + 8);
    const nameAt = pos + 12;
    const descAt = nameAt + pad(namesz);
    const next = descAt + pad(descsz);
    if (next > end || next <= pos) return null;
    if (type === NT_GNU_BUILD_ID && namesz === 4 && view.name(nameAt, nameAt + 4) === 'GNU') {
      if (descsz === 0 || descsz > MAX_BUILD_ID) return null;
      let hex = '';
      for (let i = 0; i < descsz; i++)
        hex += view
          .u8(descAt + i)
          .toString(16)
          .padStart(2, '0');
      return hex;
    }
    pos = next;
  }
  return null;
}

export function debugInfo(ctx: ElfContext): DebugInfo {
  const dwarfSections = ctx.sections.filter((s) => isDwarfSection(s.name)).map((s) => s.name);
  const budget = { left: MAX_NOTES };
  const areas: [number, number, number][] = [
    ...ctx.sections
      .filter((s) => s.type === SHT_NOTE)
      .map((s): [number, number, number] => [s.offset, s.fileBytes, s.addralign]),
    ...ctx.segments.filter((p) => p.type === PT_NOTE).map((p): [number, number, number] => [p.offset, p.fileBytes, 4]),
  ];
  let buildId: string | null = null;
  for (const [offset, size, align] of areas) {
    if (size === 0) continue;
    buildId = findBuildId(ctx, offset, offset + size, align === 8 ? 8 : 4, budget);
    if (buildId) break;
  }
  return { dwarf: dwarfSections.length > 0, dwarfSections, buildId, pdbPath: null, pdbGuid: null, uuid: null };
}
