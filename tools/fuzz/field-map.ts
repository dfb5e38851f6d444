// Where a seed's integer fields sit (counts, sizes, offsets of its header tables), so mutators can aim
// "huge count" and "cyclic pointer" damage at the bytes a parser trusts instead of at random bytes.
// Read once per valid seed; every walk is capped, since a seed may itself be hostile (a finding's input).

/** The address space a field's value lives in: a pointer back into a structure must use the same one. */
export type Space = 'file' | 'rva' | 'vaddr' | 'count';

export interface Field {
  at: number;
  width: 2 | 4 | 8;
  little: boolean;
  space: Space;
}

export interface FieldMap {
  fields: Field[];
  /** Starts of the structures the fields describe, per space: targets for pointing offsets back. */
  anchors: Record<Space, number[]>;
}

/** Tables longer than this are mapped in part: the first entries are where damage matters first. */
const MAX_ENTRIES = 48;

class MapBuilder {
  readonly fields: Field[] = [];
  readonly anchors: Record<Space, number[]> = { file: [], rva: [], vaddr: [], count: [] };
  private readonly dv: DataView;

  constructor(
    readonly bytes: Uint8Array,
    public little: boolean,
  ) {
    this.dv = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  }

  has(at: number, width: number): boolean {
    return at >= 0 && at + width <= this.bytes.length;
  }
  read(at: number, width: 2 | 4 | 8): number {
    if (!this.has(at, width)) return 0;
    if (width === 2) return this.dv.getUint16(at, this.little);
    if (width === 4) return this.dv.getUint32(at, this.little);
    return Number(this.dv.getBigUint64(at, this.little));
  }
  field(at: number, width: 2 | 4 | 8, space: Space): void {
    if (this.has(at, width)) this.fields.push({ at, width, little: this.little, space });
  }
  anchor(space: Space, value: number): void {
    if (value > 0 && Number.isSafeInteger(value)) this.anchors[space].push(value);
  }
}

function mapElf(m: MapBuilder): void {
  const is64 = m.bytes[4] === 2;
  m.little = m.bytes[5] !== 2;
  const w = is64 ? 8 : 4;
  const [phoffAt, shoffAt, sizesAt] = is64 ? [32, 40, 52] : [28, 32, 40];
  m.field(24, w, 'vaddr');
  m.field(phoffAt, w, 'file');
  m.field(shoffAt, w, 'file');
  for (let k = 0; k < 6; k++) m.field(sizesAt + k * 2, 2, 'count');
  const phoff = m.read(phoffAt, w);
  const shoff = m.read(shoffAt, w);
  const phentsize = m.read(sizesAt + 2, 2);
  const shentsize = m.read(sizesAt + 6, 2);
  m.anchor('file', phoff);
  m.anchor('file', shoff);
  // Program headers: p_offset, p_vaddr, p_filesz, p_memsz.
  const ph = is64 ? [8, 16, 32, 40] : [4, 8, 16, 20];
  for (let i = 0; i < Math.min(m.read(sizesAt + 4, 2), MAX_ENTRIES) && phentsize > 0; i++) {
    const at = phoff + i * phentsize;
    ph.forEach((off, k) => m.field(at + off, w, k === 0 ? 'file' : k === 1 ? 'vaddr' : 'count'));
  }
  // Section headers: sh_name, sh_addr, sh_offset, sh_size, sh_link, sh_info, sh_entsize.
  const sh: [number, 4 | 8, Space][] = is64
    ? [
        [0, 4, 'file'],
        [16, 8, 'vaddr'],
        [24, 8, 'file'],
        [32, 8, 'count'],
        [40, 4, 'count'],
        [44, 4, 'count'],
        [56, 8, 'count'],
      ]
    : [
        [0, 4, 'file'],
        [12, 4, 'vaddr'],
        [16, 4, 'file'],
        [20, 4, 'count'],
        [24, 4, 'count'],
        [28, 4, 'count'],
        [36, 4, 'count'],
      ];
  for (let i = 0; i < Math.min(m.read(sizesAt + 8, 2), MAX_ENTRIES) && shentsize > 0; i++) {
    const at = shoff + i * shentsize;
    for (const [off, width, space] of sh) m.field(at + off, width, space);
    const offset = m.read(at + (is64 ? 24 : 16), w);
    m.anchor('file', offset);
    m.anchor('vaddr', m.read(at + (is64 ? 16 : 12), w));
    // SHT_DYNAMIC: every d_val is a count, size or address the dynamic readers follow.
    if (m.read(at + 4, 4) === 6) {
      const size = m.read(at + (is64 ? 32 : 20), w);
      for (let e = 0; e < Math.min(size / (2 * w), MAX_ENTRIES); e++) m.field(offset + e * 2 * w + w, w, 'vaddr');
    }
  }
}

