import { Flow } from '../disasm/instruction.js';
import type { BinaryImage } from '../formats/image.js';
import { fileOffsetOf } from '../formats/image.js';
import type { Bound, Insn } from './explore.js';
import { regionAt, type CodeRegion } from './regions.js';

/** Most switch tables have a few dozen cases; a few thousand bounds a table read past its end. */
const MAX_CASES = 4096;
/** How far back from the indirect jump the table's base address is looked for. */
const LOOKBACK = 10;

/**
 * Targets of an indirect jump through a switch table, for the two forms compilers emit on x86:
 * - PIC (x86-64 gcc/clang): `lea rT, [rip+table]; movsxd rX, [rT+idx*4]; add rX, rT; jmp rX` — int32
 *   entries relative to the table;
 * - absolute (non-PIE, i386): `jmp [table+idx*size]` — pointer-sized entries.
 * Entries are read while they land inside the function's known extent (or its code region when the
 * extent is unknown); the first that does not ends the table.
 */
export function x86SwitchTargets(
  image: BinaryImage,
  regions: CodeRegion[],
  pointerSize: 4 | 8,
  run: Insn[],
  bound: Bound,
): number[] | null {
  const jmp = run[run.length - 1];
  if (!jmp || jmp.flow !== Flow.IndirectJump) return null;
  if (jmp.refIsMemory && jmp.ref >= 0) return readTable(image, regions, jmp.ref, pointerSize, 'absolute', bound, jmp);
  for (let k = run.length - 2; k >= 0 && k >= run.length - 1 - LOOKBACK; k--) {
    const insn = run[k]!;
    if (insn.ref >= 0 && !insn.refIsMemory && regionAt(regions, insn.ref) === undefined) {
      return readTable(image, regions, insn.ref, 4, 'relative', bound, jmp);
    }
  }
  return null;
}

function readTable(
  image: BinaryImage,
  regions: CodeRegion[],
  table: number,
  size: 4 | 8,
  kind: 'absolute' | 'relative',
  bound: Bound,
  jmp: Insn,
): number[] | null {
  const off = fileOffsetOf(image, table);
  if (off < 0) return null;
  const view = new DataView(image.bytes.buffer, image.bytes.byteOffset, image.bytes.byteLength);
  const little = image.identity.endianness !== 'big';
  const region = regionAt(regions, jmp.addr)!;
  const lo = Number.isFinite(bound.hi) ? bound.lo : region.start;
  const hi = Number.isFinite(bound.hi) ? bound.hi : region.end;
  const targets: number[] = [];
  for (let i = 0; i < MAX_CASES; i++) {
    const at = off + i * size;
    if (at + size > image.bytes.length) break;
    let t: number;
    if (kind === 'relative') t = table + view.getInt32(at, little);
    else t = size === 8 ? Number(view.getBigUint64(at, little)) : view.getUint32(at, little);
    if (t < lo || t >= hi) break;
    targets.push(t);
  }
  return targets.length > 0 ? [...new Set(targets)] : null;
}

/**
 * Thumb-2 `tbb [pc, rM]` / `tbh [pc, rM, lsl #1]`: a table of byte (halfword) offsets right after the
 * instruction, each case at `table + 2 * entry`. The cases follow the table, so entries are read while
 * the table has not reached the lowest case seen so far.
 */
export function thumbSwitchTargets(image: BinaryImage, regions: CodeRegion[], run: Insn[]): number[] | null {
  const jmp = run[run.length - 1];
  if (!jmp || jmp.flow !== Flow.IndirectJump || jmp.len !== 4) return null;
  const r = regionAt(regions, jmp.addr);
  if (!r) return null;
  const off = jmp.addr - r.start;
  const hw0 = r.bytes[off]! | (r.bytes[off + 1]! << 8);
  const hw1 = r.bytes[off + 2]! | (r.bytes[off + 3]! << 8);
  if (hw0 !== 0xe8df || (hw1 & 0xffe0) !== 0xf000) return null;
  const size = hw1 & 0x10 ? 2 : 1;
  const table = jmp.addr + 4;
  const targets: number[] = [];
  let lowest = r.end;
  for (let i = 0; i < MAX_CASES; i++) {
    const at = table + i * size - r.start;
    if (table + (i + 1) * size > lowest || at + size > r.bytes.length) break;
    const entry = size === 1 ? r.bytes[at]! : r.bytes[at]! | (r.bytes[at + 1]! << 8);
    const t = table + 2 * entry;
    if (t >= r.end) break;
    targets.push(t);
    lowest = Math.min(lowest, t);
  }
  return targets.length > 0 ? [...new Set(targets)] : null;
}
