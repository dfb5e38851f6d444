// ISO 9660, the CD-ROM file system of installer and recovery images. 32 KiB of system area, then volume
// descriptors in 2048-byte sectors from sector 16 (primary, Joliet's supplementary, terminator), each
// naming its root directory record; directories are records (extent, size, flags, name, then a System Use
// area) that never cross a 2048-byte sector. Names come from Rock Ridge when the primary tree has it (SUSP
// entries: NM names, SL symlink targets, PX modes, CL/RE for directories relocated past 8 levels), else
// from Joliet's UCS-2 tree, else the ISO names with their ";1" versions cut off. Paths are walked through
// directory records, not the path table; a file larger than 4 GiB is several records (multi-extent).
import { DecodeError, OutputLimitError } from '../compression/errors.js';
import { type FirmwareFormat, type Entry, type EntryKind, type ReadContext, unixKind } from '../format.js';

const SECTOR = 2048;
const DESCRIPTORS_AT = 16 * SECTOR;
const MAGIC = 'CD001';
/** Descriptors read before giving up on a terminator: real images have 2 to 5. */
const MAX_DESCRIPTORS = 32;
const TYPE_PRIMARY = 1;
const TYPE_SUPPLEMENTARY = 2;
const TYPE_TERMINATOR = 255;
/** Joliet's escape sequences for UCS-2 levels 1–3: "%/@", "%/C", "%/E". */
const JOLIET_ESCAPES = ['%/@', '%/C', '%/E'];
const ROOT_RECORD_AT = 156;
const MIN_RECORD = 34;

const FLAG_DIRECTORY = 0x02;
const FLAG_ASSOCIATED = 0x04;
const FLAG_MULTI_EXTENT = 0x80;
/** Directory levels followed: Rock Ridge relocation lets trees pass ISO's 8; a hostile one stops here. */
const MAX_DEPTH = 64;
/** Continuation areas (CE) followed per record: real ones take one or two. */
const MAX_CONTINUATIONS = 16;

type Naming = 'rock ridge' | 'joliet' | 'iso';

interface Volume {
  blockSize: number;
  blocks: number;
  primaryRoot: Uint8Array;
  jolietRoot: Uint8Array | null;
  label: string;
}

const latin1 = (b: Uint8Array) => Buffer.from(b.buffer, b.byteOffset, b.byteLength).toString('latin1');
const utf8 = new TextDecoder('utf-8');
const ucs2 = new TextDecoder('utf-16be');

/** The volume descriptors from sector 16 on, or null when there is no sane primary descriptor. */
function readDescriptors(data: Uint8Array, offset: number): Volume | null {
  let primary: Volume | null = null;
  let jolietRoot: Uint8Array | null = null;
  for (let i = 0; i < MAX_DESCRIPTORS; i++) {
    const at = offset + DESCRIPTORS_AT + i * SECTOR;
    if (at + SECTOR > data.length) break;
    const d = data.subarray(at, at + SECTOR);
    if (latin1(d.subarray(1, 6)) !== MAGIC) break;
    const v = new DataView(d.buffer, d.byteOffset, SECTOR);
    if (d[0] === TYPE_TERMINATOR) break;
    if (d[0] === TYPE_PRIMARY && !primary) {
      // Numbers are stored both ways (little- then big-endian): the two agreeing is a check in itself.
      const blocks = v.getUint32(80, true);
      const blockSize = v.getUint16(128, true);
      if (blocks !== v.getUint32(84, false) || blockSize !== v.getUint16(130, false)) return null;
      if (![512, 1024, 2048].includes(blockSize) || blocks * blockSize <= DESCRIPTORS_AT) return null;
      const root = d.subarray(ROOT_RECORD_AT, ROOT_RECORD_AT + MIN_RECORD);
      if (root[0] !== MIN_RECORD || !(root[25]! & FLAG_DIRECTORY)) return null;
      primary = { blockSize, blocks, primaryRoot: root, jolietRoot: null, label: latin1(d.subarray(40, 72)).trim() };
    } else if (d[0] === TYPE_SUPPLEMENTARY && JOLIET_ESCAPES.includes(latin1(d.subarray(88, 91)))) {
      const root = d.subarray(ROOT_RECORD_AT, ROOT_RECORD_AT + MIN_RECORD);
      if (root[0] === MIN_RECORD && root[25]! & FLAG_DIRECTORY) jolietRoot = root;
    }
  }
  return primary && { ...primary, jolietRoot };
}

interface DirRecord {
  extent: number;
  size: number;
  flags: number;
  /** The identifier as stored (0x00 is ".", 0x01 is ".."). */
  id: Uint8Array;
  /** The System Use area, where SUSP entries live. */
  systemUse: Uint8Array;
  interleaved: boolean;
  attributeBlocks: number;
}

