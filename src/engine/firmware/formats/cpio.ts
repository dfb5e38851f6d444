// cpio in its four encodings: newc (070701) and crc (070702) with ASCII-hex headers aligned to 4, odc
// (070707) with ASCII-octal headers, and the old binary format (octal 070707 as a 16-bit word, either byte
// order). Members run to the TRAILER!!! entry; a symlink's data is its target.
import { type FirmwareFormat, type Entry, type ReadContext, unixKind } from '../format.js';

/** Members read per archive (a hostile one of tiny entries ends here). */
const MAX_MEMBERS = 1_000_000;
const TRAILER = 'TRAILER!!!';

interface Member {
  name: string;
  mode: number;
  ino: number;
  nlink: number;
  data: Uint8Array;
}

interface Encoding {
  magic: readonly number[];
  /** The member at `at`, and where the next begins; null when no valid header is there. */
  read(b: Uint8Array, at: number): { member: Member; next: number } | null;
}

const ascii = (b: Uint8Array, at: number, n: number) => Buffer.from(b.subarray(at, at + n)).toString('latin1');
const field = (b: Uint8Array, at: number, n: number, radix: 8 | 16) => {
  const s = ascii(b, at, n);
  return (radix === 16 ? /^[0-9a-fA-F]+$/ : /^[0-7]+$/).test(s) ? parseInt(s, radix) : NaN;
};
const align = (n: number, to: number) => Math.ceil(n / to) * to;

/** Name (NUL-ended) and data of a member once its header has given their sizes; null if they overrun. */
function body(b: Uint8Array, nameAt: number, nameSize: number, dataAt: number, size: number) {
  if (!Number.isFinite(nameSize) || !Number.isFinite(size) || nameSize < 1 || dataAt + size > b.length) return null;
  const name = Buffer.from(b.subarray(nameAt, nameAt + nameSize - 1)).toString('utf8');
  return { name, data: b.subarray(dataAt, dataAt + size) };
}

const hex: (magic: string) => Encoding = (magic) => ({
  magic: [...Buffer.from(magic)],
  read(b, at) {
    if (at + 110 > b.length || ascii(b, at, 6) !== magic) return null;
    const f = (i: number) => field(b, at + 6 + 8 * i, 8, 16);
    const nameSize = f(11);
    const dataAt = align(at + 110 + nameSize, 4);
    const m = body(b, at + 110, nameSize, dataAt, f(6));
    return m && { member: { ...m, mode: f(1), ino: f(0), nlink: f(4) }, next: align(dataAt + m.data.length, 4) };
  },
});

const odc: Encoding = {
  magic: [...Buffer.from('070707')],
  read(b, at) {
    if (at + 76 > b.length || ascii(b, at, 6) !== '070707') return null;
    const nameSize = field(b, at + 59, 6, 8);
    const dataAt = at + 76 + nameSize;
    const m = body(b, at + 76, nameSize, dataAt, field(b, at + 65, 11, 8));
    return (
      m && {
        member: { ...m, mode: field(b, at + 18, 6, 8), ino: field(b, at + 12, 6, 8), nlink: field(b, at + 42, 6, 8) },
        next: dataAt + m.data.length,
      }
    );
  },
};

const binary = (little: boolean): Encoding => ({
  magic: little ? [0xc7, 0x71] : [0x71, 0xc7],
  read(b, at) {
    if (at + 26 > b.length) return null;
    const v = new DataView(b.buffer, b.byteOffset + at, 26);
    const u16 = (i: number) => v.getUint16(i * 2, little);
    if (u16(0) !== 0o70707) return null;
    const nameSize = u16(10);
    const size = u16(11) * 0x10000 + u16(12);
    const dataAt = align(at + 26 + nameSize, 2);
    const m = body(b, at + 26, nameSize, dataAt, size);
    return m && { member: { ...m, mode: u16(3), ino: u16(2), nlink: u16(6) }, next: align(dataAt + size, 2) };
  },
});

const ENCODINGS = [hex('070701'), hex('070702'), odc, binary(true), binary(false)];

/** Members up to the trailer (or the first place no header is); `end` is where the archive stops. */
function walk(b: Uint8Array, enc: Encoding): { members: Member[]; end: number; trailer: boolean } {
  const members: Member[] = [];
  let at = 0;
  while (members.length < MAX_MEMBERS) {
    const r = enc.read(b, at);
    if (!r) break;
    at = r.next;
    if (r.member.name === TRAILER) return { members, end: Math.min(at, b.length), trailer: true };
    members.push(r.member);
  }
  return { members, end: Math.min(at, b.length), trailer: false };
}

function* entries(members: Member[], ctx: ReadContext, trailer: boolean): Generator<Entry> {
  // newc keeps a hard-linked file's data on the last of its names: the others link to that one.
  const withData = new Map<number, string>();
  for (const m of members) if (m.nlink > 1 && m.data.length > 0) withData.set(m.ino, m.name);
  for (const m of members) {
    const kind = unixKind(m.mode);
    if (!kind) {
      ctx.problem(`cpio member ${m.name} has unknown type bits 0o${(m.mode & 0o170000).toString(8)}`);
      continue;
    }
    const mode = m.mode & 0o7777;
    const linkedTo = withData.get(m.ino);
    if (kind === 'file' && m.nlink > 1 && m.data.length === 0 && linkedTo !== undefined && linkedTo !== m.name)
      yield { path: m.name, kind: 'hardlink', target: linkedTo, mode };
    else if (kind === 'file') yield { path: m.name, kind, data: m.data, mode };
    else if (kind === 'symlink') yield { path: m.name, kind, target: Buffer.from(m.data).toString('utf8'), mode };
    else yield { path: m.name, kind, mode };
  }
  if (!trailer) ctx.problem('cpio archive ends without its TRAILER!!! entry (truncated)');
}

export const cpioFormat: FirmwareFormat = {
  name: 'cpio',
  magics: ENCODINGS.map((e) => ({ bytes: e.magic })),
  probe(data, offset) {
    const b = data.subarray(offset);
    const enc = ENCODINGS.find((e) => e.read(b, 0) !== null);
    if (!enc) return null;
    const { members, end, trailer } = walk(b, enc);
    // One stray header is no archive: a cpio is several members, or one and its trailer.
    if (members.length === 0 || (!trailer && members.length < 2)) return null;
    return {
      size: end,
      description: `${members.length} members`,
      entries: (ctx) => entries(members, ctx, trailer),
    };
  },
};
