// x86 and x86-64: everything the engine knows of them beyond the decoder (disasm/x86-decoder.ts).
import type { ClassTable } from './classes.js';
import type { Dialect } from './dialect.js';
import type { IsaProfile } from './profile.js';
import { X86_IR } from '../ir/x86/index.js';
import { I386_LINUX } from '../emulate/linux/i386.js';
import { X86_64_LINUX } from '../emulate/linux/x86-64.js';

// `mov`-family and ALU instructions with a memory operand are split by classifyInstruction into
// load/op/store tokens, so `add eax, [rbx]` reads like the RISC `ldr w1, [x1]; add w0, w0, w1`.
const CLASSES: ClassTable = [
  [/^(ret|iret|retf)/, 'ret'],
  [/^call/, 'call'],
  [/^jmp/, 'jump'],
  [/^(j|loop)/, 'branch'],
  [/^push/, 'store'],
  [/^pop/, 'load'],
  [/^(lock|xadd|cmpxchg|xchg)/, 'atomic'],
  [/^(cmov|set)/, 'select'],
  [/^(add|sub|mul|div|min|max|sqrt|ucomi|comi|cvt)s[sd]$|^cvt|^f/, 'fp'],
  [/^(p|v|movdq|movap|movup|movs[sd]$|movq$|movd$|shuf|unpck|and[n]?p|orp|xorp|movhp|movlp)/, 'simd'],
  [/^(movzx|movsx|movsxd|cdq|cqo|cdqe|cwde|cbw|cwd)$/, 'extend'],
  [/^(mov|movabs)$/, 'move'],
  [/^lea$/, 'address'],
  [/^(cmp|cmps|scas)/, 'compare'],
  [/^(test|bt)/, 'test'],
  [/^(add|adc|inc)$/, 'add'],
  [/^(sub|sbb|dec|neg)$/, 'sub'],
  [/^(imul|mul|mulx)$/, 'mul'],
  [/^(div|idiv)$/, 'div'],
  [/^(and|or|xor|not|andn)$/, 'logic'],
  [/^(sh|sa|ro|rc)[lr]x?d?$/, 'shift'],
  [/^(bsf|bsr|tzcnt|lzcnt|popcnt|bswap)$/, 'bit'],
  [/^(rep|stos|movs|lods)/, 'store'],
];

const DIALECT: Dialect = {
  family: 'x86',
  classes: CLASSES,
  frameAccess: /\[\s*[re]?(sp|bp)\b/,
  transfer: /^(j|call|loop)/,
  xor: /^(v?p?xor(p[sd])?)$/,
  transferClass: () => null,
  stackStrings: true,
  memoryOperands: true,
};

/**
 * Alignment padding: nop, int3, zero fill, multi-byte nops `[66]* [2e] 0f 1f /0`, `66 90`, and the
 * i386 assembler's `mov esi, esi` / `lea r, [r+0]` forms.
 */
function padding(b: Uint8Array, off: number): number {
  const at = (k: number) => b[off + k] ?? -1;
  const c = at(0);
  if (c === 0x90 || c === 0xcc || c === 0x00) return 1;
  let k = 0;
  while (at(k) === 0x66) k++;
  if (at(k) === 0x2e) k++;
  if (k > 0 && at(k) === 0x90) return k + 1;
  const lea = leaNop(at);
  if (lea > 0) return lea;
  if (at(k) === 0x0f && at(k + 1) === 0x1f) {
    const modrm = at(k + 2);
    const mod = modrm >> 6;
    const rm = modrm & 7;
    let len = k + 3;
    if (mod !== 3 && rm === 4) len++; // SIB
    if (mod === 1) len += 1;
    else if (mod === 2 || (mod === 0 && rm === 5)) len += 4;
    return len;
  }
  return 0;
}

/**
 * The i386 assembler's padding: `mov esi, esi` (89 f6) and `lea r, [r+0]` with an 8- or 32-bit zero
 * displacement, optionally through a SIB byte with no index (8d 74 26 00, 8d b4 26 00 00 00 00,
 * 8d bc 27 00 00 00 00, 8d 76 00 …). Returns its length, or 0.
 */
function leaNop(at: (k: number) => number): number {
  const op = at(0);
  const modrm = at(1);
  if (modrm < 0) return 0;
  const mod = modrm >> 6;
  const reg = (modrm >> 3) & 7;
  const rm = modrm & 7;
  if ((op === 0x89 || op === 0x8b) && mod === 3 && reg === rm) return 2;
  if (op !== 0x8d || (mod !== 1 && mod !== 2)) return 0;
  let len = 2;
  if (rm === 4) {
    const sib = at(2);
    if ((sib & 7) !== reg || ((sib >> 3) & 7) !== 4) return 0;
    len = 3;
  } else if (rm !== reg) return 0;
  const disp = mod === 1 ? 1 : 4;
  for (let k = 0; k < disp; k++) if (at(len + k) !== 0) return 0;
  return len + disp;
}

const X86_COMMON = {
  thumb: false,
  step: 1,
  // The decoders form whole addresses themselves: no register pairs to forget at a call.
  callClobbers: 0,
  padding,
  switchTables: 'x86',
  globalPointer: false,
  dialect: DIALECT,
} as const;

/**
 * 32-bit Windows reads its PEB at fs:[0x30], 64-bit at gs:[0x60]. Only that pairing: in 64-bit code fs is
 * the thread pointer of Linux and the BSDs, and glibc keeps its pointer guard at fs:[0x30].
 */
export const X86: IsaProfile = {
  ...X86_COMMON,
  architecture: 'x86',
  modeFor: () => 'x86',
  pebAccess: /\bfs:\[(0x)?30\]/,
  ir: X86_IR,
  emulator: I386_LINUX,
  names: { model: 'x86-32', capa: 'i386' },
};

export const X86_64: IsaProfile = {
  ...X86_COMMON,
  architecture: 'x86_64',
  modeFor: () => 'x86_64',
  pebAccess: /\bgs:\[(0x)?60\]/,
  ir: X86_IR,
  emulator: X86_64_LINUX,
  names: { model: 'x86-64', capa: 'amd64' },
};
