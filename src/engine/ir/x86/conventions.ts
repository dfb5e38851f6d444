// Calling conventions of x86-64 (System V, Microsoft x64) and i386, in the IR's register numbers. On i386
// one convention reads both ways compilers pass arguments: on the stack (cdecl; stdcall shows as `ret n`)
// and in eax, edx, ecx (gcc's regparm(3), which it gives every static function at -O2); a function that
// reads none of those registers on entry is plain cdecl.
import type { Platform } from '../../../contracts/result.js';
import type { CallingConvention } from '../lifter.js';
import { FLAGS, R, ST0, XMM0 } from './registers.js';

const xmm = (from: number, to: number): number[] => [...Array(to - from).keys()].map((i) => XMM0 + from + i);

export const SYSV_X64: CallingConvention = {
  name: 'sysv',
  intArgs: [R.di, R.si, R.dx, R.cx, R.r8, R.r9],
  floatArgs: xmm(0, 8),
  positional: false,
  stackArgsAt: 8,
  stackSlot: 8,
  intReturn: R.ax,
  floatReturn: XMM0,
  clobbers: [R.ax, R.cx, R.dx, R.si, R.di, R.r8, R.r9, R.r10, R.r11, ...xmm(0, 16), FLAGS],
};

export const MS_X64: CallingConvention = {
  name: 'ms_abi',
  intArgs: [R.cx, R.dx, R.r8, R.r9],
  floatArgs: xmm(0, 4),
  positional: true,
  stackArgsAt: 40,
  stackSlot: 8,
  intReturn: R.ax,
  floatReturn: XMM0,
  clobbers: [R.ax, R.cx, R.dx, R.r8, R.r9, R.r10, R.r11, ...xmm(0, 6), FLAGS],
};

export const I386: CallingConvention = {
  name: 'cdecl',
  intArgs: [R.ax, R.dx, R.cx],
  floatArgs: [],
  positional: false,
  stackArgsAt: 4,
  stackSlot: 4,
  intReturn: R.ax,
  floatReturn: ST0,
  clobbers: [R.ax, R.cx, R.dx, ...xmm(0, 8), ST0, FLAGS],
};

export function x86Conventions(bits: 32 | 64, platform: Platform): readonly CallingConvention[] {
  if (bits === 32) return [I386];
  return platform === 'windows' ? [MS_X64, SYSV_X64] : [SYSV_X64, MS_X64];
}