function parseRecord(r: Uint8Array): DirRecord {
  const v = new DataView(r.buffer, r.byteOffset, r.byteLength);
  const idLength = r[32]!;
  const suAt = 33 + idLength + (idLength % 2 === 0 ? 1 : 0);
  return {
    extent: v.getUint32(2, true),
    size: v.getUint32(10, true),
    flags: r[25]!,
    id: r.subarray(33, Math.min(r.length, 33 + idLength)),
    systemUse: r.subarray(Math.min(suAt, r.length)),
    interleaved: r[26] !== 0 || r[27] !== 0,
    attributeBlocks: r[1]!,
  };
}

/** What Rock Ridge says of one record. */
interface RockRidge {
  name?: string;
  target?: string;
  mode?: number;
  /** CL: this placeholder file stands for the directory relocated to this block. */
  childLink?: number;
  /** RE: this directory was relocated here from deeper down; its placeholder lists it. */
  relocated: boolean;
}

class Reader {
  /** Directory and continuation bytes read: more than the volume means shared extents (hostile). */
  private metaBytes = 0;
  suspSkip = -1;

  constructor(
    readonly bytes: Uint8Array,
    readonly vol: Volume,
    readonly ctx: ReadContext,
  ) {}

  get exhausted(): boolean {
    return this.metaBytes > this.bytes.length;
  }

  /** `size` bytes from block `extent`; DecodeError past the data. */
  extent(extent: number, size: number, what: string): Uint8Array {
    const at = extent * this.vol.blockSize;
    if (at + size > this.bytes.length) throw new DecodeError(`iso9660: ${what} lies past the end of the data`);
    return this.bytes.subarray(at, at + size);
  }

  /** A directory's records, in order. A record that runs past its sector ends that sector with a problem. */
  records(extent: number, size: number, path: string): DirRecord[] {
    const dir = this.extent(extent, size, `directory ${path || '/'}`);
    this.metaBytes += size;
    if (this.exhausted) throw new DecodeError('iso9660: directories span more than the volume (shared extents)');
    const out: DirRecord[] = [];
    for (let at = 0; at < dir.length;) {
      const length = dir[at]!;
      const sectorEnd = Math.min(dir.length, (Math.floor(at / SECTOR) + 1) * SECTOR);
      if (length === 0) {
        at = sectorEnd;
        continue;
      }
      if (length < MIN_RECORD || at + length > sectorEnd || 33 + dir[at + 32]! > length) {
        this.ctx.problem(`iso9660: ${path || '/'}: damaged record at ${at}; rest of its sector skipped`);
        at = sectorEnd;
        continue;
      }
      out.push(parseRecord(dir.subarray(at, at + length)));
      at += length;
    }
    return out;
  }

  /**
   * The SUSP entries of a System Use area and its continuations, as (signature, entry bytes). Each CE
   * continuation is checked to lie in the data and counted; more than MAX_CONTINUATIONS ends the walk.
   */
  *susp(area: Uint8Array, skip: number): Generator<[string, Uint8Array]> {
    let bytes = area.subarray(Math.min(skip, area.length));
    for (let hops = 0; hops <= MAX_CONTINUATIONS; hops++) {
      let next: Uint8Array | null = null;
      for (let at = 0; at + 4 <= bytes.length;) {
        const length = bytes[at + 2]!;
        if (length < 4 || at + length > bytes.length) break;
        const entry = bytes.subarray(at, at + length);
        const signature = String.fromCharCode(entry[0]!, entry[1]!);
        if (signature === 'ST') break;
        if (signature === 'CE' && length >= 28) {
          const v = new DataView(entry.buffer, entry.byteOffset, length);
          const size = v.getUint32(20, true);
          const from = v.getUint32(4, true) * this.vol.blockSize + v.getUint32(12, true);
          if (from + size > this.bytes.length) throw new DecodeError('iso9660: continuation area past the data');
          this.metaBytes += size;
          if (this.exhausted) throw new DecodeError('iso9660: continuation areas span more than the volume');
          next = this.bytes.subarray(from, from + size);
        } else yield [signature, entry];
        at += length;
      }
      if (!next) return;
      bytes = next;
    }
  }

  /** Whether the root's "." record starts with SUSP's SP entry (and so how many bytes each area skips). */
  detectSusp(rootDot: DirRecord): void {
    const su = rootDot.systemUse;
    if (su.length >= 7 && su[0] === 0x53 && su[1] === 0x50 && su[4] === 0xbe && su[5] === 0xef) this.suspSkip = su[6]!;
  }

