// Broadcom TRX (routers from Linksys, Netgear, ASUS …): "HDR0", the image length, a CRC-32 of everything
// after the first 12 bytes, flags/version, and the offsets of up to three (v1) or four (v2) partitions —
// boot loader, kernel, root filesystem — each running to the next or to the image's end.
import { ByteView } from '../../formats/byte-view.js';
import { crc32Update } from '../../fuzzy/crc32.js';
import type { FirmwareFormat, Entry } from '../format.js';

const HEADER_V1 = 28;

export const trxFormat: FirmwareFormat = {
  name: 'trx',
  magics: [{ bytes: [0x48, 0x44, 0x52, 0x30] }],
  probe(data, offset) {
    const v = new ByteView(data.subarray(offset), true);
    const length = v.u32(4);
    const version = v.u16(14);
    if (!v.has(0, HEADER_V1) || (version !== 1 && version !== 2) || length < HEADER_V1 || length > v.length)
      return null;
    // Seed and final inversion as CRC-32, but the result is stored uninverted (crc32 & 0xffffffff of the BCM tool).
    if (crc32Update(-1, v.bytes.subarray(12, length)) !== v.u32(8)) return null;
    const count = version === 1 ? 3 : 4;
    const offsets = Array.from({ length: count }, (_, i) => v.u32(16 + 4 * i)).filter((o) => o > 0 && o < length);
    const header = 16 + 4 * count;
    if (offsets.some((o, i) => o < header || (i > 0 && o <= offsets[i - 1]!))) return null;
    const image = v.bytes.subarray(0, length);
    return {
      size: length,
      description: `v${version}, ${offsets.length} partitions`,
      *entries(): Generator<Entry> {
        for (const [i, o] of offsets.entries())
          yield { path: `partition-${i}`, kind: 'file', data: image.subarray(o, offsets[i + 1] ?? length) };
      },
    };
  },
};