/** File offset of an RVA through the section table, or -1. */
function rvaToFile(m: MapBuilder, sections: number, count: number, rva: number): number {
  for (let i = 0; i < count; i++) {
    const at = sections + i * 40;
    const va = m.read(at + 12, 4);
    const raw = m.read(at + 16, 4);
    if (rva >= va && rva < va + Math.max(raw, m.read(at + 8, 4))) return m.read(at + 20, 4) + (rva - va);
  }
  return -1;
}

function mapPe(m: MapBuilder): void {
  m.field(0x3c, 4, 'file');
  const nt = m.read(0x3c, 4);
  m.anchor('file', nt);
  const coff = nt + 4;
  m.field(coff + 2, 2, 'count');
  m.field(coff + 8, 4, 'file');
  m.field(coff + 12, 4, 'count');
  m.field(coff + 16, 2, 'count');
  const opt = coff + 20;
  const is64 = m.read(opt, 2) === 0x20b;
  const dirs = opt + (is64 ? 112 : 96);
  // AddressOfEntryPoint, SizeOfImage, SizeOfHeaders, NumberOfRvaAndSizes.
  m.field(opt + 16, 4, 'rva');
  m.field(opt + 56, 4, 'count');
  m.field(opt + 60, 4, 'count');
  m.field(dirs - 4, 4, 'count');
  for (let d = 0; d < 16; d++) {
    m.field(dirs + d * 8, 4, d === 4 ? 'file' : 'rva');
    m.field(dirs + d * 8 + 4, 4, 'count');
    m.anchor(d === 4 ? 'file' : 'rva', m.read(dirs + d * 8, 4));
  }
  const sections = opt + m.read(coff + 16, 2);
  const count = Math.min(m.read(coff + 2, 2), MAX_ENTRIES);
  for (let i = 0; i < count; i++) {
    const at = sections + i * 40;
    m.field(at + 8, 4, 'count');
    m.field(at + 12, 4, 'rva');
    m.field(at + 16, 4, 'count');
    m.field(at + 20, 4, 'file');
    m.anchor('rva', m.read(at + 12, 4));
    m.anchor('file', m.read(at + 20, 4));
  }
  // Import descriptors (OriginalFirstThunk, ForwarderChain, Name, FirstThunk) and the export directory's
  // counts and table RVAs: the chains a parser follows from RVA to RVA.
  const imports = rvaToFile(m, sections, count, m.read(dirs + 8, 4));
  for (let i = 0; imports >= 0 && i < MAX_ENTRIES && m.read(imports + i * 20 + 12, 4) !== 0; i++)
    for (const off of [0, 8, 12, 16]) m.field(imports + i * 20 + off, 4, off === 8 ? 'count' : 'rva');
  const exports = rvaToFile(m, sections, count, m.read(dirs, 4));
  if (exports >= 0) for (let off = 12; off <= 36; off += 4) m.field(exports + off, 4, off < 28 ? 'count' : 'rva');
}

