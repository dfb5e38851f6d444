// Entry points: LC_MAIN (entryoff is a file offset into __TEXT), LC_UNIXTHREAD (the initial PC in the thread
// state), initializer and terminator pointer sections, and exported functions.
import type { EntryPoint } from '../image.js';
import { LIMITS } from './context.js';
import type { MachOContext } from './context.js';
import type { Commands, Section, Segment } from './load-commands.js';

const S_MOD_INIT_FUNC_POINTERS = 0x9;
const S_MOD_TERM_FUNC_POINTERS = 0xa;
/** 32-bit offsets from the image start (__TEXT), what ld64 emits instead of pointers for chained fixups. */
const S_INIT_FUNC_OFFSETS = 0x16;

/** Where each CPU's thread state keeps the PC: [cputype, flavor, byte offset in the state, width]. */
const THREAD_PC: readonly [number, number, number, 4 | 8][] = [
  [7, 1, 10 * 4, 4], // x86_THREAD_STATE32: eax … eflags, eip
  [0x01000007, 4, 16 * 8, 8], // x86_THREAD_STATE64: rax … r15, rip
  [12, 1, 15 * 4, 4], // ARM_THREAD_STATE: r0 … r12, sp, lr, pc
  [0x0100000c, 6, 32 * 8, 8], // ARM_THREAD_STATE64: x0 … x28, fp, lr, sp, pc
  [18, 1, 0, 4], // PPC_THREAD_STATE: srr0 first
  [0x01000012, 5, 0, 8], // PPC_THREAD_STATE64
];

/** The __TEXT segment (or, lacking the name, the one mapping file offset 0): base of entryoff and offsets. */
export function textSegment(cmds: Commands): Segment | undefined {
  return cmds.segments.find((s) => s.name === '__TEXT') ?? cmds.segments.find((s) => s.fileoff === 0 && s.filesize > 0);
}

export function mainEntry(ctx: MachOContext, cmds: Commands): number | null {
  const text = textSegment(cmds);
  if (cmds.mainEntryoff !== null) {
    if (!text) {
      ctx.warn('LC_MAIN without a __TEXT segment');
      return null;
    }
    if (cmds.mainEntryoff < text.fileoff || cmds.mainEntryoff >= text.fileoff + text.filesize) {
      ctx.warn(`LC_MAIN entryoff 0x${cmds.mainEntryoff.toString(16)} lies outside __TEXT`);
      return null;
    }
    return text.vmaddr + cmds.mainEntryoff - text.fileoff;
  }
  const t = cmds.thread;
  if (!t) return null;
  const layout = THREAD_PC.find(([cpu, flavor]) => cpu === cmds.header.cputype && flavor === t.flavor);
  if (!layout || layout[2] + layout[3] > t.size) {
    ctx.warn(`LC_UNIXTHREAD flavor ${t.flavor} not understood for this CPU`);
    return null;
  }
  return ctx.word(t.state + layout[2], layout[3] === 8);
}

/** Initializers ('init') and terminators ('fini'); values that land outside code are reported, not kept. */
export function initializers(ctx: MachOContext, cmds: Commands, isCode: (va: number) => boolean): EntryPoint[] {
  const out: EntryPoint[] = [];
  const ptr = cmds.header.is64 ? 8 : 4;
  const textBase = textSegment(cmds)?.vmaddr ?? 0;
  let budget: number = LIMITS.initPointers;
  let stray = 0;
  const read = (s: Section, stride: number, value: (at: number) => number, kind: EntryPoint['kind']): void => {
    const count = Math.min(Math.floor(s.fileSize / stride), budget);
    budget -= count;
    for (let i = 0; i < count; i++) {
      const target = value(s.offset + i * stride);
      if (isCode(target)) out.push({ vaddr: target, kind });
      else stray++;
    }
  };
  for (const s of cmds.sections) {
    if (s.type === S_MOD_INIT_FUNC_POINTERS) read(s, ptr, (at) => ctx.word(at, ptr === 8), 'init');
    else if (s.type === S_MOD_TERM_FUNC_POINTERS) read(s, ptr, (at) => ctx.word(at, ptr === 8), 'fini');
    else if (s.type === S_INIT_FUNC_OFFSETS) read(s, 4, (at) => textBase + ctx.v.u32(at), 'init');
  }
  if (budget === 0) ctx.warn(`initializer pointers capped at ${LIMITS.initPointers}`);
  // Chained-fixup images store encoded fixups in these slots rather than addresses.
  if (stray > 0) ctx.warn(`${stray} initializer/terminator pointers do not point into code (chained fixups?)`);
  return out;
}
