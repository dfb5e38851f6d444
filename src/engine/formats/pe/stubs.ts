// Import thunks: mingw and MSVC emit `jmp [slot]` (`ff 25` + disp32; RIP-relative on x86-64, absolute on
// i386) for functions called without dllimport. We find them by the exact byte pattern whose computed target
// is an IAT slot; a disassembler would find no more, since the target check is what makes a match.
import type { ImportInfo } from '../image.js';
import { LIMITS } from './context.js';
import type { PeContext } from './context.js';
import type { PeHeaders } from './headers.js';

const JMP_INDIRECT = [0xff, 0x25] as const;
/** `jmp [rip+disp32]`: 2 opcode bytes + 4 displacement bytes. */
const THUNK_SIZE = 6;
/** REX.W before `ff 25` is MSVC's marker of a tail call through the IAT (an epilogue, not a thunk). */
const REX_W = 0x48;

/** Adds the address of every thunk to the `stubs` of the import whose slot it jumps through. */
export function findStubs(ctx: PeContext, h: PeHeaders, imports: ImportInfo[]): void {
  const bySlot = new Map<number, ImportInfo>();
  for (const imp of imports) if (!bySlot.has(imp.slot)) bySlot.set(imp.slot, imp);
  if (bySlot.size === 0) return;
  const v = ctx.v;
  let budget: number = LIMITS.stubScanBytes;
  for (const s of h.sections) {
    if (!s.exec || s.fileSize < THUNK_SIZE) continue;
    if (budget <= 0) {
      ctx.warn(`thunk scan stopped after ${LIMITS.stubScanBytes} bytes of executable sections`);
      return;
    }
    const length = Math.min(s.fileSize, budget);
    budget -= length;
    const code = v.bytes.subarray(s.fileOffset, s.fileOffset + length);
    const base = h.imageBase + s.rva;
    for (let i = code.indexOf(JMP_INDIRECT[0]); i >= 0 && i + THUNK_SIZE <= code.length;) {
      if (code[i + 1] === JMP_INDIRECT[1] && !(h.is64 && i > 0 && code[i - 1] === REX_W)) {
        const operand = v.u32(s.fileOffset + i + 2);
        const target = h.is64 ? base + i + THUNK_SIZE + (operand | 0) : operand;
        bySlot.get(target)?.stubs.push(base + i);
      }
      i = code.indexOf(JMP_INDIRECT[0], i + 1);
    }
  }
}
