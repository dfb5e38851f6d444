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
  const count = x86CaseCount(regions, run);
  const limit = count > 0 ? count : MAX_CASES;
  if (jmp.refIsMemory && jmp.ref >= 0)
    return readTable(image, regions, jmp.ref, pointerSize, 0, false, bound, jmp, limit);
  const table = tableBase(regions, run);
  return table < 0 ? null : readTable(image, regions, table, 4, table, true, bound, jmp, limit);
}

/**
 * The case count of the bounds check before an x86 switch, `cmp r, imm; ja default` (imm + 1 cases) or
 * `jae` (imm), when the run has one; else -1. Without it the table is read while its entries land in the
 * function, which runs on into a table stored right after it (clang puts one switch's table after
 * another's, and both hold offsets into the same function).
 */
function x86CaseCount(regions: CodeRegion[], run: Insn[]): number {
  for (let k = run.length - 2; k >= 1 && k >= run.length - 1 - LOOKBACK; k--) {
    const branch = run[k]!;
    if (branch.flow !== Flow.Branch) continue;
    const r = regionAt(regions, branch.addr);
    if (!r) return -1;
    const b = r.bytes.subarray(branch.addr - r.start, branch.addr - r.start + branch.len);
    const cc = b[0] === 0x0f ? b[1]! - 0x10 : b[0]!;
    if (cc !== 0x77 && cc !== 0x73) return -1;
    const imm = compareImmediate(regions, run[k - 1]!);
    return imm < 0 ? -1 : cc === 0x77 ? imm + 1 : imm;
  }
  return -1;
}

/**
 * The immediate of `cmp r/m, imm` (80 /7 ib, 83 /7 ib, 81 /7 id or iw, 3c ib, 3d id or iw; any operand
 * size and addressing form), else -1. The immediate is the instruction's last bytes.
 */
function compareImmediate(regions: CodeRegion[], insn: Insn): number {
  const r = regionAt(regions, insn.addr);
  if (!r) return -1;
  const b = r.bytes.subarray(insn.addr - r.start, insn.addr - r.start + insn.len);
  let i = 0;
  let word = false;
  for (; i < b.length && (b[i] === 0x66 || (b[i]! >= 0x40 && b[i]! <= 0x4f)); i++) word ||= b[i] === 0x66;
  const op = b[i];
  const n = b.length;
  if (op !== 0x3c && op !== 0x3d && ((b[i + 1] ?? 0) >> 3) % 8 !== 7) return -1;
  if (op === 0x80 || op === 0x3c) return b[n - 1]!;
  if (op === 0x83) return (b[n - 1]! << 24) >> 24;
  if (op !== 0x81 && op !== 0x3d) return -1;
  return word ? b[n - 2]! | (b[n - 1]! << 8) : new DataView(b.buffer, b.byteOffset, n).getInt32(n - 4, true);
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
  const upTo = run.slice(0, run.indexOf(jmp) + 1);
  const traced = mipsTableBase(image, regions, upTo);
  const table = traced >= 0 ? traced : tableBase(regions, upTo);
  if (table < 0) return null;
  // gcc guards the table with `sltiu rT, idx, N` (then a branch to the default case): N entries.
  const n = mipsCaseCount(image, regions, run);
  return readTable(image, regions, table, 4, gp, true, bound, jmp, n > 0 ? n : MAX_CASES);
}

/**
 * The `sltiu` guard's bound. gcc often puts it in the delay slot of the branch before (`beqz rT, big;
 * sltiu rT, idx, 9`), which the run does not list: without that slot, resolveP2Values' earlier
 * `sltiu rT, op, 65` gave a 9-case table 65 entries, 3 of them inside another function.
 */
