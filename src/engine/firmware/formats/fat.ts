// FAT12, FAT16 and FAT32, the file systems of boot partitions, SD cards and many firmware update images. A
// boot sector with the BIOS parameter block (sector size, cluster size, reserved sectors, FAT count and
// size, root entries), the FATs (one entry per cluster: the next cluster of a chain, or its end), then the
// fixed root directory (FAT12/16) and the clusters. Directories are 32-byte entries: an 8.3 name, or a
// long name (VFAT) spread over entries before it, each with a checksum of the 8.3 name it belongs to.
// The type follows the kernel: FAT32 when the 16-bit FAT size is 0, else FAT12 under 4085 clusters.
import { DecodeError, OutputLimitError } from '../compression/errors.js';
import type { FirmwareFormat, Entry, ReadContext } from '../format.js';

const SIGNATURE_AT = 510;
const DIR_ENTRY = 32;
/** Fewer clusters than this is FAT12, fewer than FAT16_MAX FAT16 (Microsoft's FAT specification). */
const FAT12_MAX = 4085;
const FAT16_MAX = 65525;
/** A cluster number is at least 2; 0 and 1 are the FAT's first two (reserved) entries. */
const FIRST_CLUSTER = 2;
/** Directory levels followed: real trees are a dozen deep; a hostile one stops here. */
const MAX_DEPTH = 64;

const ATTR_VOLUME = 0x08;
const ATTR_DIRECTORY = 0x10;
const ATTR_LONG_NAME = 0x0f;
/** Long-name entries: sequence byte bit 6 marks the last (first stored); 13 UCS-2 units at these offsets. */
const LFN_LAST = 0x40;
const LFN_UNITS = [1, 3, 5, 7, 9, 14, 16, 18, 20, 22, 24, 28, 30];
/** Name byte 0: the end of the directory, a deleted entry, or an 8.3 name whose first byte really is 0xE5. */
const END = 0x00;
const DELETED = 0xe5;
const KANJI_E5 = 0x05;
/** Windows NT's case bits (byte 12): the base name or the extension stored upper case, shown lower. */
const LOWER_BASE = 0x08;
const LOWER_EXT = 0x10;

interface Layout {
  bytesPerSector: number;
  clusterSize: number;
  fatBits: 12 | 16 | 32;
  /** Byte offsets from the volume's start. */
  fatAt: number;
  fatBytes: number;
  rootAt: number;
  rootEntries: number;
  dataAt: number;
  clusterCount: number;
  rootCluster: number;
  totalBytes: number;
  label: string;
}

const isPowerOfTwo = (n: number) => n > 0 && (n & (n - 1)) === 0;

