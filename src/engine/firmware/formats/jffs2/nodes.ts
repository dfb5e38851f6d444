// The JFFS2 node log: a run of 4-byte-aligned nodes, each opening with a 12-byte header (magic 0x1985,
// node type, total length, header CRC), in the byte order of the machine that wrote it, with erased flash
// (0xFF) between them. One pass over it checks every header and node CRC and keeps where each directory
// entry and inode node lies; data CRCs are checked when a file is read.
import { crc32 } from 'node:zlib';

const MAGIC = 0x1985;
const HEADER = 12;
const DIRENT_HEADER = 40;
export const INODE_HEADER = 68;

/** Node types: the top two bits say what a reader that does not know the type must do. */
const DIRENT = 0xe001;
const INODE = 0xe002;
const CLEANMARKER = 0x2003;
const PADDING = 0x2004;
const SUMMARY = 0x2006;
const XATTR = 0xe008;
const XREF = 0xe009;
/** Cleared (on NOR flash) when a node is superseded: the kernel skips such nodes. */
const ACCURATE = 0x2000;
const INCOMPAT = 0xc000;
const SKIPPED = new Set([CLEANMARKER, PADDING, SUMMARY, XATTR, XREF]);

/** Flash erases in blocks of a power of two (4 KiB to 1 MiB in practice; mkfs.jffs2's default is 64 KiB). */
const MIN_ERASE_BLOCK = 4 << 10;
const MAX_ERASE_BLOCK = 16 << 20;
const DEFAULT_ERASE_BLOCK = 64 << 10;
const ERASED = 0xffffffff;
/** Damage messages kept per scan: a worn-out flash dump can have thousands of bad nodes; the rest are counted. */
const MAX_PROBLEMS = 100;

/**
 * JFFS2's CRC-32: the kernel's crc32(0, …), the reflected 0xEDB88320 polynomial with seed 0 and no final
 * xor. zlib's crc32 inverts before and after, so seeding it with ~0 and inverting the result gives it.
 */
export const jffs2Crc = (bytes: Uint8Array): number => ~crc32(bytes, 0xffffffff) >>> 0;

export interface Dirent {
  /** Where the node starts in the image. */
  at: number;
  pino: number;
  version: number;
  /** 0: the name was deleted at this version. */
  ino: number;
  /** DT_* type from the directory entry (used when the inode has no node). */
  type: number;
  name: string;
}

/** A data (inode) node: where it starts and its version; the rest is read from the image when needed. */
export interface InodeRef {
  at: number;
  version: number;
}

export interface NodeLog {
  littleEndian: boolean;
  /** Where the chunk ends (after the last node, or after its erase block when the image is padded). */
  end: number;
  dirents: Dirent[];
  inodes: Map<number, InodeRef[]>;
  /** The erase block size the layout shows (cleanmarkers, padding), or null. */
  eraseBlock: number | null;
  /** Damage met while scanning: bad CRCs, garbage skipped, unknown incompatible nodes (the first 100). */
  problems: string[];
  /** Damage not in `problems`. */
  moreProblems: number;
  nodes: number;
}

/** Byte-order aware field reads over the whole image. */
export class Fields {
  private readonly view: DataView;
  constructor(
    readonly data: Uint8Array,
    readonly littleEndian: boolean,
  ) {
    this.view = new DataView(data.buffer, data.byteOffset, data.byteLength);
  }
  u16 = (at: number) => this.view.getUint16(at, this.littleEndian);
  u32 = (at: number) => this.view.getUint32(at, this.littleEndian);
}

/** Whether a node header with a good CRC and a length that fits in the image starts at `at`. */
function headerAt(f: Fields, at: number): boolean {
  if (at + HEADER > f.data.length || f.u16(at) !== MAGIC) return false;
  const totlen = f.u32(at + 4);
  return totlen >= HEADER && totlen <= f.data.length - at && jffs2Crc(f.data.subarray(at, at + 8)) === f.u32(at + 8);
}

/** The byte order of a node log whose first node starts at `offset`, or null when none does. */
export function byteOrderAt(data: Uint8Array, offset: number): boolean | null {
  for (const little of [true, false]) if (headerAt(new Fields(data, little), offset)) return little;
  return null;
}

function damage(log: NodeLog, message: string): void {
  if (log.problems.length < MAX_PROBLEMS) log.problems.push(message);
  else log.moreProblems++;
}

const pad4 = (n: number) => (n + 3) & ~3;
const gcd = (a: number, b: number): number => (b === 0 ? a : gcd(b, a % b));

