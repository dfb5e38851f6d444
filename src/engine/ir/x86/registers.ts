// x86 and x86-64 locations in the IR: the sixteen general registers in encoding order, xmm0-15, flags,
// the fs/gs segment bases, the x87 stack and one catch-all for the rest (mmx, mask, control registers):
// what compiled C touches, each at its full width.
import type { IcedModule } from '../../disasm/x86-decoder.js';
import type { RegisterFile } from '../ir.js';

const GPR = ['ax', 'cx', 'dx', 'bx', 'sp', 'bp', 'si', 'di'] as const;
export const XMM0 = 16;
export const FLAGS = 32;
export const FS_BASE = 33;
export const GS_BASE = 34;
export const ST0 = 35;
export const OTHER = 43;
export const TEMP = 44;
/** The second scratch register: only x87 code uses it (fxch), so it only ever holds a long double. */
export const X87_TEMP = 45;

/** General registers by name (`RAX = 0 … R15 = 15`), for the conventions. */
export const R = {
  ax: 0,
  cx: 1,
  dx: 2,
  bx: 3,
  sp: 4,
  bp: 5,
  si: 6,
  di: 7,
  r8: 8,
  r9: 9,
  r10: 10,
  r11: 11,
} as const;

export function x86Registers(bits: 32 | 64): RegisterFile {
  const names: string[] = [];
  const widths: number[] = [];
  const word = bits / 8;
  for (let i = 0; i < 16; i++) {
    names.push(i < 8 ? `${bits === 64 ? 'r' : 'e'}${GPR[i]}` : `r${i}`);
    widths.push(word);
  }
  for (let i = 0; i < 16; i++) {
    names.push(`xmm${i}`);
    widths.push(16);
  }
  names.push('flags', 'fs_base', 'gs_base');
  widths.push(word, word, word);
  for (let i = 0; i < 8; i++) {
    names.push(`st${i}`);
    widths.push(10);
  }
  names.push('other', 'tmp0', 'tmp1');
  widths.push(64, 64, 64);
  return { names, widths, sp: R.sp, flags: FLAGS, addressSize: word as 4 | 8, temp: TEMP };
}

/** An iced register as an IR location: full register, width in bytes, and byte offset (8 for AH). */
export interface RegisterSlot {
  r: number;
  w: number;
  hi: boolean;
}

/** iced's Register enum → slots, built once per iced module from the enum's names. */
export function icedRegisterSlots(iced: IcedModule): (RegisterSlot | null)[] {
  const slots: (RegisterSlot | null)[] = [];
  for (const [name, value] of Object.entries(iced.Register)) {
    if (typeof value !== 'number') continue;
    slots[value] = slotOf(name.toLowerCase());
  }
  return slots;
}

function slotOf(n: string): RegisterSlot | null {
  if (n === 'none' || n === 'rip' || n === 'eip') return null;
  const gi = GPR.findIndex((g) => n === g || n === `e${g}` || n === `r${g}`);
  if (gi >= 0) return { r: gi, w: n.length === 2 ? 2 : n[0] === 'e' ? 4 : 8, hi: false };
  const byte = ['al', 'cl', 'dl', 'bl', 'spl', 'bpl', 'sil', 'dil'].indexOf(n);
  if (byte >= 0) return { r: byte, w: 1, hi: false };
  const high = ['ah', 'ch', 'dh', 'bh'].indexOf(n);
  if (high >= 0) return { r: high, w: 1, hi: true };
  const rn = /^r(\d+)([dwl]?)$/.exec(n);
  if (rn) return { r: Number(rn[1]), w: rn[2] === 'd' ? 4 : rn[2] === 'w' ? 2 : rn[2] === 'l' ? 1 : 8, hi: false };
  const x = /^([xyz])mm(\d+)$/.exec(n);
  if (x) return Number(x[2]) < 16 ? { r: XMM0 + Number(x[2]), w: 16, hi: false } : { r: OTHER, w: 16, hi: false };
  const st = /^st(\d)$/.exec(n);
  if (st) return { r: ST0 + Number(st[1]), w: 10, hi: false };
  return { r: OTHER, w: 8, hi: false };
}