  /** Whether the root's "." record names the Rock Ridge extension (ER) or carries its entries. */
  hasRockRidge(rootDot: DirRecord): boolean {
    if (this.suspSkip < 0) return false;
    for (const [signature, entry] of this.susp(rootDot.systemUse, 0)) {
      if (signature === 'PX' || signature === 'NM' || signature === 'RR') return true;
      if (signature === 'ER' && entry.length >= 8) {
        const id = latin1(entry.subarray(8, 8 + entry[4]!));
        if (/RRIP|IEEE_P?1282/.test(id)) return true;
      }
    }
    return false;
  }

  rockRidge(r: DirRecord): RockRidge {
    const rr: RockRidge = { relocated: false };
    let name: number[] | null = null;
    const parts: string[] = [];
    let joinNext = false;
    for (const [signature, e] of this.susp(r.systemUse, this.suspSkip)) {
      if (signature === 'NM' && e.length >= 5) {
        if (e[4]! & 0x06) continue; // "." or ".." names
        (name ??= []).push(...e.subarray(5));
      } else if (signature === 'PX' && e.length >= 12) rr.mode = e[4]! | (e[5]! << 8) | (e[6]! << 16);
      else if (signature === 'CL' && e.length >= 12)
        rr.childLink = new DataView(e.buffer, e.byteOffset + 4, 4).getUint32(0, true);
      else if (signature === 'RE') rr.relocated = true;
      else if (signature === 'SL' && e.length >= 5) {
        // Components: flags (1 continues, 2 ".", 4 "..", 8 root), length, bytes.
        for (let at = 5; at + 2 <= e.length && at + 2 + e[at + 1]! <= e.length; at += 2 + e[at + 1]!) {
          const flags = e[at]!;
          const text =
            flags & 2 ? '.' : flags & 4 ? '..' : flags & 8 ? '' : utf8.decode(e.subarray(at + 2, at + 2 + e[at + 1]!));
          if (joinNext && parts.length) parts[parts.length - 1] += text;
          else parts.push(text);
          joinNext = (flags & 1) !== 0;
        }
      }
    }
    if (name) rr.name = utf8.decode(Uint8Array.from(name));
    if (parts.length) rr.target = parts.length === 1 && parts[0] === '' ? '/' : parts.join('/');
    return rr;
  }
}

const isDot = (id: Uint8Array) => id.length === 1 && (id[0] === 0 || id[0] === 1);

/** An ISO or Joliet identifier as shown: the ";1" version cut off, and a lone trailing dot. */
function plainName(id: Uint8Array, naming: Naming): string {
  const name = naming === 'joliet' ? ucs2.decode(id.length % 2 ? id.subarray(0, id.length - 1) : id) : latin1(id);
  const version = name.lastIndexOf(';');
  const bare = version > 0 ? name.slice(0, version) : name;
  return bare.endsWith('.') && !bare.slice(0, -1).includes('.') ? bare.slice(0, -1) : bare;
}

