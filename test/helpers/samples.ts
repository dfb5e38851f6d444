// Small real binaries built in memory for API tests (headers only; enough for identification).
import { seededRandom } from '../../src/shared/seeded-random.js';

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
