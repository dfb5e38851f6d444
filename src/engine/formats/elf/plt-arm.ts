// PLT stub patterns of AArch64 and 32-bit ARM: a tiny pattern decoder, not a disassembler. Each decoder
// walks [start, end) of the file and reports (stub address, GOT slot the stub jumps through).
import type { CodeBytes, StubSink } from './code-bytes.js';

const TWO_32 = 0x1_0000_0000;
const BTI_C = 0xd503245f;

/**
 * AArch64: `adrp x16, page; ldr x17, [x16, #off]` (then `add x16, x16, #off; br x17`), optionally after
 * `bti c`. slot = page + off. ILP32's `ldr w17` scales the offset by 4.
 */
export function scanAarch64(code: CodeBytes, start: number, end: number, vaddr: number, sink: StubSink): void {
  for (let i = start; i + 8 <= end; i += 4) {
    const w = code.u32(i);
    if ((w & 0x9f00001f) >>> 0 !== 0x90000010) continue;
    const ldr = code.u32(i + 4);
    let scale: number;
    if ((ldr & 0xffc003ff) >>> 0 === 0xf9400211) scale = 8;
    else if ((ldr & 0xffc003ff) >>> 0 === 0xb9400211) scale = 4;
    else continue;
    const pc = vaddr + (i - start);
    const immlo = (w >>> 29) & 3;
    const immhi = (w >>> 5) & 0x7ffff;
    let pages = immhi * 4 + immlo;
    if (pages >= 0x100000) pages -= 0x200000;
    const slot = Math.floor(pc / 4096) * 4096 + pages * 4096 + ((ldr >>> 10) & 0xfff) * scale;
    const stub = i - 4 >= start && code.u32(i - 4) === BTI_C ? pc - 4 : pc;
    if (slot >= 0) sink(stub, slot);
  }
}

/** ARM modified immediate: an 8-bit value rotated right by twice the 4-bit rotation field. */
function armImmediate(w: number): number {
  const imm8 = w & 0xff;
  const rot = ((w >>> 8) & 0xf) * 2;
  return rot === 0 ? imm8 : ((imm8 >>> rot) | (imm8 << (32 - rot))) >>> 0;
}

const isAddIpPc = (w: number): boolean => (w & 0x0ffff000) >>> 0 === 0x028fc000;
const isAddIpIp = (w: number): boolean => (w & 0x0ffff000) >>> 0 === 0x028cc000;
/** ldr pc, [ip, #±imm]{!}: pre-indexed, either sign, with or without write-back. */
const isLdrPcIp = (w: number): boolean => (w & 0x0f5ff000) >>> 0 === 0x051cf000;
/** Thumb `bx pc` that switches to the ARM stub 4 bytes on; calls from Thumb code enter here. */
const THUMB_BX_PC = 0x4778;

/**
 * ARM-mode PLT entries: `add ip, pc, #a; add ip, ip, #b; [add ip, ip, #c;] ldr pc, [ip, #d]!` with
 * slot = entry + 8 + a + b (+ c) ± d. A Thumb `bx pc; nop` prefix is reported as a second stub address.
 * Thumb-2 PLT entries: `movw ip, #lo; movt ip, #hi; add ip, pc; ldr.w pc, [ip]` with slot = add + 4 + imm.
 */
export function scanArm(code: CodeBytes, start: number, end: number, vaddr: number, sink: StubSink): void {
  for (let i = start; i + 12 <= end; i += 2) {
    const pc = vaddr + (i - start);
    if ((i - start) % 4 === 0 && isAddIpPc(code.u32(i))) {
      let sum = armImmediate(code.u32(i));
      let k = i + 4;
      for (let n = 0; n < 2 && k + 4 <= end && isAddIpIp(code.u32(k)); n++, k += 4) sum += armImmediate(code.u32(k));
      const ldr = code.u32(k);
      if (k + 4 > end || !isLdrPcIp(ldr)) continue;
      const off = (ldr & 0x00800000) !== 0 ? ldr & 0xfff : -(ldr & 0xfff);
      const slot = (((pc + 8 + sum + off) % TWO_32) + TWO_32) % TWO_32;
      if (i - 4 >= start && code.u16(i - 4) === THUMB_BX_PC) sink(pc - 4, slot);
      sink(pc, slot);
      i = k + 2;
      continue;
    }
    const slot = thumbPlt(code, i, end, pc);
    if (slot !== null) {
      sink(pc, slot);
      i += 12;
    }
  }
}

function thumbImm16(hw1: number, hw2: number): number {
  return ((hw1 & 0xf) << 12) | (((hw1 >>> 10) & 1) << 11) | (((hw2 >>> 12) & 7) << 8) | (hw2 & 0xff);
}

function thumbPlt(code: CodeBytes, i: number, end: number, pc: number): number | null {
  if (i + 14 > end) return null;
  const [m1, m2, t1, t2] = [code.u16(i), code.u16(i + 2), code.u16(i + 4), code.u16(i + 6)];
  if ((m1 & 0xfbf0) !== 0xf240 || (m2 & 0x8f00) !== 0x0c00) return null;
  if ((t1 & 0xfbf0) !== 0xf2c0 || (t2 & 0x8f00) !== 0x0c00) return null;
  if (code.u16(i + 8) !== 0x44fc || code.u16(i + 10) !== 0xf8dc || (code.u16(i + 12) & 0xf000) !== 0xf000) return null;
  const imm = thumbImm16(t1, t2) * 0x10000 + thumbImm16(m1, m2);
  return (pc + 8 + 4 + imm + (code.u16(i + 12) & 0xfff)) % TWO_32;
}
