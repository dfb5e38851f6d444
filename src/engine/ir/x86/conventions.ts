// Calling conventions of x86-64 (System V, Microsoft x64) and i386 (cdecl; stdcall shows as `ret n`,
// fastcall and thiscall pass the first arguments in ecx/edx), in the IR's register numbers.
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

const I386_CLOBBERS = [R.ax, R.cx, R.dx, ...xmm(0, 8), ST0, FLAGS];

export const CDECL: CallingConvention = {
  name: 'cdecl',
  intArgs: [],
  floatArgs: [],
  positional: false,
  stackArgsAt: 4,
  stackSlot: 4,
  intReturn: R.ax,
  floatReturn: ST0,
  clobbers: I386_CLOBBERS,
};

export const FASTCALL: CallingConvention = { ...CDECL, name: 'fastcall', intArgs: [R.cx, R.dx] };
export const THISCALL: CallingConvention = { ...CDECL, name: 'thiscall', intArgs: [R.cx] };

export function x86Conventions(bits: 32 | 64, platform: Platform): readonly CallingConvention[] {
  if (bits === 32) return [CDECL, FASTCALL, THISCALL];
  return platform === 'windows' ? [MS_X64, SYSV_X64] : [SYSV_X64, MS_X64];
}
