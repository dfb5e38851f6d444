// Small real binaries built in memory for API tests (headers only, or a little real code).
import { seededRandom } from '../../src/shared/seeded-random.js';
import { buildElf } from './engine/elf.js';

/** A minimal ELF64 little-endian x86-64 executable header with one PT_LOAD at 0x400000. */
export function elf64(tag = 0): Buffer {
  const b = Buffer.alloc(0x200);
  b.write('\x7fELF', 0, 'latin1');
  b[4] = 2; // 64-bit
  b[5] = 1; // little endian
  b[6] = 1;
  b.writeUInt16LE(2, 16); // ET_EXEC
  b.writeUInt16LE(62, 18); // x86-64
  b.writeUInt32LE(1, 20);
  b.writeBigUInt64LE(0x401000n, 24); // entry
  b.writeBigUInt64LE(64n, 32); // phoff
  b.writeUInt16LE(64, 52); // ehsize
  b.writeUInt16LE(56, 54); // phentsize
  b.writeUInt16LE(1, 56); // phnum
  b.writeUInt32LE(1, 64); // PT_LOAD
  b.writeUInt32LE(5, 68);
  b.writeBigUInt64LE(0x400000n, 80); // vaddr
  b.writeUInt32LE(tag, 0x1f0); // makes distinct samples distinct
  return b;
}

/** ELF header of a machine the engine has no decoder for, so no model covers it (PowerPC, big endian). */
export function elfPowerPc(): Buffer {
  const b = Buffer.alloc(0x100);
  b.write('\x7fELF', 0, 'latin1');
  b[4] = 1;
  b[5] = 2;
  b[6] = 1;
  b.writeUInt16BE(2, 16);
  b.writeUInt16BE(20, 18); // EM_PPC
  b.writeUInt32BE(1, 20);
  b.writeUInt16BE(52, 40);
  return b;
}

/** Bytes that are no known format. */
export const rawBlob = (n = 4096) => Buffer.alloc(n, 0x90);

/**
 * `n` bytes of seeded noise. Analysed as raw x86-64 (binary_config) 1 MB decodes into ~9 000 junk functions:
 * ~3 s and more than 32 MiB of heap on the shared 2-core machine.
 */
export function noise(n: number, seed = 1): Buffer {
  const next = seededRandom(seed);
  return Buffer.from(Uint8Array.from({ length: n }, () => Math.floor(next() * 256)));
}

/**
 * An x86-64 ELF executable with four functions whose data types the types stage recovers, hand-assembled (no
 * symbols, so they are named sub_<hex>):
 *   0x11000 int32_t f(int32_t a1, int32_t *a2)  — `*p = a; return a + 1;`
 *   0x11006 int32_t g(void)                     — the entry: `return f(5, &local) * 2;`
 *   0x11020 int32_t h(int32_t a1)               — a frame: the argument spilled to var_c at -0xc
 *   0x1102c int32_t k(struct s_1102c_1 *a1)     — `return p->f_0 + p->f_8;`: a structure from its accesses
 */
export const TYPED = { f: 0x11000, g: 0x11006, h: 0x11020, k: 0x1102c };

export function typedProgram(tag = 0): Buffer {
  const code = [
    ...[0x89, 0x3e, 0x8d, 0x47, 0x01, 0xc3], // mov [rsi], edi; lea eax, [rdi+1]; ret
    ...[0x48, 0x83, 0xec, 0x18, 0x48, 0x8d, 0x74, 0x24, 0x0c], // sub rsp, 0x18; lea rsi, [rsp+0xc]
    ...[0xbf, 0x05, 0x00, 0x00, 0x00, 0xe8, 0xe7, 0xff, 0xff, 0xff], // mov edi, 5; call 0x11000
    ...[0x01, 0xc0, 0x48, 0x83, 0xc4, 0x18, 0xc3], // add eax, eax; add rsp, 0x18; ret
    ...[0x55, 0x48, 0x89, 0xe5, 0x89, 0x7d, 0xfc], // push rbp; mov rbp, rsp; mov [rbp-4], edi
    ...[0x8b, 0x45, 0xfc, 0x5d, 0xc3], // mov eax, [rbp-4]; pop rbp; ret
    ...[0x8b, 0x07, 0x03, 0x47, 0x08, 0xc3], // mov eax, [rdi]; add eax, [rdi+8]; ret
  ];
  const elf = buildElf({
    bits: 64,
    little: true,
    machine: 62,
    type: 2,
    entry: TYPED.g,
    sections: [{ name: '.text', type: 1, flags: 6, addr: TYPED.f, data: Uint8Array.from(code) }],
  });
  // A trailing tag makes distinct samples of the same program (past everything the parser reads).
  return Buffer.concat([Buffer.from(elf), Buffer.from([tag & 0xff])]);
}
