// Flattened device trees: a plain device tree blob (kept whole), or a U-Boot FIT image — a device tree whose
// /images/<name> nodes carry (or point after the tree at) kernels, ramdisks and device trees, each with its
// compression. Tree walked with bounded depth and node count.
import { ByteView } from '../../formats/byte-view.js';
import type { FirmwareFormat, Entry, ReadContext } from '../format.js';
import { decompressAs, type CompressionName } from './payload.js';

const MAGIC = 0xd00dfeed;
const BEGIN_NODE = 1;
const END_NODE = 2;
const PROP = 3;
const NOP = 4;
const END = 9;
const MAX_DEPTH = 32;
const MAX_TOKENS = 1_000_000;
const COMPRESSIONS = new Set<string>(['none', 'gzip', 'bzip2', 'lzma', 'lzo', 'lz4', 'zstd']);

interface Node {
  name: string;
  props: Map<string, Uint8Array>;
  children: Node[];
}

/** The tree, or null when the structure block is not a well-formed tree. */
function readTree(v: ByteView): Node | null {
  const structAt = v.u32(8);
  const stringsAt = v.u32(12);
  const structSize = v.u32(36);
  if (!v.has(structAt, structSize) || !v.has(stringsAt, v.u32(32))) return null;
  const stack: Node[] = [];
  let root: Node | null = null;
  let at = structAt;
  for (let n = 0; n < MAX_TOKENS && at + 4 <= structAt + structSize; n++) {
    const token = v.u32(at);
    at += 4;
    if (token === BEGIN_NODE) {
      const name = v.cstring(at, 256);
      at += Math.ceil((name.length + 1) / 4) * 4;
      const node: Node = { name, props: new Map(), children: [] };
      if (stack.length >= MAX_DEPTH) return null;
      if (stack.length) stack[stack.length - 1]!.children.push(node);
      else if (root) return null;
      else root = node;
      stack.push(node);
    } else if (token === END_NODE) {
      if (!stack.pop()) return null;
    } else if (token === PROP) {
      const length = v.u32(at);
      const name = v.cstring(stringsAt + v.u32(at + 4), 256);
      if (!stack.length || !v.has(at + 8, length)) return null;
      stack[stack.length - 1]!.props.set(name, v.bytes.subarray(at + 8, at + 8 + length));
      at += 8 + Math.ceil(length / 4) * 4;
    } else if (token === END) return stack.length === 0 ? root : null;
    else if (token !== NOP) return null;
  }
  return null;
}

const text = (b: Uint8Array | undefined) => (b ? Buffer.from(b).toString('latin1').replace(/\0.*$/s, '') : '');
const u32 = (b: Uint8Array | undefined) => (b && b.length >= 4 ? new ByteView(b, false).u32(0) : null);

function* fitImages(images: Node, blob: Uint8Array, treeSize: number, ctx: ReadContext): Generator<Entry> {
  for (const image of images.children) {
    let data = image.props.get('data');
    if (!data) {
      // External data: after the tree (data-offset, from its 4-aligned end) or at an absolute data-position.
      const size = u32(image.props.get('data-size'));
      const offset = u32(image.props.get('data-offset'));
      const position = u32(image.props.get('data-position'));
      const at = position ?? (offset !== null ? Math.ceil(treeSize / 4) * 4 + offset : null);
      if (size === null || at === null || at + size > blob.length) {
        ctx.problem(`FIT image ${image.name}: no data, or its data runs past the image`);
        continue;
      }
      data = blob.subarray(at, at + size);
    }
    const comp = text(image.props.get('compression')) || 'none';
    const name = image.name.replace(/[^\w.@-]+/g, '_');
    const out = COMPRESSIONS.has(comp) ? decompressAs(comp as CompressionName, data, ctx, `FIT image ${name}`) : null;
    if (!COMPRESSIONS.has(comp)) ctx.problem(`FIT image ${name}: unknown compression ${comp}; kept as it is`);
    yield { path: `images/${name}`, kind: 'file', data: out ?? data };
  }
}

/** Where a FIT's external data ends (the last image's end), so the chunk covers it. */
function externalEnd(images: Node | undefined, treeSize: number): number {
  let end = treeSize;
  for (const image of images?.children ?? []) {
    const size = u32(image.props.get('data-size')) ?? 0;
    const offset = u32(image.props.get('data-offset'));
    const position = u32(image.props.get('data-position'));
    if (position !== null) end = Math.max(end, position + size);
    else if (offset !== null) end = Math.max(end, Math.ceil(treeSize / 4) * 4 + offset + size);
  }
  return end;
}

export const fdtFormat: FirmwareFormat = {
  name: 'fdt',
  magics: [{ bytes: [0xd0, 0x0d, 0xfe, 0xed] }],
  probe(data, offset) {
    const v = new ByteView(data.subarray(offset), false);
    const treeSize = v.u32(4);
    const version = v.u32(20);
    if (v.u32(0) !== MAGIC || treeSize < 40 || treeSize > v.length || version < 16 || version > 17) return null;
    const root = readTree(new ByteView(v.bytes.subarray(0, treeSize), false));
    if (!root) return null;
    const images = root.children.find((c) => c.name === 'images');
    // mkimage pads each external image to 4 bytes, the last one too.
    const end = externalEnd(images, treeSize);
    const size = Math.min(v.length, end > treeSize ? Math.ceil(end / 4) * 4 : treeSize);
    const blob = v.bytes.subarray(0, size);
    return images
      ? {
          size,
          description: `FIT image: ${images.children.map((c) => c.name).join(', ')}`,
          entries: (ctx) => fitImages(images, blob, treeSize, ctx),
        }
      : { size, description: 'device tree', entries: () => [] };
  },
};
