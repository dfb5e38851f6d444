// Unix ar archives (Debian and OpenWrt packages, static libraries): "!<arch>\n", then members of a 60-byte
// text header and their data, 2-aligned. GNU long names come from the "//" member, BSD ones ("#1/len")
// precede the data; the symbol tables ("/", "__.SYMDEF") are skipped.
import type { FirmwareFormat, Entry } from '../format.js';

const MAGIC = '!<arch>\n';
const HEADER = 60;
const MAX_MEMBERS = 1_000_000;

interface Member {
  name: string;
  mode: number;
  data: Uint8Array;
}

const field = (b: Uint8Array, at: number, n: number) =>
  Buffer.from(b.subarray(at, at + n))
    .toString('latin1')
    .trimEnd();

/** The members up to the end of the archive (the data's end or the first header that is not one). */
function members(b: Uint8Array): { members: Member[]; end: number } {
  const out: Member[] = [];
  let longNames = '';
  let at = MAGIC.length;
  while (out.length < MAX_MEMBERS && at + HEADER <= b.length && b[at + 58] === 0x60 && b[at + 59] === 0x0a) {
    const sizeText = field(b, at + 48, 10);
    if (!/^\d+$/.test(sizeText)) break;
    const size = Number(sizeText);
    const dataAt = at + HEADER;
    if (dataAt + size > b.length) break;
    let name = field(b, at, 16);
    let data = b.subarray(dataAt, dataAt + size);
    const bsd = /^#1\/(\d+)$/.exec(name);
    if (bsd) {
      const n = Math.min(Number(bsd[1]), size);
      name = Buffer.from(data.subarray(0, n)).toString('utf8').replace(/\0+$/, '');
      data = data.subarray(n);
    } else if (name === '//') longNames = Buffer.from(data).toString('utf8');
    else if (/^\/\d+$/.test(name)) {
      const from = Number(name.slice(1));
      const end = longNames.indexOf('/\n', from);
      name = from < longNames.length ? longNames.slice(from, end < 0 ? undefined : end) : name;
    } else if (name.endsWith('/')) name = name.slice(0, -1);
    if (name !== '' && name !== '/' && name !== '//' && !name.startsWith('__.SYMDEF'))
      out.push({ name, mode: parseInt(field(b, at + 40, 8), 8) || 0o644, data });
    at = dataAt + size + (size % 2);
  }
  return { members: out, end: Math.min(at, b.length) };
}

export const arFormat: FirmwareFormat = {
  name: 'ar',
  magics: [{ bytes: [...Buffer.from(MAGIC, 'latin1')] }],
  probe(data, offset) {
    const b = data.subarray(offset);
    const { members: list, end } = members(b);
    if (list.length === 0) return null;
    return {
      size: end,
      description: `${list.length} members`,
      *entries(): Generator<Entry> {
        for (const m of list) yield { path: m.name, kind: 'file', data: m.data, mode: m.mode & 0o7777 };
      },
    };
  },
};
