// U-Boot legacy images (uImage): a 64-byte big-endian header (checked by its own CRC-32), then the payload
// — one image, or for a multi-file image a zero-ended table of sizes and the images 4-aligned after it —
// compressed as the header says (kernels are mostly LZMA or gzip).
import { ByteView } from '../../formats/byte-view.js';
import { crc32Value } from '../../fuzzy/crc32.js';
import type { FirmwareFormat, Entry, ReadContext } from '../format.js';
import { decompressAs, type CompressionName } from './payload.js';

const MAGIC = 0x27051956;
const HEADER = 64;
const TYPE_MULTI = 4;
/** Images in a multi-file uImage (kernel, ramdisk, device trees …): more is no real image. */
const MAX_PARTS = 64;

const COMPRESSIONS: (CompressionName | null)[] = ['none', 'gzip', 'bzip2', 'lzma', 'lzo', 'lz4', 'zstd'];

function* entries(
  v: ByteView,
  name: string,
  type: number,
  comp: CompressionName | null,
  ctx: ReadContext,
): Generator<Entry> {
  const payload = v.bytes.subarray(HEADER);
  const parts: Uint8Array[] = [];
  if (type === TYPE_MULTI) {
    const sizes: number[] = [];
    for (let at = 0; sizes.length < MAX_PARTS && v.has(HEADER + at, 4); at += 4) {
      const s = v.u32(HEADER + at);
      if (s === 0) break;
      sizes.push(s);
    }
    let at = 4 * (sizes.length + 1);
    for (const s of sizes) {
      if (at + s > payload.length) {
        ctx.problem(`uImage ${name}: part of ${s} bytes runs past the image`);
        break;
      }
      parts.push(payload.subarray(at, at + s));
      at += Math.ceil(s / 4) * 4;
    }
  } else parts.push(payload);
  const base = name.replace(/[^\w.-]+/g, '_') || 'image';
  for (const [i, part] of parts.entries()) {
    const path = parts.length > 1 ? `${base}-${i}` : base;
    if (!comp) {
      ctx.problem(`uImage ${name}: unknown compression; its payload is kept as it is`);
      yield { path: `${path}.bin`, kind: 'file', data: part };
      continue;
    }
    // Only a single-image payload is compressed as the header says (a multi-file image's parts are not).
    const out = parts.length === 1 ? decompressAs(comp, part, ctx, `uImage ${name}`) : part;
    yield { path, kind: 'file', data: out ?? part };
  }
}

export const uimageFormat: FirmwareFormat = {
  name: 'uimage',
  magics: [{ bytes: [0x27, 0x05, 0x19, 0x56] }],
  probe(data, offset) {
    const v = new ByteView(data.subarray(offset), false);
    if (!v.has(0, HEADER) || v.u32(0) !== MAGIC) return null;
    const header = Uint8Array.from(v.bytes.subarray(0, HEADER));
    header.fill(0, 4, 8);
    if (crc32Value(header) !== v.u32(4)) return null;
    const size = HEADER + v.u32(12);
    if (size > v.length) return null;
    const name = v.fixedString(32, 32);
    const comp = COMPRESSIONS[v.u8(31)] ?? null;
    const type = v.u8(30);
    const image = new ByteView(v.bytes.subarray(0, size), false);
    return {
      size,
      description: `${name}: type ${type}, compression ${comp ?? v.u8(31)}, load 0x${v.u32(16).toString(16)}`,
      entries: (ctx) => entries(image, name, type, comp, ctx),
    };
  },
};
