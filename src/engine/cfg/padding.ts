import type { Architecture } from '../../contracts/result.js';

/**
 * Length of the alignment padding at `off` (0 when the bytes are not padding). Compilers and linkers fill
 * the space between functions with these; gap scanning skips them before looking for a function start.
 */
export function paddingLength(arch: Architecture, b: Uint8Array, off: number): number {
  const at = (k: number) => b[off + k] ?? -1;
  switch (arch) {
    case 'x86':
    case 'x86_64': {
      const c = at(0);
      if (c === 0x90 || c === 0xcc || c === 0x00) return 1;
      // Multi-byte nops: [66]* [2e] 0f 1f /0 modrm…, and 66 90 (xchg ax,ax).
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
    case 'arm64':
      if (word(b, off) === 0xd503201f || word(b, off) === 0) return 4; // nop, zero fill
      return 0;
    case 'arm': {
      const h = at(0) | (at(1) << 8);
      if (h === 0xbf00 || h === 0x46c0 || h === 0) return 2; // Thumb nop, mov r8,r8, zero fill
      // nop.w (f3af 8000): gas pads Thumb-2 code to an 8-byte boundary with it before a literal pool.
      if (h === 0xf3af && (at(2) | (at(3) << 8)) === 0x8000) return 4;
      return 0;
    }
    case 'mips':
      return word(b, off) === 0 ? 4 : 0;
    default:
      return 0;
  }
}

const word = (b: Uint8Array, off: number) =>
  off + 4 <= b.length ? (b[off]! | (b[off + 1]! << 8) | (b[off + 2]! << 16) | (b[off + 3]! << 24)) >>> 0 : -1;

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