const LC_SEGMENT = 0x1;
const LC_SEGMENT_64 = 0x19;
/** Load commands whose body is (offset, size) pairs or counts of __LINKEDIT tables. */
const LINKEDIT_COMMANDS = new Set([0x2, 0xb, 0x1d, 0x1e, 0x26, 0x29, 0x22, 0x80000022]);

function mapThinMachO(m: MapBuilder, start: number): void {
  m.little = true;
  const magic = m.read(start, 4);
  m.little = magic === 0xfeedface || magic === 0xfeedfacf;
  const is64 = m.read(start, 4) === 0xfeedfacf;
  m.field(start + 16, 4, 'count');
  m.field(start + 20, 4, 'count');
  let at = start + (is64 ? 32 : 28);
  for (let i = 0; i < Math.min(m.read(start + 16, 4), MAX_ENTRIES) && m.has(at, 8); i++) {
    const cmd = m.read(at, 4);
    const size = m.read(at + 4, 4);
    m.anchor('file', at - start);
    m.field(at, 4, 'count');
    m.field(at + 4, 4, 'count');
    if (cmd === LC_SEGMENT || cmd === LC_SEGMENT_64) {
      const w = cmd === LC_SEGMENT_64 ? 8 : 4;
      // vmaddr, vmsize, fileoff, filesize; then nsects and each section's addr, size, offset, reloff, nreloc.
      [24, 24 + w, 24 + 2 * w, 24 + 3 * w].forEach((off, k) => m.field(at + off, w, k % 2 ? 'count' : 'file'));
      const nsectsAt = at + 24 + 4 * w + 8;
      m.field(nsectsAt, 4, 'count');
      for (let s = 0; s < Math.min(m.read(nsectsAt, 4), 16); s++) {
        const sect = nsectsAt + 8 + s * (w === 8 ? 80 : 68);
        m.field(sect + 32, w, 'vaddr');
        m.field(sect + 32 + w, w, 'count');
        m.field(sect + 32 + 2 * w, 4, 'file');
        m.field(sect + 40 + 2 * w, 4, 'file');
        m.field(sect + 44 + 2 * w, 4, 'count');
      }
    } else if (LINKEDIT_COMMANDS.has(cmd)) {
      for (let off = 8; off + 4 <= Math.min(size, 80); off += 4) m.field(at + off, 4, off % 8 ? 'count' : 'file');
    } else m.field(at + 8, 4, 'count');
    if (size < 8) break;
    at += size;
  }
}

function mapMachO(m: MapBuilder): void {
  if (m.read(0, 4) !== 0xcafebabe && m.read(0, 4) !== 0xbebafeca) return mapThinMachO(m, 0);
  m.little = false;
  m.field(4, 4, 'count');
  const slices = Math.min(m.read(4, 4), 8);
  for (let i = 0; i < slices; i++) {
    const at = 8 + i * 20;
    m.field(at + 8, 4, 'file');
    m.field(at + 12, 4, 'count');
    m.field(at + 16, 4, 'count');
    m.anchor('file', at);
  }
  for (let i = 0; i < slices; i++) {
    const offset = m.read(8 + i * 20 + 8, 4);
    if (m.has(offset, 32)) mapThinMachO(m, offset);
    m.little = false;
  }
}

/** The field map of a seed; an empty map for bytes of no known container (mutators then go blind). */
export function mapFields(bytes: Uint8Array): FieldMap {
  const m = new MapBuilder(bytes, true);
  const magic = m.read(0, 4);
  if (magic === 0x464c457f) mapElf(m);
  else if (bytes[0] === 0x4d && bytes[1] === 0x5a) mapPe(m);
  else if ([0xfeedface, 0xfeedfacf, 0xcefaedfe, 0xcffaedfe, 0xcafebabe, 0xbebafeca].includes(magic)) mapMachO(m);
  return { fields: m.fields, anchors: m.anchors };
}
