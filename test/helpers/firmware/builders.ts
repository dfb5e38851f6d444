// Archives built by hand for the safety suite: what no well-behaved tool writes (names with `..`, absolute
// paths, devices, a link and then a write through it, entries that overlap, sizes in terabytes).
import { deflateRawSync } from 'node:zlib';
import { crc32Value } from '../../../src/engine/fuzzy/crc32.js';

export interface HandEntry {
  name: string;
  data?: Uint8Array;
  /** tar type flag: '0' file, '1' hard link, '2' symlink, '3' char device, '5' directory, '6' FIFO. */
  type?: string;
  link?: string;
  /** A size to claim instead of the data's (a lie). */
  claimedSize?: number;
}

const octal = (n: number, width: number) => n.toString(8).padStart(width - 1, '0') + '\0';

/** A ustar archive of the entries, ended by two zero blocks. */
export function tar(entries: HandEntry[]): Buffer {
  const blocks: Buffer[] = [];
  for (const e of entries) {
    const data = Buffer.from(e.data ?? []);
    const h = Buffer.alloc(512);
    h.write(e.name, 0, 100, 'utf8');
    h.write(octal(0o644, 8), 100);
    h.write(octal(0, 8), 108);
    h.write(octal(0, 8), 116);
    h.write(octal(e.claimedSize ?? data.length, 12), 124);
    h.write(octal(0, 12), 136);
    h.write(e.type ?? '0', 156);
    h.write(e.link ?? '', 157, 100);
    h.write('ustar\x0000', 257, 'latin1');
    h.fill(0x20, 148, 156);
    let sum = 0;
    for (const b of h) sum += b;
    h.write(octal(sum, 7) + ' ', 148, 'latin1');
    blocks.push(h, data, Buffer.alloc((512 - (data.length % 512)) % 512));
  }
  return Buffer.concat([...blocks, Buffer.alloc(1024)]);
}

/** A newc cpio archive of files (mode given), ended by its trailer. */
export function cpioNewc(entries: { name: string; data?: Uint8Array; mode?: number }[]): Buffer {
  const parts: Buffer[] = [];
  const hex = (n: number) => n.toString(16).padStart(8, '0');
  const pad = (n: number) => Buffer.alloc((4 - (n % 4)) % 4);
  [...entries, { name: 'TRAILER!!!', data: new Uint8Array(0), mode: 0 }].forEach((e, i) => {
    const data = Buffer.from(e.data ?? []);
    const name = Buffer.from(`${e.name}\0`);
    const fields = [i + 1, e.mode ?? 0o100644, 0, 0, 1, 0, data.length, 0, 0, 0, 0, name.length, 0];
    const header = Buffer.from(`070701${fields.map(hex).join('')}`, 'latin1');
    parts.push(header, name, pad(110 + name.length), data, pad(data.length));
  });
  return Buffer.concat(parts);
}

/**
 * A zip of deflated entries. `sharedData`: every central-directory record points at the first entry's local
 * header (the overlapping-entries bomb: one compressed block listed many times).
 */
export function zip(entries: { name: string; data: Uint8Array; claimedSize?: number }[], sharedData = false): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const e of entries) {
    const packed = deflateRawSync(e.data);
    const name = Buffer.from(e.name);
    const crc = crc32Value(e.data);
    const size = e.claimedSize ?? e.data.length;
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(8, 8);
    local.writeUInt32LE(crc, 14);
    local.writeUInt32LE(packed.length, 18);
    local.writeUInt32LE(size, 22);
    local.writeUInt16LE(name.length, 26);
    const at = sharedData ? 0 : offset;
    if (!sharedData || locals.length === 0) {
      locals.push(local, name, packed);
      offset += 30 + name.length + packed.length;
    }
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(8, 10);
    central.writeUInt32LE(crc, 16);
    central.writeUInt32LE(packed.length, 20);
    central.writeUInt32LE(size, 24);
    central.writeUInt16LE(name.length, 28);
    central.writeUInt32LE(at, 42);
    centrals.push(central, name);
  }
  const cd = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(cd.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, cd, end]);
}
