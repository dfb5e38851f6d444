// Test-only builder of a runnable PE32+ executable: code at 0x140001000 that calls imported APIs through
// their IAT slots, a writable data page at 0x140003000, nothing else. Hostile and bounds tests of the
// Windows emulator write their programs with it (no Windows compiler needed).
import { ByteWriter } from './formats.js';

export const PE_BASE = 0x1_4000_0000;
export const PE_TEXT = PE_BASE + 0x1000;
export const PE_DATA = PE_BASE + 0x3000;
const IDATA = 0x2000;

/** Assembles the code, given the address of each import's IAT slot by name. */
export type PeCode = (slot: (name: string) => number) => Uint8Array;

/** `call [rip+slot]` at `at` (x86-64), or `call [slot]` (x86, absolute): six bytes. */
export const callSlot = (at: number, slot: number, bits: 32 | 64 = 64): number[] => {
  const d = bits === 64 ? slot - (at + 6) : slot;
  return [0xff, 0x15, d & 0xff, (d >> 8) & 0xff, (d >> 16) & 0xff, (d >>> 24) & 0xff];
};

/** A 32-bit program's image base (its code at 0x401000, data at 0x403000). */
export const PE32_BASE = 0x40_0000;

export function peProgram(imports: Record<string, string[]>, code: PeCode, bits: 32 | 64 = 64): Uint8Array {
  const is64 = bits === 64;
  const base = is64 ? PE_BASE : PE32_BASE;
  const ptr = is64 ? 8 : 4;
  const w = new ByteWriter(0x4000);
  // Headers: DOS stub pointer, COFF (AMD64 or i386, 3 sections, executable), optional header PE32+ or PE32.
  const optSize = is64 ? 240 : 224;
  w.ascii(0, 'MZ').u32(0x3c, 0x80).ascii(0x80, 'PE\0\0');
  w.u16(0x84, is64 ? 0x8664 : 0x14c)
    .u16(0x86, 3)
    .u16(0x94, optSize)
    .u16(0x96, is64 ? 0x22 : 0x102);
  const opt = 0x98;
  w.u16(opt, is64 ? 0x20b : 0x10b)
    .u32(opt + 16, 0x1000)
    .u32(opt + 32, 0x1000)
    .u32(opt + 36, 0x200);
  if (is64) w.u64(opt + 24, base);
  else w.u32(opt + 28, base);
  w.u32(opt + 56, 0x4000)
    .u32(opt + 60, 0x400)
    .u16(opt + 68, 3)
    .u32(opt + (is64 ? 108 : 92), 16);
  const dirs = opt + (is64 ? 112 : 96);
  // Import descriptors, lookup tables, IAT and names in .idata.
  const slots = new Map<string, number>();
  let lookup = IDATA + 0x100;
  let names = IDATA + 0x800;
  Object.entries(imports).forEach(([dll, fns], d) => {
    const desc = IDATA + d * 20;
    const first = lookup;
    for (const fn of fns) {
      w.u16(names, 0).ascii(names + 2, fn);
      w.word(lookup, names, is64).word(lookup + 0x300, names, is64);
      slots.set(fn, base + lookup + 0x300);
      names += (fn.length + 4) & ~1;
      lookup += ptr;
    }
    lookup += ptr;
    w.ascii(names, dll);
    w.u32(desc, first)
      .u32(desc + 12, names)
      .u32(desc + 16, first + 0x300);
    names += (dll.length + 2) & ~1;
  });
  w.u32(dirs + 8, IDATA).u32(dirs + 12, 20 * (Object.keys(imports).length + 1));
  const text = code((name) => slots.get(name) ?? 0);
  w.bytes.set(text, 0x1000);
  const sections: [string, number, number][] = [
    ['.text', 0x1000, 0x60000020],
    ['.idata', IDATA, 0xc0000040],
    ['.data', 0x3000, 0xc0000040],
  ];
  sections.forEach(([name, rva, flags], i) => {
    const at = opt + optSize + i * 40;
    w.ascii(at, name)
      .u32(at + 8, 0x1000)
      .u32(at + 12, rva)
      .u32(at + 16, 0x1000)
      .u32(at + 20, rva)
      .u32(at + 36, flags);
  });
  return w.bytes;
}

