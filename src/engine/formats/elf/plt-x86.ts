// PLT stub patterns of x86-64 and i386: a tiny pattern decoder, not a disassembler. It walks [start, end)
// of the file and reports (stub address, GOT slot the stub jumps through).
import type { CodeBytes, StubSink } from './code-bytes.js';

const TWO_32 = 0x1_0000_0000;

/**
 * x86-64 and i386: `jmp *slot` with optional endbr64/endbr32 before it and an optional bnd (f2) prefix:
 *   ff 25 disp32   x86-64: slot = next rip + disp32; i386 non-PIC: slot = abs32
 *   ff a3 disp32   i386 PIC: slot = %ebx (the GOT base, .got.plt) + disp32
 * A match skips past the jump, so a displacement's bytes are never read as a second stub.
 */
export function scanX86(
  code: CodeBytes,
  start: number,
  end: number,
  vaddr: number,
  is64: boolean,
  gotBase: number | null,
  sink: StubSink,
): void {
  const b = code.bytes;
  for (let i = start; i + 6 <= end;) {
    let p = i;
    if (b[p] === 0xf3 && b[p + 1] === 0x0f && b[p + 2] === 0x1e && (b[p + 3] === 0xfa || b[p + 3] === 0xfb)) p += 4;
    if (b[p] === 0xf2) p++;
    if (p + 6 > end || b[p] !== 0xff) {
      i++;
      continue;
    }
    const modrm = b[p + 1];
    const disp = code.i32(p + 2);
    let slot: number | null = null;
    if (modrm === 0x25) slot = is64 ? vaddr + (p + 6 - start) + disp : (disp + TWO_32) % TWO_32;
    else if (modrm === 0xa3 && !is64 && gotBase !== null) slot = (gotBase + disp + TWO_32) % TWO_32;
    if (slot === null) {
      i++;
      continue;
    }
    sink(vaddr + (i - start), slot);
    i = p + 6;
  }
}
