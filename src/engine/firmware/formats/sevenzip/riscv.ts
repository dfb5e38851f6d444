// The RISC-V branch converter (7z method 0B, the same filter as xz's 0x0B), undone in place. The encoder made
// two kinds of pc-relative operand absolute: JAL with rd = x1 or x5 (its 20-bit immediate stored as plain
// bits of the address), and an AUIPC followed by a 32-bit instruction whose rs1 is the AUIPC's rd. Such a
// pair is stored as an AUIPC with rd = x2 carrying the second instruction's low 20 bits, then the absolute
// address big-endian; an input that already looked like that was stored as a "fake" pair, swapped back here.
// Instructions are 2-byte aligned (the C extension); the last 7 bytes are never converted. Positions count
// from `start` (the filter's optional 32-bit start-offset property).

const JAL = 0xef;
const AUIPC = 0x17;

const le32 = (b: Uint8Array, i: number) => (b[i]! | (b[i + 1]! << 8) | (b[i + 2]! << 16) | (b[i + 3]! << 24)) >>> 0;
const be32 = (b: Uint8Array, i: number) => ((b[i]! << 24) | (b[i + 1]! << 16) | (b[i + 2]! << 8) | b[i + 3]!) >>> 0;

function setLe32(b: Uint8Array, i: number, v: number): void {
  b[i] = v;
  b[i + 1] = v >>> 8;
  b[i + 2] = v >>> 16;
  b[i + 3] = v >>> 24;
}

/** Whether `inst2` can pair with `auipc`: its rs1 bits equal the AUIPC's rd, and it is not compressed. */
const isPair = (auipc: number, inst2: number) => (((auipc << 8) ^ (inst2 - 3)) & 0xf8003 ? false : true);

export function riscvDecode(data: Uint8Array, start: number): void {
  for (let i = 0; i + 8 <= data.length; i += 2) {
    const b0 = data[i]!;
    if (b0 === JAL) {
      const b1 = data[i + 1]!;
      if (b1 & 0x0d) continue;
      const addr = ((((b1 & 0xf0) << 13) | (data[i + 2]! << 9) | (data[i + 3]! << 1)) - start - i) >>> 0;
      data[i + 1] = (b1 & 0x0f) | ((addr >>> 8) & 0xf0);
      data[i + 2] = ((addr >>> 16) & 0x0f) | ((addr >>> 7) & 0x10) | ((addr << 4) & 0xe0);
      data[i + 3] = ((addr >>> 4) & 0x7f) | ((addr >>> 13) & 0x80);
      i += 2;
      continue;
    }
    if ((b0 & 0x7f) !== AUIPC) continue;
    let inst = le32(data, i);
    let inst2: number;
    if (inst & 0xe80) {
      // rd is neither x0 nor x2: a pair here is a "fake" one the encoder stored as is, swapped back.
      inst2 = le32(data, i + 4);
      if (!isPair(inst, inst2)) {
        i += 4;
        continue;
      }
      const addr = ((inst & 0xfffff000) + (inst2 >>> 20)) >>> 0;
      inst = (AUIPC | (2 << 7) | (inst2 << 12)) >>> 0;
      inst2 = addr;
    } else {
      // rd = x2 with the pair's low opcode bits set and rs1 not x0 or x2: a converted pair.
      const rs1 = inst >>> 27;
      if (((inst - 0x3117) << 18) >>> 0 >= (rs1 & 0x1d)) {
        i += 2;
        continue;
      }
      const addr = (be32(data, i + 4) - start - i) >>> 0;
      inst2 = ((inst >>> 12) | (addr << 20)) >>> 0;
      inst = (AUIPC | (rs1 << 7) | ((addr + 0x800) & 0xfffff000)) >>> 0;
    }
    setLe32(data, i, inst);
    setLe32(data, i + 4, inst2);
    i += 6;
  }
}
