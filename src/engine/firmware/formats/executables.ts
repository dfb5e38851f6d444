// Executables carved from raw ranges (a kernel's embedded initramfs, a flash dump, a self-extractor): ELF,
// PE and Mach-O, each with the extent its headers give — the furthest byte any header, section, segment or
// signature claims — so the carved file is the executable and nothing after it.
import { ByteView } from '../../formats/byte-view.js';
import type { FirmwareFormat, Probed } from '../format.js';

/** Counts read from headers: a real executable has far fewer sections, segments or load commands. */
const MAX_TABLE = 4096;

/** The extent of the ELF at 0 of `v`, or null when its headers do not hang together. */
function elfExtent(v: ByteView): number | null {
  const cls = v.u8(4);
  const order = v.u8(5);
  if ((cls !== 1 && cls !== 2) || (order !== 1 && order !== 2) || v.u8(6) !== 1) return null;
  const e = new ByteView(v.bytes, order === 1);
  const is64 = cls === 2;
  const w = (at: number) => e.word(at, is64);
  const phoff = w(is64 ? 32 : 28);
  const shoff = w(is64 ? 40 : 32);
  const base = is64 ? 52 : 40;
  const [ehsize, phentsize, phnum, shentsize, shnum] = [0, 2, 4, 6, 8].map((d) => e.u16(base + d)) as [
    number,
    number,
    number,
    number,
    number,
  ];
  if (e.u32(20) !== 1 || ehsize !== (is64 ? 64 : 52) || phnum > MAX_TABLE || shnum > MAX_TABLE) return null;
  if ((phnum && phentsize !== (is64 ? 56 : 32)) || (shnum && shentsize !== (is64 ? 64 : 40))) return null;
  let end = ehsize;
  if (phnum) {
    if (!e.has(phoff, phnum * phentsize)) return null;
    end = Math.max(end, phoff + phnum * phentsize);
    for (let i = 0; i < phnum; i++) {
      const p = phoff + i * phentsize;
      end = Math.max(end, w(p + (is64 ? 8 : 4)) + w(p + (is64 ? 32 : 16)));
    }
  }
  if (shnum) {
    end = Math.max(end, shoff + shnum * shentsize);
    if (e.has(shoff, shnum * shentsize))
      for (let i = 0; i < shnum; i++) {
        const s = shoff + i * shentsize;
        const NOBITS = 8;
        if (e.u32(s + 4) !== NOBITS) end = Math.max(end, w(s + (is64 ? 24 : 16)) + w(s + (is64 ? 32 : 20)));
      }
  }
  return end <= v.length ? end : null;
}

/** The extent of the PE at 0 of `v`: headers, every section's raw data, and the certificate table. */
function peExtent(v: ByteView): number | null {
  const pe = v.u32(0x3c);
  if (pe < 0x40 || !v.has(pe, 24) || v.u32(pe) !== 0x00004550) return null;
  const sections = v.u16(pe + 6);
  const optSize = v.u16(pe + 20);
  const opt = pe + 24;
  const magic = v.u16(opt);
  if ((magic !== 0x10b && magic !== 0x20b) || sections === 0 || sections > 96) return null;
  const table = opt + optSize;
  if (!v.has(table, sections * 40)) return null;
  let end = Math.max(v.u32(opt + 60), table + sections * 40);
  for (let i = 0; i < sections; i++) {
    const s = table + i * 40;
    if (v.u32(s + 16)) end = Math.max(end, v.u32(s + 20) + v.u32(s + 16));
  }
  // The certificate table's "RVA" is a file offset; it sits after the sections.
  const security = opt + (magic === 0x20b ? 112 : 96) + 4 * 8;
  if (v.u32(opt + (magic === 0x20b ? 108 : 92)) > 4 && v.u32(security + 4))
    end = Math.max(end, v.u32(security) + v.u32(security + 4));
  return end <= v.length ? end : null;
}

/** The extent of a thin Mach-O at 0 of `v`: every segment's file range and the load commands. */
function machoExtent(v: ByteView): number | null {
  const is64 = v.u32(0) === 0xfeedfacf;
  const count = v.u32(16);
  const commandsSize = v.u32(20);
  const header = is64 ? 32 : 28;
  if (count === 0 || count > MAX_TABLE || !v.has(header, commandsSize)) return null;
  let end = header + commandsSize;
  let at = header;
  for (let i = 0; i < count; i++) {
    const cmd = v.u32(at);
    const size = v.u32(at + 4);
    if (size < 8 || at + size > header + commandsSize) return null;
    if (cmd === 0x19) end = Math.max(end, v.u64(at + 40) + v.u64(at + 48));
    else if (cmd === 0x1) end = Math.max(end, v.u32(at + 32) + v.u32(at + 36));
    else if (cmd === 0x1d) end = Math.max(end, v.u32(at + 8) + v.u32(at + 12));
    at += size;
  }
  return end <= v.length ? end : null;
}

const carver =
  (name: string, extent: (v: ByteView) => number | null) =>
  (data: Uint8Array, offset: number): Probed | null => {
    const bytes = data.subarray(offset);
    const size = extent(new ByteView(bytes, true));
    if (size === null) return null;
    return { size, entries: () => [{ path: `carved.${name}`, kind: 'file', data: bytes.subarray(0, size) }] };
  };

export const elfFormat: FirmwareFormat = {
  name: 'elf',
  magics: [{ bytes: [0x7f, 0x45, 0x4c, 0x46] }],
  executable: true,
  probe: carver('elf', elfExtent),
};

export const peFormat: FirmwareFormat = {
  name: 'pe',
  magics: [{ bytes: [0x4d, 0x5a] }],
  executable: true,
  probe: carver('exe', peExtent),
};

export const machoFormat: FirmwareFormat = {
  name: 'macho',
  magics: [{ bytes: [0xce, 0xfa, 0xed, 0xfe] }, { bytes: [0xcf, 0xfa, 0xed, 0xfe] }],
  executable: true,
  probe: carver('macho', machoExtent),
};