function mipsCaseCount(image: BinaryImage, regions: CodeRegion[], run: Insn[]): number {
  const big = image.identity.endianness === 'big';
  const sltiu = (addr: number): number => {
    const r = regionAt(regions, addr);
    if (!r || addr + 4 > r.end) return -1;
    const o = addr - r.start;
    const b = r.bytes;
    const w = big
      ? ((b[o]! << 24) | (b[o + 1]! << 16) | (b[o + 2]! << 8) | b[o + 3]!) >>> 0
      : ((b[o + 3]! << 24) | (b[o + 2]! << 16) | (b[o + 1]! << 8) | b[o]!) >>> 0;
    return w >>> 26 === 0x0b ? w & 0xffff : -1;
  };
  for (let k = run.length - 1; k >= 0 && k >= run.length - 16; k--) {
    const insn = run[k]!;
    if (insn.len !== 4) continue;
    const inSlot = insn.flow !== Flow.Sequential && k < run.length - 1 ? sltiu(insn.addr + 4) : -1;
    if (inSlot >= 0) return inSlot;
    const n = sltiu(insn.addr);
    if (n >= 0) return n;
  }
  return -1;
}

const GP = 28;
const SP = 29;

/**
 * The table of a MIPS `jr` traced back through its registers: `addu rJ, rE, gp` ← `lw rE, 0(rA)` ←
 * `addu rA, rT, rI` (rI from `sll`), then rT's address from the instruction that set it, through a stack
 * slot when rT was spilled. sqlite's VDBE loop forms its table 16 instructions before the `jr` and
 * reloads it from the stack, out of reach of a fixed look-back. Returns -1 when the chain breaks.
 */
function mipsTableBase(image: BinaryImage, regions: CodeRegion[], run: Insn[]): number {
  const word = (i: Insn) => {
    const r = regionAt(regions, i.addr);
    if (!r || i.len !== 4) return -1;
    const b = r.bytes;
    const o = i.addr - r.start;
    return image.identity.endianness === 'big'
      ? ((b[o]! << 24) | (b[o + 1]! << 16) | (b[o + 2]! << 8) | b[o + 3]!) >>> 0
      : ((b[o + 3]! << 24) | (b[o + 2]! << 16) | (b[o + 1]! << 8) | b[o]!) >>> 0;
  };
  // The latest instruction before index `k` that writes `reg`, or -1.
  const writer = (reg: number, k: number) => {
    for (let j = k - 1; j >= 0 && j >= k - 4 * LOOKBACK; j--) if (mipsDest(word(run[j]!)) === reg) return j;
    return -1;
  };
  let k = run.length - 1;
  let reg = (word(run[k]!) >>> 21) & 31; // jr rs
  const addu = (w: number) => w >>> 26 === 0 && (w & 0x3f) === 0x21;
  // addu rJ, rE, gp
  k = writer(reg, k);
  let w = k >= 0 ? word(run[k]!) : -1;
  if (k < 0 || !addu(w) || ((w >>> 16) & 31) !== GP) return -1;
  reg = (w >>> 21) & 31;
  // lw rE, 0(rA)
  k = writer(reg, k);
  w = k >= 0 ? word(run[k]!) : -1;
  if (k < 0 || w >>> 26 !== 0x23 || (w & 0xffff) !== 0) return -1;
  reg = (w >>> 21) & 31;
  // addu rA, rT, rI: rT is the operand not set by a shift
  k = writer(reg, k);
  w = k >= 0 ? word(run[k]!) : -1;
  if (k < 0 || !addu(w)) return -1;
  const at = k;
  const rs = (w >>> 21) & 31;
  const rt = (w >>> 16) & 31;
  const ks = writer(rs, at);
  const shifted = ks >= 0 && word(run[ks]!) >>> 26 === 0 && (word(run[ks]!) & 0x3f) === 0;
  reg = shifted ? rt : rs;
  k = writer(reg, at);
  if (k < 0) return -1;
  w = word(run[k]!);
  // lw rT, off(sp): the table was spilled; continue from the store into that slot.
  if (w >>> 26 === 0x23 && ((w >>> 21) & 31) === SP) {
    const slot = w & 0xffff;
    let j = k - 1;
    for (; j >= 0 && j >= k - 4 * LOOKBACK; j--) {
      const s = word(run[j]!);
      if (s >>> 26 === 0x2b && ((s >>> 21) & 31) === SP && (s & 0xffff) === slot) break;
    }
    if (j < 0 || j < k - 4 * LOOKBACK) return -1;
    k = writer((word(run[j]!) >>> 16) & 31, j);
    if (k < 0) return -1;
  }
  const insn = run[k]!;
  return insn.ref >= 0 && !insn.refIsMemory && regionAt(regions, insn.ref) === undefined ? insn.ref : -1;
}