/** The volume's layout from its boot sector, or null when the parameters are not those of a FAT volume. */
function readLayout(data: Uint8Array, offset: number): Layout | null {
  if (offset < 0 || offset + 512 > data.length) return null;
  const v = new DataView(data.buffer, data.byteOffset + offset, 512);
  const text = (at: number, n: number) => Buffer.from(data.subarray(offset + at, offset + at + n)).toString('latin1');
  const signed = v.getUint16(SIGNATURE_AT, true) === 0xaa55;
  if (!signed && !/^FAT(12|16) {3}$/.test(text(54, 8)) && text(82, 8) !== 'FAT32   ') return null;
  const bytesPerSector = v.getUint16(11, true);
  const sectorsPerCluster = v.getUint8(13);
  const reserved = v.getUint16(14, true);
  const fats = v.getUint8(16);
  const rootEntries = v.getUint16(17, true);
  const media = v.getUint8(21);
  if (!isPowerOfTwo(bytesPerSector) || bytesPerSector < 512 || bytesPerSector > 4096) return null;
  if (!isPowerOfTwo(sectorsPerCluster) || reserved < 1 || fats < 1 || fats > 2) return null;
  if (media !== 0xf0 && media < 0xf8) return null;
  const totalSectors = v.getUint16(19, true) || v.getUint32(32, true);
  const fat16Size = v.getUint16(22, true);
  const fat32 = fat16Size === 0;
  const fatSectors = fat32 ? v.getUint32(36, true) : fat16Size;
  if (fatSectors === 0 || (fat32 && rootEntries !== 0)) return null;
  const rootSectors = Math.ceil((rootEntries * DIR_ENTRY) / bytesPerSector);
  const dataSector = reserved + fats * fatSectors + rootSectors;
  if (dataSector >= totalSectors) return null;
  const clusterCount = Math.floor((totalSectors - dataSector) / sectorsPerCluster);
  const fatBits = fat32 ? 32 : clusterCount < FAT12_MAX ? 12 : 16;
  if (clusterCount < 1 || (fatBits === 16 && clusterCount >= FAT16_MAX) || clusterCount > 0x0ffffff5) return null;
  // The FAT must have an entry for every cluster (the kernel refuses the volume otherwise).
  const fatBytes = fatSectors * bytesPerSector;
  if (Math.floor((fatBytes * 8) / fatBits) < clusterCount + FIRST_CLUSTER) return null;
  // FAT32 may keep one FAT current and the other stale (extended flags bit 7, active FAT in bits 0–3).
  const flags = fat32 ? v.getUint16(40, true) : 0;
  const active = flags & 0x80 ? flags & 0xf : 0;
  if (active >= fats) return null;
  const rootCluster = fat32 ? v.getUint32(44, true) : 0;
  if (fat32 && (rootCluster < FIRST_CLUSTER || rootCluster >= clusterCount + FIRST_CLUSTER)) return null;
  const labelAt = fat32 ? 71 : 43;
  const hasLabel = v.getUint8(labelAt - 5) === 0x29;
  return {
    bytesPerSector,
    clusterSize: sectorsPerCluster * bytesPerSector,
    fatBits,
    fatAt: (reserved + active * fatSectors) * bytesPerSector,
    fatBytes,
    rootAt: (reserved + fats * fatSectors) * bytesPerSector,
    rootEntries,
    dataAt: dataSector * bytesPerSector,
    clusterCount,
    rootCluster,
    totalBytes: totalSectors * bytesPerSector,
    label: hasLabel ? text(labelAt, 11).trimEnd() : '',
  };
}

interface DirItem {
  name: string;
  attr: number;
  cluster: number;
  size: number;
}

/** The 8.3 name's checksum every long-name entry of it carries. */
function shortNameChecksum(entry: Uint8Array): number {
  let sum = 0;
  for (let i = 0; i < 11; i++) sum = (((sum & 1) << 7) + (sum >> 1) + entry[i]!) & 0xff;
  return sum;
}

/** An 8.3 name as shown: blanks trimmed, the case bits applied, a dot only when there is an extension. */
function shortName(entry: Uint8Array): string {
  const raw = Buffer.from(entry.subarray(0, 11));
  if (raw[0] === KANJI_E5) raw[0] = DELETED;
  let base = raw.toString('latin1', 0, 8).trimEnd();
  let ext = raw.toString('latin1', 8, 11).trimEnd();
  if (entry[12]! & LOWER_BASE) base = base.toLowerCase();
  if (entry[12]! & LOWER_EXT) ext = ext.toLowerCase();
  return ext ? `${base}.${ext}` : base;
}

/** Long-name pieces gathered while walking back from the last one (ordinal n down to 1). */
class LongName {
  private units: number[] = [];
  private expected = 0;
  private checksum = -1;

  reset(): void {
    this.expected = 0;
    this.checksum = -1;
  }

  /** Adds a long-name entry; one out of sequence or with another checksum drops what was gathered. */
  add(entry: Uint8Array): void {
    const ordinal = entry[0]! & 0x1f;
    if (entry[0]! & LFN_LAST) {
      this.units = new Array<number>(ordinal * LFN_UNITS.length).fill(0xffff);
      this.expected = ordinal;
      this.checksum = entry[13]!;
    } else if (ordinal !== this.expected - 1 || entry[13] !== this.checksum || ordinal === 0) {
      this.reset();
      return;
    }
    if (ordinal === 0) return this.reset();
    this.expected = ordinal;
    const base = (ordinal - 1) * LFN_UNITS.length;
    LFN_UNITS.forEach((at, i) => (this.units[base + i] = entry[at]! | (entry[at + 1]! << 8)));
  }

  /** The long name for the 8.3 entry `entry`, or null when none complete belongs to it. */
  take(entry: Uint8Array): string | null {
    const complete = this.expected === 1 && this.checksum === shortNameChecksum(entry);
    this.reset();
    if (!complete) return null;
    const end = this.units.indexOf(0);
    const units = end < 0 ? this.units : this.units.slice(0, end);
    return String.fromCharCode(...units);
  }
}