/** Every node from `start` on, in the given byte order, with the chunk's extent. */
export function scanNodes(data: Uint8Array, start: number, littleEndian: boolean): NodeLog {
  const f = new Fields(data, littleEndian);
  const log: NodeLog = {
    littleEndian,
    end: start,
    dirents: [],
    inodes: new Map(),
    eraseBlock: null,
    problems: [],
    moreProblems: 0,
    nodes: 0,
  };
  // Offsets (from start) where an erase block visibly begins: cleanmarkers, and nodes after erased space.
  let blockGcd = 0;
  let lastEnd = start;
  let afterErased = false;
  let at = start;
  while (at + 4 <= data.length) {
    if (f.u32(at) === ERASED) {
      at += 4;
      afterErased = true;
      continue;
    }
    if (!headerAt(f, at)) {
      const next = resync(f, at, start, blockGcd);
      if (next < 0) break;
      damage(log, `jffs2: ${next - at} damaged bytes skipped at ${at}`);
      at = next;
      continue;
    }
    const type = f.u16(at + 2);
    const totlen = f.u32(at + 4);
    if (type === CLEANMARKER || afterErased) blockGcd = gcd(blockGcd, at - start);
    afterErased = false;
    readNode(f, at, type, totlen, log);
    log.nodes++;
    lastEnd = at + totlen;
    at += pad4(totlen);
  }
  const block = blockGcd & -blockGcd;
  log.eraseBlock = block >= MIN_ERASE_BLOCK && block <= MAX_ERASE_BLOCK ? block : null;
  log.end = chunkEnd(f, start, Math.min(pad4(lastEnd), data.length), log.eraseBlock ?? DEFAULT_ERASE_BLOCK);
  return log;
}

/**
 * The next valid header after damage at `at`, searched to the end of its erase block (a partly written
 * node ends there at the latest; 64 KiB when the block size is not yet known); -1 when there is none,
 * and the damage is where the file system ends.
 */
function resync(f: Fields, at: number, start: number, blockGcd: number): number {
  const known = blockGcd & -blockGcd;
  const block = known >= MIN_ERASE_BLOCK && known <= MAX_ERASE_BLOCK ? known : DEFAULT_ERASE_BLOCK;
  const limit = Math.min(f.data.length, start + (Math.floor((at - start) / block) + 1) * block);
  for (let p = at + 4; p + HEADER <= limit; p += 4) if (headerAt(f, p)) return p;
  return -1;
}

/** After the last node, erased flash up to the end of its erase block belongs to the chunk. */
function chunkEnd(f: Fields, start: number, lastEnd: number, block: number): number {
  const blockEnd = Math.min(f.data.length, start + Math.ceil((lastEnd - start) / block) * block);
  let at = lastEnd;
  while (at + 4 <= blockEnd && f.u32(at) === ERASED) at += 4;
  while (at < blockEnd && f.data[at] === 0xff) at++;
  return at === blockEnd ? blockEnd : lastEnd;
}

function readNode(f: Fields, at: number, type: number, totlen: number, log: NodeLog): void {
  if (type === DIRENT) readDirent(f, at, totlen, log);
  else if (type === INODE) readInode(f, at, totlen, log);
  else if (!(type & ACCURATE) || SKIPPED.has(type)) return;
  else if ((type & INCOMPAT) === INCOMPAT) damage(log, `jffs2: unknown node type 0x${type.toString(16)} at ${at}`);
}

function readDirent(f: Fields, at: number, totlen: number, log: NodeLog): void {
  const nsize = totlen >= DIRENT_HEADER ? f.data[at + 28]! : 0;
  if (totlen < DIRENT_HEADER + nsize || nsize === 0) {
    damage(log, `jffs2: directory entry at ${at} has length ${totlen}`);
    return;
  }
  const name = f.data.subarray(at + DIRENT_HEADER, at + DIRENT_HEADER + nsize);
  if (jffs2Crc(f.data.subarray(at, at + 32)) !== f.u32(at + 32) || jffs2Crc(name) !== f.u32(at + 36)) {
    damage(log, `jffs2: directory entry at ${at} fails its CRC`);
    return;
  }
  log.dirents.push({
    at,
    pino: f.u32(at + 12),
    version: f.u32(at + 16),
    ino: f.u32(at + 20),
    type: f.data[at + 29]!,
    name: Buffer.from(name).toString('utf8'),
  });
}

function readInode(f: Fields, at: number, totlen: number, log: NodeLog): void {
  if (totlen < INODE_HEADER || f.u32(at + 48) > totlen - INODE_HEADER) {
    damage(log, `jffs2: inode node at ${at} has length ${totlen}`);
    return;
  }
  if (jffs2Crc(f.data.subarray(at, at + 60)) !== f.u32(at + 64)) {
    damage(log, `jffs2: inode node at ${at} fails its CRC`);
    return;
  }
  const ino = f.u32(at + 12);
  const refs = log.inodes.get(ino);
  const ref = { at, version: f.u32(at + 16) };
  if (refs) refs.push(ref);
  else log.inodes.set(ino, [ref]);
}
