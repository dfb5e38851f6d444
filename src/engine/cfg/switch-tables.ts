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
  if (jmp.refIsMemory && jmp.ref >= 0) return readTable(image, regions, jmp.ref, pointerSize, 0, false, bound, jmp);
  const table = tableBase(regions, run);
  return table < 0 ? null : readTable(image, regions, table, 4, table, true, bound, jmp);
}

/**
 * MIPS PIC (gcc): `lw a0, %got(T)(gp); addiu a0, a0, %lo(T); addu a0, a0, idx; lw a0, 0(a0);
 * addu a0, a0, gp; jr a0` — int32 entries relative to $gp. The table's address comes from the GOT load
 * and the %lo add, which pairRef combines with $gp pinned.
 */
export function mipsSwitchTargets(
  image: BinaryImage,
  regions: CodeRegion[],
  gp: number,
  run: Insn[],
  bound: Bound,
): number[] | null {
  const jmp = run[run.length - 2]?.flow === Flow.IndirectJump ? run[run.length - 2] : run[run.length - 1];
  if (!jmp || jmp.flow !== Flow.IndirectJump || gp < 0) return null;
  const table = tableBase(regions, run.slice(0, run.indexOf(jmp) + 1));
  if (table < 0) return null;
  // gcc guards the table with `sltiu rT, idx, N` (then a branch to the default case): N entries.
  const n = mipsCaseCount(image, regions, run);
  return readTable(image, regions, table, 4, gp, true, bound, jmp, n > 0 ? n : MAX_CASES);
}

function mipsCaseCount(image: BinaryImage, regions: CodeRegion[], run: Insn[]): number {
  const big = image.identity.endianness === 'big';
  for (let k = run.length - 1; k >= 0 && k >= run.length - 16; k--) {
    const insn = run[k]!;
    const r = regionAt(regions, insn.addr);
    if (!r || insn.len !== 4) continue;
    const o = insn.addr - r.start;
    const b = r.bytes;
    const w = big
      ? ((b[o]! << 24) | (b[o + 1]! << 16) | (b[o + 2]! << 8) | b[o + 3]!) >>> 0
      : ((b[o + 3]! << 24) | (b[o + 2]! << 16) | (b[o + 1]! << 8) | b[o]!) >>> 0;
    if (w >>> 26 === 0x0b) return w & 0xffff; // sltiu
  }
  return -1;
}

/** The latest address formed before the jump that points at data, not code: the table. */
function tableBase(regions: CodeRegion[], run: Insn[]): number {
  for (let k = run.length - 2; k >= 0 && k >= run.length - 1 - LOOKBACK; k--) {
    const insn = run[k]!;
    if (insn.ref >= 0 && !insn.refIsMemory && regionAt(regions, insn.ref) === undefined) return insn.ref;
  }
  return -1;
}

/** Reads entries of `size` bytes at `table`: absolute addresses, or int32 offsets from `base` (`signed`). */
function readTable(
  image: BinaryImage,
  regions: CodeRegion[],
  table: number,
  size: 4 | 8,
  base: number,
  signed: boolean,
  bound: Bound,
  jmp: Insn,
  limit = MAX_CASES,
): number[] | null {
  const off = fileOffsetOf(image, table);
  if (off < 0) return null;
  const view = new DataView(image.bytes.buffer, image.bytes.byteOffset, image.bytes.byteLength);
  const little = image.identity.endianness !== 'big';
  const region = regionAt(regions, jmp.addr)!;
  const lo = Number.isFinite(bound.hi) ? bound.lo : region.start;
  const hi = Number.isFinite(bound.hi) ? bound.hi : region.end;
  const targets: number[] = [];
  for (let i = 0; i < Math.min(limit, MAX_CASES); i++) {
    const at = off + i * size;
    if (at + size > image.bytes.length) break;
    let t: number;
    if (signed) t = base + view.getInt32(at, little);
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
