// The system DLLs as a program that walks its own process finds them (shellcode resolving its imports by
// hand does): each DLL a small image at its base — headers and an export directory whose functions are the
// API thunks — and the PEB's loader lists naming the executable, then ntdll, kernel32 and the rest, in the
// order Windows loads them.
import type { PeLoadPlan } from '../../formats/index.js';
import { UC } from '../unicorn.js';
import { apiTable } from './apis/index.js';
import type { WinSystem } from './system.js';

/** Where the export directory starts in a DLL image (after the headers). */
const EXPORTS = 0x200;
/** Windows loads these first, in this order; the rest follow. */
const FIRST = ['ntdll.dll', 'kernel32.dll', 'kernelbase.dll'];

/** The DLLs' images, and the loader data the PEB points at. */
export function mapModules(
  sys: WinSystem,
  plan: PeLoadPlan,
  thunkOf: (dll: string, name: string) => bigint | null,
): void {
  const dlls = [
    ...FIRST.filter((d) => sys.modules.has(d)),
    ...[...sys.modules.keys()].filter((d) => !FIRST.includes(d)),
  ];
  const entries = [
    {
      name: sys.imagePath.split('\\').pop()!,
      path: sys.imagePath,
      base: sys.imageBase,
      size: plan.sizeOfImage,
      entry: plan.entry,
    },
    ...dlls.map((dll) => {
      const base = sys.modules.get(dll)!;
      return {
        name: dll,
        path: `C:\\Windows\\System32\\${dll}`,
        base,
        size: dllImage(sys, dll, base, thunkOf),
        entry: 0,
      };
    }),
  ];
  loaderLists(sys, entries);
}

/** Maps `dll`'s image at `base`: headers and its functions exported in name order. Returns its size. */
function dllImage(
  sys: WinSystem,
  dll: string,
  base: bigint,
  thunkOf: (dll: string, name: string) => bigint | null,
): number {
  const names = Object.entries(apiTable(dll) ?? {})
    .filter(([, api]) => 'run' in api)
    .map(([name]) => name)
    .sort();
  const is64 = sys.abi.pointer === 8;
  const n = names.length;
  const functions = EXPORTS + 40;
  const nameTable = functions + 4 * n;
  const ordinals = nameTable + 4 * n;
  let strings = ordinals + 2 * n;
  const text: [number, string][] = [];
  const put = (s: string) => {
    text.push([strings, s]);
    const at = strings;
    strings += s.length + 1;
    return at;
  };
  const dllName = put(dll);
  const nameRvas = names.map(put);
  const size = (strings + 0xfff) & ~0xfff;
  const image = new Uint8Array(size);
  const v = new DataView(image.buffer);
  // DOS header → PE header: machine, no sections, a DLL; the optional header's base, size and export directory.
  image.set([0x4d, 0x5a]);
  v.setUint32(0x3c, 0x40, true);
  image.set([0x50, 0x45, 0, 0], 0x40);
  v.setUint16(0x44, is64 ? 0x8664 : 0x14c, true);
  v.setUint16(0x54, is64 ? 240 : 224, true);
  v.setUint16(0x56, 0x2102, true);
  const opt = 0x58;
  v.setUint16(opt, is64 ? 0x20b : 0x10b, true);
  if (is64) v.setBigUint64(opt + 24, base, true);
  else v.setUint32(opt + 28, Number(base), true);
  v.setUint32(opt + 56, size, true);
  v.setUint32(opt + (is64 ? 108 : 92), 16, true);
  v.setUint32(opt + (is64 ? 112 : 96), EXPORTS, true);
  v.setUint32(opt + (is64 ? 116 : 100), strings - EXPORTS, true);
  // IMAGE_EXPORT_DIRECTORY: name, ordinal base 1, the counts and the three tables.
  v.setUint32(EXPORTS + 12, dllName, true);
  v.setUint32(EXPORTS + 16, 1, true);
  v.setUint32(EXPORTS + 20, n, true);
  v.setUint32(EXPORTS + 24, n, true);
  v.setUint32(EXPORTS + 28, functions, true);
  v.setUint32(EXPORTS + 32, nameTable, true);
  v.setUint32(EXPORTS + 36, ordinals, true);
  names.forEach((name, i) => {
    // The thunks lie above the images, within 4 GiB: an export's RVA reaches its thunk.
    v.setUint32(functions + 4 * i, Number((thunkOf(dll, name) ?? base) - base), true);
    v.setUint32(nameTable + 4 * i, nameRvas[i]!, true);
    v.setUint16(ordinals + 2 * i, i, true);
  });
  for (const [at, s] of text) image.set(Buffer.from(s, 'latin1'), at);
  sys.memory.map(base, size, UC.prot.read);
  sys.cpu.write(base, image);
  return size;
}

/**
 * PEB_LDR_DATA and one LDR_DATA_TABLE_ENTRY per module, on the heap: the load-order and memory-order lists
 * hold every module, the initialization-order list the DLLs. Offsets are in words of the pointer's size.
 */
function loaderLists(
  sys: WinSystem,
  modules: { name: string; path: string; base: bigint; size: number; entry: number }[],
): void {
  const w = BigInt(sys.abi.pointer);
  const ldr = sys.alloc('loader', 0x60);
  const unicode = (at: bigint, text: string) => {
    sys.writeInt(at, text.length * 2, 2);
    sys.writeInt(at + 2n, text.length * 2 + 2, 2);
    sys.writePointer(at + w, sys.heapString(text, true));
  };
  const entries = modules.map((m) => {
    const at = sys.alloc('loader', 0x100);
    sys.writePointer(at + 6n * w, m.base);
    sys.writePointer(at + 7n * w, m.entry ? BigInt(m.entry) : 0n);
    sys.writeInt(at + 8n * w, m.size, 4);
    unicode(at + 9n * w, m.path);
    unicode(at + 11n * w, m.name);
    return at;
  });
  // PEB_LDR_DATA: its length, initialized, a handle, then the three list heads.
  sys.writeInt(ldr, w === 8n ? 0x58 : 0x30, 4);
  sys.writeInt(ldr + 4n, 1, 1);
  const head = (list: number) => ldr + (w === 8n ? 0x10n : 0xcn) + BigInt(list) * 2n * w;
  [entries, entries, entries.slice(1)].forEach((members, list) => {
    const links = [head(list), ...members.map((e) => e + BigInt(list) * 2n * w)];
    links.forEach((link, i) => {
      sys.writePointer(link, links[(i + 1) % links.length]!);
      sys.writePointer(link + w, links[(i + links.length - 1) % links.length]!);
    });
  });
  sys.writePointer(sys.peb + (w === 8n ? 0x18n : 0x0cn), ldr);
}