class Volume {
  private readonly view: DataView;
  /** Directory bytes read so far: more than the volume holds means chains shared by many directories. */
  private dirBytes = 0;

  constructor(
    readonly bytes: Uint8Array,
    readonly layout: Layout,
    readonly ctx: ReadContext,
  ) {
    this.view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  }

  get exhausted(): boolean {
    return this.dirBytes > this.bytes.length;
  }

  isCluster(n: number): boolean {
    return n >= FIRST_CLUSTER && n < this.layout.clusterCount + FIRST_CLUSTER;
  }

  /** The FAT entry of cluster `n` (a valid cluster number), 28 bits wide for FAT32. */
  private next(n: number): number {
    const { fatAt, fatBits } = this.layout;
    if (fatBits === 32) return this.view.getUint32(fatAt + 4 * n, true) & 0x0fffffff;
    if (fatBits === 16) return this.view.getUint16(fatAt + 2 * n, true);
    const pair = this.view.getUint16(fatAt + n + (n >> 1), true);
    return n & 1 ? pair >> 4 : pair & 0xfff;
  }

  /** Whether a FAT entry ends a chain (0xFF8 and up, scaled to the FAT's width). */
  private isEnd(entry: number): boolean {
    const bits = this.layout.fatBits === 32 ? 28 : this.layout.fatBits;
    return entry >= 2 ** bits - 8;
  }

  /**
   * The chain from cluster `first`: at most `max` clusters (a file's size bounds its chain), ending early
   * at a cluster met before when `distinct` (a directory's chain that loops). A free, bad or out-of-range
   * entry before the end is a DecodeError, as is a cluster past the data there.
   */
  chain(first: number, max: number, distinct = false): number[] {
    if (this.layout.fatAt + this.layout.fatBytes > this.bytes.length)
      throw new DecodeError('fat: the FAT lies past the end of the data (truncated image)');
    const out: number[] = [];
    const seen = distinct ? new Set<number>() : null;
    for (let c = first; out.length < max;) {
      if (!this.isCluster(c)) throw new DecodeError(`fat: chain from ${first} reaches cluster ${c}`);
      if (this.clusterAt(c) + this.layout.clusterSize > this.bytes.length)
        throw new DecodeError(`fat: cluster ${c} lies past the end of the data (truncated image)`);
      if (seen?.has(c)) break;
      seen?.add(c);
      out.push(c);
      const entry = this.next(c);
      if (this.isEnd(entry)) break;
      c = entry;
    }
    return out;
  }

  clusterAt(c: number): number {
    return this.layout.dataAt + (c - FIRST_CLUSTER) * this.layout.clusterSize;
  }

  /** A file's bytes: a view when its clusters are contiguous, else copied cluster by cluster. */
  file(first: number, size: number): Uint8Array {
    const limit = this.ctx.remaining();
    if (size > limit) throw new OutputLimitError(limit);
    if (size === 0) return new Uint8Array(0);
    const cs = this.layout.clusterSize;
    const needed = Math.ceil(size / cs);
    if (needed > this.layout.clusterCount)
      throw new DecodeError(`fat: ${size} bytes need more clusters than the volume's ${this.layout.clusterCount}`);
    const clusters = this.chain(first, needed);
    if (clusters.length < needed) throw new DecodeError(`fat: chain of ${clusters.length} clusters for ${size} bytes`);
    const start = this.clusterAt(clusters[0]!);
    if (clusters.every((c, i) => c === clusters[0]! + i)) return this.bytes.subarray(start, start + size);
    const out = new Uint8Array(size);
    clusters.forEach((c, i) => {
      const at = this.clusterAt(c);
      out.set(this.bytes.subarray(at, at + Math.min(cs, size - i * cs)), i * cs);
    });
    return out;
  }

  /** The regions a directory spans: the fixed root of FAT12/16, or its cluster chain (each cluster once). */
  private dirRegions(cluster: number | null): Uint8Array[] {
    const { layout } = this;
    if (cluster === null && layout.fatBits !== 32) {
      const end = layout.rootAt + layout.rootEntries * DIR_ENTRY;
      if (end > this.bytes.length) throw new DecodeError('fat: the root directory lies past the end of the data');
      return [this.bytes.subarray(layout.rootAt, end)];
    }
    // What is left of the directory budget bounds the chain, and each cluster is listed once.
    const room = Math.floor((this.bytes.length - this.dirBytes) / layout.clusterSize) + 1;
    return this.chain(cluster ?? layout.rootCluster, room, true).map((c) =>
      this.bytes.subarray(this.clusterAt(c), this.clusterAt(c) + layout.clusterSize),
    );
  }