function* walk(reader: Reader, naming: Naming, root: Uint8Array): Generator<Entry> {
  const { ctx } = reader;
  const seen = new Set<number>();

  /** A file's bytes from its records (one, or several for multi-extent files), as a view when one. */
  const fileBytes = (parts: DirRecord[]): Uint8Array => {
    const total = parts.reduce((n, r) => n + r.size, 0);
    const limit = ctx.remaining();
    if (total > limit) throw new OutputLimitError(limit);
    if (parts.some((r) => r.interleaved)) throw new DecodeError('iso9660: interleaved files are not supported');
    const pieces = parts.map((r) =>
      r.size === 0
        ? new Uint8Array(0)
        : reader.extent(r.extent + r.attributeBlocks, r.size, `its extent at block ${r.extent}`),
    );
    if (pieces.length === 1) return pieces[0]!;
    const out = new Uint8Array(total);
    let at = 0;
    for (const p of pieces) {
      out.set(p, at);
      at += p.length;
    }
    return out;
  };

  function* inside(extent: number, size: number, prefix: string, depth: number): Generator<Entry> {
    let records: DirRecord[];
    try {
      records = reader.records(extent, size, prefix);
    } catch (err) {
      if (!(err instanceof DecodeError) || depth === 0 || reader.exhausted) throw err;
      ctx.problem(`iso9660: ${prefix}: directory unreadable: ${err.message.replace(/^iso9660: /, '')}`);
      return;
    }
    for (let i = 0; i < records.length; i++) {
      const first = records[i]!;
      const parts = [first];
      // A multi-extent file's records follow one another, all flagged but the last.
      while (parts[parts.length - 1]!.flags & FLAG_MULTI_EXTENT && i + 1 < records.length) parts.push(records[++i]!);
      if (isDot(first.id) || first.flags & FLAG_ASSOCIATED) continue;
      let path = (prefix ? `${prefix}/` : '') + plainName(first.id, naming);
      let found: { entry: Entry; dir?: [number, number] };
      try {
        const rr = naming === 'rock ridge' ? reader.rockRidge(first) : null;
        // A relocated directory is listed where its placeholder (CL) stands, not in rr_moved.
        if (rr?.relocated) continue;
        if (rr?.name !== undefined) path = (prefix ? `${prefix}/` : '') + rr.name;
        found = visit(parts, path, rr);
      } catch (err) {
        if (!(err instanceof DecodeError)) throw err;
        ctx.problem(`iso9660: ${path}: ${err.message.replace(/^iso9660: /, '')}`);
        continue;
      }
      yield found.entry;
      if (!found.dir) continue;
      const [at, length] = found.dir;
      if (seen.has(at)) ctx.problem(`iso9660: ${found.entry.path}: directory at block ${at} met before (left out)`);
      else if (depth + 1 > MAX_DEPTH) ctx.problem(`iso9660: ${found.entry.path}: nested past ${MAX_DEPTH} levels`);
      else {
        seen.add(at);
        yield* inside(at, length, found.entry.path, depth + 1);
      }
    }
  }

  /** The entry of the record(s) `parts` (and the directory to go into); DecodeError when unreadable. */
  function visit(parts: DirRecord[], path: string, rr: RockRidge | null): { entry: Entry; dir?: [number, number] } {
    const r = parts[0]!;
    const mode = rr?.mode;
    if (rr?.childLink !== undefined) {
      // The relocated directory's own "." record gives its size.
      const dot = reader.records(rr.childLink, reader.vol.blockSize, path)[0];
      if (!dot) throw new DecodeError(`iso9660: relocated directory at block ${rr.childLink} is empty`);
      const entry: Entry = { path, kind: 'dir' };
      if (mode !== undefined) entry.mode = mode & 0o7777;
      return { entry, dir: [rr.childLink, dot.size] };
    }
    const kind: EntryKind = mode !== undefined ? (unixKind(mode) ?? 'file') : r.flags & FLAG_DIRECTORY ? 'dir' : 'file';
    const entry: Entry = { path, kind };
    if (mode !== undefined) entry.mode = mode & 0o7777;
    if (kind === 'dir') return r.flags & FLAG_DIRECTORY ? { entry, dir: [r.extent, r.size] } : { entry };
    if (kind === 'symlink') entry.target = rr?.target ?? '';
    if (kind === 'file') entry.data = fileBytes(parts);
    return { entry };
  }

  const rootRecord = parseRecord(root);
  seen.add(rootRecord.extent);
  yield* inside(rootRecord.extent, rootRecord.size, '', 0);
}

/** Which tree names the files: the primary with Rock Ridge, else Joliet's, else the primary's ISO names. */
function* entries(reader: Reader): Generator<Entry> {
  const { vol } = reader;
  const root = parseRecord(vol.primaryRoot);
  const dot = reader.records(root.extent, Math.min(root.size, SECTOR), '')[0];
  if (dot) reader.detectSusp(dot);
  if (dot && reader.hasRockRidge(dot)) yield* walk(reader, 'rock ridge', vol.primaryRoot);
  else if (vol.jolietRoot) yield* walk(reader, 'joliet', vol.jolietRoot);
  else yield* walk(reader, 'iso', vol.primaryRoot);
}

export const iso9660Format: FirmwareFormat = {
  name: 'iso9660',
  magics: [{ bytes: [...Buffer.from(MAGIC)], at: DESCRIPTORS_AT + 1 }],
  probe(data, offset) {
    const vol = readDescriptors(data, offset);
    if (!vol) return null;
    const whole = vol.blocks * vol.blockSize;
    const size = Math.min(whole, data.length - offset);
    const bytes = data.subarray(offset, offset + size);
    const label = vol.label ? `, volume "${vol.label}"` : '';
    const joliet = vol.jolietRoot ? ', Joliet' : '';
    return {
      size,
      description: `ISO 9660, ${vol.blocks} blocks of ${vol.blockSize} bytes${joliet}${label}${size < whole ? ', truncated' : ''}`,
      *entries(ctx) {
        if (size < whole) ctx.problem(`iso9660: image truncated: ${size} of its ${whole} bytes`);
        yield* entries(new Reader(bytes, vol, ctx));
      },
    };
  },
};
