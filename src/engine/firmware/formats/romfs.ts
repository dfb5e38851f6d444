// romfs, the Linux ROM file system genromfs writes: a superblock ("-rom1fs-", size, checksum, volume name)
// and 16-byte-aligned file headers, big-endian, each naming the next header of its directory (the low four
// bits of that pointer are the type and an exec bit). Data is stored as is, after each header's name. Every
// directory lists "." and ".." (skipped here); a hard link points at the header it shares.
import type { FirmwareFormat, Entry, EntryKind, ReadContext } from '../format.js';

const MAGIC = '-rom1fs-';
/** The superblock checksum covers the first 512 bytes (or the whole image when smaller). */
const CHECKED = 512;
/** genromfs pads images to a multiple of 1 KiB (the kernel's minimum block size). */
const IMAGE_ALIGN = 1024;
const HEADER = 16;
/** Names are at most NAME_MAX (255) bytes and a NUL: a longer run is no name (and bounds each search). */
const MAX_NAME = 256;
/** Directory levels followed: real trees are a dozen deep; a hostile one stops here. */
const MAX_DEPTH = 64;

const HARDLINK = 0;
const DIRECTORY = 1;
const EXEC = 8;
/** Kind and permission bits per type, as the kernel's romfs_modemap gives them (exec bit adds 0o111). */
const TYPES: readonly { kind: EntryKind; mode: number }[] = [
  { kind: 'hardlink', mode: 0 },
  { kind: 'dir', mode: 0o644 },
  { kind: 'file', mode: 0o644 },
  { kind: 'symlink', mode: 0o777 },
  { kind: 'device', mode: 0o600 },
  { kind: 'device', mode: 0o600 },
  { kind: 'socket', mode: 0o644 },
  { kind: 'fifo', mode: 0o644 },
];

interface Header {
  at: number;
  /** Next header of the same directory (0: the last). */
  next: number;
  type: number;
  mode: number;
  /** Directory: its first header. Hard link: the header it links to. */
  info: number;
  size: number;
  dataAt: number;
  name: string;
  path: string;
}

const align16 = (n: number) => (n + 15) & ~15;
/** A 16-aligned pointer as an unsigned offset (pointers of 2 GiB and more must not turn negative). */
const pointer = (word: number) => (word & ~15) >>> 0;
const names = new TextDecoder('utf-8');

class Image {
  private readonly view: DataView;
  constructor(readonly bytes: Uint8Array) {
    this.view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  }
  u32 = (at: number) => this.view.getUint32(at, false);

  /** Sum of the big-endian words in [from, to): 0 for a sound superblock or header. */
  sum(from: number, to: number): number {
    let s = 0;
    for (let at = from; at + 4 <= to; at += 4) s = (s + this.u32(at)) | 0;
    return s;
  }

  /** A NUL-ended name at `at` and where the 16-byte-aligned space after it ends; null if it runs off. */
  text(at: number): { text: string; end: number } | null {
    const name = this.bytes.subarray(at, at + MAX_NAME);
    const nul = name.indexOf(0);
    if (nul < 0) return null;
    return { text: names.decode(name.subarray(0, nul)), end: align16(at + nul + 1) };
  }

  header(at: number, prefix: string): Header | null {
    if (at < 0 || at % HEADER || at + HEADER > this.bytes.length) return null;
    const name = this.text(at + HEADER);
    if (!name || name.end > this.bytes.length) return null;
    const next = this.u32(at);
    const type = next & 7;
    return {
      at,
      next: pointer(next),
      type,
      mode: TYPES[type]!.mode | (next & EXEC ? 0o111 : 0),
      info: this.u32(at + 4),
      size: this.u32(at + 8),
      dataAt: name.end,
      name: name.text,
      path: prefix + name.text,
    };
  }
}

/**
 * Every header reachable from the root's list, depth first, "." and ".." left out. A header met twice (a
 * loop of next or directory pointers) ends its list with a problem; so does one that runs off the image.
 */