  /** The live entries of a directory (null: the root), "." and ".." and volume labels left out. */
  list(cluster: number | null): DirItem[] {
    const items: DirItem[] = [];
    const long = new LongName();
    for (const region of this.dirRegions(cluster)) {
      this.dirBytes += region.length;
      if (this.exhausted) throw new DecodeError('fat: directories span more than the volume (shared clusters)');
      for (let at = 0; at + DIR_ENTRY <= region.length; at += DIR_ENTRY) {
        const e = region.subarray(at, at + DIR_ENTRY);
        if (e[0] === END) return items;
        if (e[0] === DELETED) {
          long.reset();
          continue;
        }
        const attr = e[11]!;
        if ((attr & 0x3f) === ATTR_LONG_NAME) {
          long.add(e);
          continue;
        }
        const name = long.take(e) ?? shortName(e);
        if (attr & ATTR_VOLUME || name === '.' || name === '..') continue;
        const high = this.layout.fatBits === 32 ? e[20]! | (e[21]! << 8) : 0;
        const size = e[28]! | (e[29]! << 8) | (e[30]! << 16) | (e[31]! * 2 ** 24);
        items.push({ name, attr, cluster: high * 65536 + (e[26]! | (e[27]! << 8)), size });
      }
    }
    return items;
  }
}

function* walk(vol: Volume): Generator<Entry> {
  const { ctx } = vol;
  const dirsSeen = new Set<number>();

  function* inside(cluster: number | null, prefix: string, depth: number): Generator<Entry> {
    let items: DirItem[];
    try {
      items = vol.list(cluster);
    } catch (err) {
      if (!(err instanceof DecodeError) || cluster === null || vol.exhausted) throw err;
      ctx.problem(`fat: ${prefix}: directory unreadable: ${err.message.replace(/^fat: /, '')}`);
      return;
    }
    for (const item of items) {
      const path = prefix ? `${prefix}/${item.name}` : item.name;
      if (!(item.attr & ATTR_DIRECTORY)) {
        try {
          yield { path, kind: 'file', data: vol.file(item.cluster, item.size) };
        } catch (err) {
          if (!(err instanceof DecodeError)) throw err;
          ctx.problem(`fat: ${path}: ${err.message.replace(/^fat: /, '')}`);
        }
        continue;
      }
      if (!vol.isCluster(item.cluster) || dirsSeen.has(item.cluster)) {
        ctx.problem(`fat: ${path}: directory at cluster ${item.cluster} is out of range or met before (left out)`);
        continue;
      }
      dirsSeen.add(item.cluster);
      yield { path, kind: 'dir' };
      if (depth + 1 > MAX_DEPTH) ctx.problem(`fat: ${path}: directories nested past ${MAX_DEPTH} levels left out`);
      else yield* inside(item.cluster, path, depth + 1);
    }
  }

  if (vol.layout.fatBits === 32) dirsSeen.add(vol.layout.rootCluster);
  yield* inside(null, '', 0);
}

export const fatFormat: FirmwareFormat = {
  name: 'fat',
  magics: [
    { bytes: [0x55, 0xaa], at: SIGNATURE_AT },
    { bytes: [...Buffer.from('FAT12   ')], at: 54 },
    { bytes: [...Buffer.from('FAT16   ')], at: 54 },
    { bytes: [...Buffer.from('FAT32   ')], at: 82 },
  ],
  probe(data, offset) {
    const layout = readLayout(data, offset);
    if (!layout) return null;
    const size = Math.min(layout.totalBytes, data.length - offset);
    const bytes = data.subarray(offset, offset + size);
    const label = layout.label && layout.label !== 'NO NAME' ? `, label "${layout.label}"` : '';
    const cut = size < layout.totalBytes ? ', truncated' : '';
    return {
      size,
      description: `FAT${layout.fatBits}, ${layout.clusterCount} clusters of ${layout.clusterSize} bytes${label}${cut}`,
      *entries(ctx) {
        if (cut) ctx.problem(`fat: image truncated: ${size} of its ${layout.totalBytes} bytes`);
        yield* walk(new Volume(bytes, layout, ctx));
      },
    };
  },
};