/** An argument of an API call in a script: a number, a string (its address), a data-page address or value. */
export type Arg = number | bigint | string | { at: number } | { load: number };

/** One step of a script: an API call (its result kept at a data-page offset), forever when `forever`. */
export interface Step {
  api: string;
  args: Arg[];
  keep?: number;
  forever?: boolean;
}

const le64 = (v: bigint) =>
  Array.from({ length: 8 }, (_, i) => Number((BigInt.asUintN(64, v) >> BigInt(8 * i)) & 0xffn));
/** movabs into rcx, rdx, r8, r9 (argument registers) and rax. */
const MOVABS = [
  [0x48, 0xb9],
  [0x48, 0xba],
  [0x49, 0xb8],
  [0x49, 0xb9],
];
/** mov reg, [rax] for the same registers. */
const LOAD = [
  [0x48, 0x8b, 0x08],
  [0x48, 0x8b, 0x10],
  [0x4c, 0x8b, 0x00],
  [0x4c, 0x8b, 0x08],
];

/**
 * A PE32+ program that makes `steps`' API calls in order (Microsoft x64 convention) and then calls
 * ExitProcess(`exit`). Strings go after the code; `{ at }` is an address in the data page, `{ load }` the
 * pointer-sized value there (a handle an earlier call wrote, or a result kept).
 */
export function pe64Script(imports: Record<string, string[]>, steps: Step[], exit: Arg = 0): Uint8Array {
  const all = { ...imports, 'kernel32.dll': [...new Set([...(imports['kernel32.dll'] ?? []), 'ExitProcess'])] };
  return peProgram(all, (slot) => {
    // Two passes: the first finds where the strings go (code length does not depend on their addresses).
    const assemble = (stringsAt: number) => {
      const code: number[] = [0x48, 0x83, 0xec, 0x68];
      const strings: number[] = [];
      const value = (a: Arg): bigint | { load: number } => {
        if (typeof a === 'number' || typeof a === 'bigint') return BigInt(a);
        if (typeof a === 'string') {
          const at = stringsAt + strings.length;
          strings.push(...Buffer.from(`${a}\0`, 'latin1'));
          return BigInt(at);
        }
        return 'at' in a ? BigInt(PE_DATA + a.at) : a;
      };
      const emit = (step: Step) => {
        const start = code.length;
        step.args.forEach((a, i) => {
          const v = value(a);
          const literal = typeof v === 'bigint';
          if (i < 4 && literal) code.push(...MOVABS[i]!, ...le64(v));
          else if (i < 4 && !literal) code.push(0x48, 0xb8, ...le64(BigInt(PE_DATA + v.load)), ...LOAD[i]!);
          else {
            code.push(0x48, 0xb8, ...le64(literal ? v : BigInt(PE_DATA + v.load)));
            if (!literal) code.push(0x48, 0x8b, 0x00);
            code.push(0x48, 0x89, 0x44, 0x24, 0x20 + 8 * (i - 4));
          }
        });
        code.push(...callSlot(PE_TEXT + code.length, slot(step.api)));
        if (step.keep !== undefined) code.push(0x49, 0xba, ...le64(BigInt(PE_DATA + step.keep)), 0x49, 0x89, 0x02);
        if (step.forever) {
          const back = start - (code.length + 5);
          code.push(0xe9, ...le64(BigInt(back)).slice(0, 4));
        }
      };
      steps.forEach(emit);
      emit({ api: 'ExitProcess', args: [exit] });
      return { code, strings };
    };
    const first = assemble(0);
    const { code, strings } = assemble(PE_TEXT + first.code.length);
    return Uint8Array.from([...code, ...strings]);
  });
}