/** The general register a MIPS32 instruction writes, or -1 (stores, branches, FPU and HI/LO results). */
function mipsDest(w: number): number {
  if (w < 0) return -1;
  const op = w >>> 26;
  const funct = w & 0x3f;
  if (op === 0)
    return funct === 8 || (funct >= 0x18 && funct <= 0x1b) || funct === 0x11 || funct === 0x13 ? -1 : (w >>> 11) & 31;
  if (op === 0x1c) return (w >>> 11) & 31; // mul, clz
  if (op === 0x1f) return funct === 0x20 ? (w >>> 11) & 31 : (w >>> 16) & 31; // seb/seh/wsbh; ext/ins
  if (op === 3) return 31; // jal
  if ((op >= 0x08 && op <= 0x0f) || (op >= 0x20 && op <= 0x26) || op === 0x30) return (w >>> 16) & 31;
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

/** Where switch tables kept inside code lie, by the address of their jump: data to claim, not to scan. */
export type TableSpans = Map<number, { start: number; end: number }>;

/**
 * Thumb-2 `tbb [pc, rM]` / `tbh [pc, rM, lsl #1]`: a table of byte (halfword) offsets right after the
 * instruction, each case at `table + 2 * entry`. Without a case count the cases are taken to follow the
 * table, and entries are read while the table has not reached the lowest case seen so far. Other jumps
 * go to `adrJumpTargets`.
 */
export function thumbSwitchTargets(
  image: BinaryImage,
  regions: CodeRegion[],
  run: Insn[],
  tables?: TableSpans,
): number[] | null {
  const jmp = run[run.length - 1];
  if (!jmp || jmp.flow !== Flow.IndirectJump) return null;
  const r = regionAt(regions, jmp.addr);
  if (!r) return null;
  const off = jmp.addr - r.start;
  const hw0 = r.bytes[off]! | (r.bytes[off + 1]! << 8);
  const hw1 = r.bytes[off + 2]! | (r.bytes[off + 3]! << 8);
  if (jmp.len !== 4 || hw0 !== 0xe8df || (hw1 & 0xffe0) !== 0xf000) return adrJumpTargets(regions, run, tables);
  const size = hw1 & 0x10 ? 2 : 1;
  const table = jmp.addr + 4;
  const targets: number[] = [];
  let lowest = r.end;
  const count = thumbCaseCount(regions, run, hw1 & 0xf);
  let i = 0;
  for (; i < (count > 0 ? Math.min(count, MAX_CASES) : MAX_CASES); i++) {
    const at = table + i * size - r.start;
    if ((count < 0 && table + (i + 1) * size > lowest) || at + size > r.bytes.length) break;
    const entry = size === 1 ? r.bytes[at]! : r.bytes[at]! | (r.bytes[at + 1]! << 8);
    const t = table + 2 * entry;
    if (t >= r.end) break;
    targets.push(t);
    lowest = Math.min(lowest, t);
  }
  if (targets.length === 0) return null;
  tables?.set(jmp.addr, { start: table, end: table + i * size });
  return [...new Set(targets)];
}

/**
 * Thumb-2 jumps through an address formed by `adr rA, L` where L lies just past the jump (after at most
 * 8 bytes of alignment padding):
 * - gcc's switch for cases too far for `tbh`: `adr rA, T; ldr.w rX, [rA, rI, lsl #2]; add rA, rX;
 *   bx rA`, T holding int32 offsets from T (Thumb bit set), N entries by the `cmp rI, #N-1` guard;
 * - libgcc's `__udivsi3`/`__divsi3`: `adr rA, L; add.w rX, rA, rN, lsl #4; mov pc, rX`, a jump into
 *   the unrolled loop at L, reached by falling through from there.
 */
function adrJumpTargets(regions: CodeRegion[], run: Insn[], tables?: TableSpans): number[] | null {
  const jmp = run[run.length - 1]!;
  const r = regionAt(regions, jmp.addr)!;
  let k = run.length - 2;
  for (; k >= 0 && k >= run.length - 1 - LOOKBACK; k--) {
    const i = run[k]!;
    if (i.ref >= 0 && !i.refIsMemory && i.ref >= jmp.addr + jmp.len && i.ref <= jmp.addr + jmp.len + 8) break;
  }
  if (k < 0 || k < run.length - 1 - LOOKBACK) return null;
  const label = run[k]!.ref;
  if (label >= r.end) return null;
  for (let j = k + 1; j < run.length - 1; j++) {
    const o = run[j]!.addr - r.start;
    const hw0 = r.bytes[o]! | (r.bytes[o + 1]! << 8);
    const hw1 = r.bytes[o + 2]! | (r.bytes[o + 3]! << 8);
    // LDR.W rX, [rN, rM, lsl #2] (T2): 1111 1000 0101 rN | rX 0000 0010 rM.
    if (run[j]!.len !== 4 || (hw0 & 0xfff0) !== 0xf850 || (hw1 & 0x0ff0) !== 0x0020) continue;
    const count = Math.min(thumbCaseCount(regions, run, hw1 & 0xf), MAX_CASES);
    if (count <= 0 || label + 4 * count > r.end) return null;
    const view = new DataView(r.bytes.buffer, r.bytes.byteOffset, r.bytes.byteLength);
    const targets: number[] = [];
    for (let e = 0; e < count; e++) {
      const t = label + view.getInt32(label - r.start + 4 * e, true);
      if (t < r.start || t >= r.end) return null;
      targets.push(t - (t % 2));
    }
    tables?.set(jmp.addr, { start: label, end: label + 4 * count });
    return [...new Set(targets)];
  }
  return [label];
}

/**
 * Entries of a `tbb`/`tbh` table: gcc and clang guard the index with `cmp rM, #N-1` and `bhi default`
 * just before it, so the table has N entries. Cases need not follow in order (sqlite's printf switch
 * starts at +0x204 and its 77-entry table is 154 bytes): stopping at the lowest case read 131 more
 * "entries" out of the code after the table. Returns -1 when no compare on rM is found.
 */
function thumbCaseCount(regions: CodeRegion[], run: Insn[], rm: number): number {
  for (let k = run.length - 2; k >= 0 && k >= run.length - 1 - LOOKBACK; k--) {
    const insn = run[k]!;
    const r = regionAt(regions, insn.addr);
    if (!r) return -1;
    const o = insn.addr - r.start;
    const hw0 = r.bytes[o]! | (r.bytes[o + 1]! << 8);
    if (insn.len === 2 && hw0 >>> 11 === 0b00101 && ((hw0 >>> 8) & 7) === rm) return (hw0 & 0xff) + 1;
    if (insn.len !== 4) continue;
    const hw1 = r.bytes[o + 2]! | (r.bytes[o + 3]! << 8);
    // CMP.W rn, #const (T2): 11110 i 0 1101 1 rn | 0 imm3 1111 imm8.
    if ((hw0 & 0xfbf0) === 0xf1b0 && (hw0 & 0xf) === rm && (hw1 & 0x8f00) === 0x0f00) {
      const imm12 = ((hw0 >>> 10) & 1) * 0x800 + ((hw1 >>> 12) & 7) * 0x100 + (hw1 & 0xff);
      return thumbExpandImm(imm12) + 1;
    }
  }
  return -1;
}

/** ThumbExpandImm (ARM ARM A6.3.2): the 32-bit constant of a 12-bit modified immediate. */
function thumbExpandImm(imm12: number): number {
  const b = imm12 & 0xff;
  if (imm12 >>> 10 === 0) {
    const form = (imm12 >>> 8) & 3;
    return form === 0 ? b : form === 1 ? b * 0x10001 : form === 2 ? b * 0x1000100 : b * 0x1010101;
  }
  const value = 0x80 | (imm12 & 0x7f);
  const rot = imm12 >>> 7;
  return ((value >>> rot) | (value << (32 - rot))) >>> 0;
}