function collect(img: Image, rootList: number, ctx: ReadContext): Header[] {
  const seen = new Set<number>();
  const out: Header[] = [];
  const list = (first: number, prefix: string, depth: number) => {
    for (let at = first; at !== 0;) {
      if (seen.has(at)) return ctx.problem(`romfs: header at ${at} is reached twice (a loop); list ends`);
      seen.add(at);
      const h = img.header(at, prefix);
      if (!h) return ctx.problem(`romfs: bad header at ${at} in ${prefix || '/'}`);
      if (img.sum(at, h.dataAt) !== 0) ctx.problem(`romfs: ${h.path}: header checksum does not match`);
      at = h.next;
      if (h.name === '.' || h.name === '..') continue;
      out.push(h);
      if (h.type !== DIRECTORY) continue;
      if (depth >= MAX_DEPTH) ctx.problem(`romfs: ${h.path} is deeper than ${MAX_DEPTH} levels; not followed`);
      else list(pointer(h.info), `${h.path}/`, depth + 1);
    }
  };
  list(rootList, '', 1);
  return out;
}

function* entries(img: Image, rootList: number, ctx: ReadContext): Generator<Entry> {
  const headers = collect(img, rootList, ctx);
  const byAt = new Map(headers.map((h) => [h.at, h]));
  for (const h of headers) {
    const { kind } = TYPES[h.type]!;
    if (kind === 'hardlink') {
      // A link to a link is followed to the header that holds the data (chains are at most the headers).
      let target = byAt.get(pointer(h.info));
      for (let hops = 0; target?.type === HARDLINK && hops < headers.length; hops++)
        target = byAt.get(pointer(target.info));
      if (target && target.type !== HARDLINK) yield { path: h.path, kind, target: target.path };
      else ctx.problem(`romfs: ${h.path}: hard link to ${h.info} leads to no file`);
    } else if (kind === 'file' || kind === 'symlink') {
      if (h.dataAt + h.size > img.bytes.length) {
        ctx.problem(`romfs: ${h.path}: its ${h.size} bytes run past the end`);
        continue;
      }
      const data = img.bytes.subarray(h.dataAt, h.dataAt + h.size);
      if (kind === 'file') yield { path: h.path, kind, mode: h.mode, data };
      else yield { path: h.path, kind, mode: h.mode, target: names.decode(data) };
    } else yield { path: h.path, kind, mode: h.mode };
  }
}

export const romfsFormat: FirmwareFormat = {
  name: 'romfs',
  magics: [{ bytes: [...Buffer.from(MAGIC, 'latin1')] }],
  probe(data, offset) {
    if (offset + HEADER > data.length || Buffer.from(data.subarray(offset, offset + 8)).toString('latin1') !== MAGIC)
      return null;
    const available = data.length - offset;
    const whole = new Image(data.subarray(offset));
    const size = whole.u32(8);
    const checked = Math.min(CHECKED, size);
    if (size < 2 * HEADER || checked > available || whole.sum(0, checked) !== 0) return null;
    const img = new Image(data.subarray(offset, offset + Math.min(size, available)));
    const volume = img.text(HEADER);
    if (!volume || volume.end > img.bytes.length) return null;
    // The padding genromfs adds up to the next KiB is part of the image when it is there and zero.
    const padded = Math.min(Math.ceil(size / IMAGE_ALIGN) * IMAGE_ALIGN, available);
    const extent =
      size < available && data.subarray(offset + size, offset + padded).every((b) => b === 0)
        ? padded
        : img.bytes.length;
    const truncated = size > available;
    return {
      size: extent,
      description: `volume "${volume.text}", ${size} bytes${truncated ? ', truncated' : ''}`,
      *entries(ctx: ReadContext): Generator<Entry> {
        if (truncated) ctx.problem(`romfs: image truncated: ${available} of its ${size} bytes`);
        yield* entries(img, volume.end, ctx);
      },
    };
  },
};
