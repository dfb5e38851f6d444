// Android boot images (boot.img, recovery.img): a header page, then the kernel, ramdisk and (by header version)
// second-stage loader, recovery DTBO and DTB, each starting on a page boundary. Versions 0–2 keep the page size
// in the header; 3 and 4 fix it at 4096 and drop the second stage (4 adds a boot signature after the ramdisk).
// Layout from AOSP's bootimg.h and mkbootimg.
import type { FirmwareFormat, Entry } from '../format.js';

const MAGIC = 'ANDROID!';
/** Header versions 3 and 4 fix the page size; their header is 1580 (v3) or 1584 (v4) bytes. */
const V3_PAGE_SIZE = 4096;
const V3_HEADER_SIZE = 1580;
const V4_HEADER_SIZE = 1584;
/** Versions 1 and 2 give their header size: at least 1648 (v1 adds the recovery DTBO) or 1660 (v2, the DTB). */
const HEADER_SIZE_BY_VERSION = [0, 1648, 1660];
/**
 * mkbootimg offers 2048–16384; NAND parts with larger pages exist, so up to 64 KiB is accepted. Every header
 * (1660 bytes at most) fits in the smallest page.
 */
const MIN_PAGE_SIZE = 2048;
const MAX_PAGE_SIZE = 65536;

interface Part {
  name: string;
  size: number;
}

interface Layout {
  version: number;
  pageSize: number;
  /** Parts in image order, each page-aligned after the header page; a zero size takes no pages. */
  parts: Part[];
  cmdline: Uint8Array;
  note?: string;
}

const u32 = (v: DataView, at: number) => v.getUint32(at, true);

/** Bytes up to the first NUL of b[at, at + n). */
function zeroEnded(b: Uint8Array, at: number, n: number): Uint8Array {
  const field = b.subarray(at, at + n);
  const nul = field.indexOf(0);
  return nul < 0 ? field : field.subarray(0, nul);
}

/** The parts and command line the header at b[0] describes, or null when it is no boot image header. */
function layout(b: Uint8Array): Layout | null {
  if (b.length < MIN_PAGE_SIZE || Buffer.from(b.subarray(0, 8)).toString('latin1') !== MAGIC) return null;
  const v = new DataView(b.buffer, b.byteOffset, b.byteLength);
  // The version sits at byte 40 in every layout.
  const version = u32(v, 40);
  if (version === 3 || version === 4) {
    const headerSize = u32(v, 20);
    const minimum = version === 3 ? V3_HEADER_SIZE : V4_HEADER_SIZE;
    if (headerSize < minimum || headerSize > V3_PAGE_SIZE) return null;
    const parts = [
      { name: 'kernel', size: u32(v, 8) },
      { name: 'ramdisk', size: u32(v, 12) },
    ];
    if (version === 4) parts.push({ name: 'boot_signature', size: u32(v, 1580) });
    return { version, pageSize: V3_PAGE_SIZE, parts, cmdline: zeroEnded(b, 44, 1536) };
  }
  const pageSize = u32(v, 36);
  if (pageSize < MIN_PAGE_SIZE || pageSize > MAX_PAGE_SIZE || (pageSize & (pageSize - 1)) !== 0) return null;
  const parts = [
    { name: 'kernel', size: u32(v, 8) },
    { name: 'ramdisk', size: u32(v, 16) },
    { name: 'second', size: u32(v, 24) },
  ];
  // cmdline[512] at 64, then extra_cmdline[1024] at 608: mkbootimg splits one command line across the two.
  const cmdline = Buffer.concat([zeroEnded(b, 64, 512), zeroEnded(b, 608, 1024)]);
  if (version === 1 || version === 2) {
    const headerSize = u32(v, 1644);
    if (headerSize < HEADER_SIZE_BY_VERSION[version]! || headerSize > pageSize) return null;
    parts.push({ name: 'recovery_dtbo', size: u32(v, 1632) });
    if (version === 2) parts.push({ name: 'dtb', size: u32(v, 1648) });
    return { version, pageSize, parts, cmdline };
  }
  if (version === 0) return { version, pageSize, parts, cmdline };
  // Qualcomm's version-0 images keep the size of a device-tree table where the version now is (its field was
  // "unused" then); the table follows the second stage. A value that is no such size overruns the input, and
  // the probe refuses it as it does any part that overruns.
  parts.push({ name: 'dtb', size: version });
  return { version: 0, pageSize, parts, cmdline, note: 'Qualcomm device tree' };
}

const align = (n: number, page: number) => Math.ceil(n / page) * page;

/** Where each part starts, and the image's end (the last part's end, page-aligned). */
function place(l: Layout): { starts: number[]; unalignedEnd: number; end: number } {
  const starts: number[] = [];
  let at = l.pageSize;
  let unalignedEnd = at;
  for (const p of l.parts) {
    starts.push(at);
    if (p.size > 0) unalignedEnd = at + p.size;
    at += align(p.size, l.pageSize);
  }
  return { starts, unalignedEnd, end: at };
}

export const androidBootFormat: FirmwareFormat = {
  name: 'android-boot',
  magics: [{ bytes: [...Buffer.from(MAGIC)] }],
  probe(data, offset) {
    const b = data.subarray(offset);
    const l = layout(b);
    if (!l || l.parts[0]!.size === 0) return null;
    const { starts, unalignedEnd, end } = place(l);
    // The last part must be whole; its page's padding may be cut off at the end of the input.
    if (unalignedEnd > b.length) return null;
    const size = Math.min(end, b.length);
    const present = l.parts.filter((p) => p.size > 0).map((p) => p.name);
    return {
      size,
      description: `header v${l.version}${l.note ? ` (${l.note})` : ''}, page ${l.pageSize}: ${present.join(', ')}`,
      *entries(): Generator<Entry> {
        for (const [i, p] of l.parts.entries())
          if (p.size > 0) yield { path: p.name, kind: 'file', data: b.subarray(starts[i]!, starts[i]! + p.size) };
        if (l.cmdline.length > 0) yield { path: 'cmdline.txt', kind: 'file', data: l.cmdline };
      },
    };
  },
};
