// POSIX ustar and GNU tar: 512-byte headers with octal (or base-256) numbers, GNU long names/links (L, K)
// and PAX extended headers (path, linkpath, size). The archive ends at two zero blocks or the data's end.
import { DecodeError } from '../compression/errors.js';
import type { FirmwareFormat, Entry, EntryKind } from '../format.js';

const BLOCK = 512;
/** Headers read per archive: far beyond real archives, small enough that a hostile one ends quickly. */
const MAX_HEADERS = 1_000_000;

const KINDS: Record<string, EntryKind> = {
  '0': 'file',
  '\0': 'file',
  '7': 'file',
  '1': 'hardlink',
  '2': 'symlink',
  '3': 'device',
  '4': 'device',
  '5': 'dir',
  '6': 'fifo',
};

const text = (b: Uint8Array, at: number, n: number) => {
  const field = b.subarray(at, at + n);
  const end = field.indexOf(0);
  return Buffer.from(end < 0 ? field : field.subarray(0, end)).toString('utf8');
};

/** An octal field, or base-256 when its high bit is set (GNU, for sizes of 8 GiB and more); NaN if neither. */
function number(b: Uint8Array, at: number, n: number): number {
  if (b[at]! & 0x80) {
    let v = b[at]! & 0x7f;
    for (let i = 1; i < n; i++) v = v * 256 + b[at + i]!;
    return v;
  }
  const s = text(b, at, n).trim();
  return /^[0-7]+$/.test(s) ? parseInt(s, 8) : s === '' ? 0 : NaN;
}

/** Whether the 512 bytes at `at` are a header whose checksum (bytes summed, the field as spaces) holds. */
function validHeader(b: Uint8Array, at: number): boolean {
  if (at + BLOCK > b.length) return false;
  const stored = number(b, at + 148, 8);
  let sum = 0;
  for (let i = 0; i < BLOCK; i++) sum += i >= 148 && i < 156 ? 0x20 : b[at + i]!;
  return stored === sum;
}

const zeroBlock = (b: Uint8Array, at: number) =>
  at + BLOCK <= b.length && b.subarray(at, at + BLOCK).every((x) => x === 0);

interface Member {
  header: number;
  type: string;
  name: string;
  link: string;
  mode: number;
  data: number;
  size: number;
}

/** The archive's members in order, with GNU and PAX names applied; `end` is where the archive stops. */
function* members(b: Uint8Array): Generator<Member, number> {
  let at = 0;
  let longName: string | null = null;
  let longLink: string | null = null;
  let pax: Record<string, string> = {};
  for (let n = 0; n < MAX_HEADERS; n++) {
    if (zeroBlock(b, at)) return Math.min(b.length, at + (zeroBlock(b, at + BLOCK) ? 2 * BLOCK : BLOCK));
    if (!validHeader(b, at)) return Math.min(at, b.length);
    const type = String.fromCharCode(b[at + 156]!);
    const size = number(b, at + 124, 12);
    // A member cut off by the end of the data (a truncated archive) ends it: what came before is kept.
    if (!Number.isFinite(size) || at + BLOCK + size > b.length) return Math.min(at, b.length);
    const data = at + BLOCK;
    const body = () => Buffer.from(b.subarray(data, data + size));
    const next = data + Math.ceil(size / BLOCK) * BLOCK;
    if (type === 'L') longName = body().toString('utf8').replace(/\0.*$/s, '');
    else if (type === 'K') longLink = body().toString('utf8').replace(/\0.*$/s, '');
    else if (type === 'x') pax = paxRecords(body().toString('utf8'));
    else if (type !== 'g') {
      const prefix = b[at + 257] === 0x75 ? text(b, at + 345, 155) : '';
      const plain = text(b, at, 100);
      const name = pax.path ?? longName ?? (prefix ? `${prefix}/${plain}` : plain);
      const link = pax.linkpath ?? longLink ?? text(b, at + 157, 100);
      const paxSize = pax.size !== undefined ? Number(pax.size) : size;
      yield { header: at, type, name, link, mode: number(b, at + 100, 8) || 0, data, size: Math.min(paxSize, size) };
      longName = longLink = null;
      pax = {};
    }
    at = next;
  }
  throw new DecodeError(`tar archive with more than ${MAX_HEADERS} headers`);
}

/** PAX records: "<length> <key>=<value>\n" each. */
function paxRecords(body: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const m of body.matchAll(/(\d+) ([^=\n]+)=([^\n]*)\n/g)) out[m[2]!] = m[3]!;
  return out;
}

export const tarFormat: FirmwareFormat = {
  name: 'tar',
  magics: [{ bytes: [0x75, 0x73, 0x74, 0x61, 0x72], at: 257 }],
  probe(data, offset) {
    const b = data.subarray(offset);
    if (!validHeader(b, 0)) return null;
    let count = 0;
    let size = 0;
    const walk = members(b);
    for (let r = walk.next(); ; r = walk.next(), count++) {
      if (r.done) {
        size = r.value;
        break;
      }
    }
    return {
      size,
      description: `${count} members`,
      *entries() {
        for (const m of members(b.subarray(0, size))) {
          const kind = KINDS[m.type];
          if (!kind) continue;
          const entry: Entry = { path: m.name, kind, mode: m.mode };
          if (kind === 'file') entry.data = b.subarray(m.data, m.data + m.size);
          if (kind === 'symlink' || kind === 'hardlink') entry.target = m.link;
          yield entry;
        }
      },
    };
  },
};
