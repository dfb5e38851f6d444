// UBIFS, the file system on UBI volumes: a superblock node in LEB 0, master nodes in LEBs 1 and 2 pointing
// at the root of the index B+-tree, and the tree's leaves (inode, data and directory-entry nodes) anywhere
// in the main area. nodes.ts checks nodes and reads the superblock and master, index-tree.ts walks the
// index, files.ts reads the leaves; here the directory entries become the tree. The same reader takes a bare
// image (mkfs.ubifs output) and a volume taken out of UBI (a `.ubivol` file). Only the journal's
// uncommitted nodes are not replayed: mkfs images have none, and a dump of a live system may lose its last
// writes. Imports only the firmware compression modules and the project's CRC-32.
import { DecodeError } from '../../compression/errors.js';
import { type FirmwareFormat, type Entry, type EntryKind, type ReadContext, unixKind } from '../../format.js';
import { CRYPT_FL, fileBytes, readDirent, readInode, type Dirent, type Inode } from './files.js';
import { walkIndex, type Leaves } from './index-tree.js';
import { FLG_AUTHENTICATION, FLG_ENCRYPTION, newestMaster, superblockAt, Volume, type Master } from './nodes.js';

const ROOT_INO = 1;
/** Directory levels followed: real trees are a dozen deep; a hostile one stops here. */
const MAX_DEPTH = 64;

/** UBIFS_ITYPE_* in directory entries, for an inode whose node is lost. */
const KIND_BY_ITYPE: EntryKind[] = ['file', 'dir', 'symlink', 'device', 'device', 'fifo', 'socket'];

const COMPRESSORS = ['none', 'lzo', 'zlib', 'zstd'];

/** The live name → inode links of each directory, sorted by name so the output is the same every time. */
function directories(vol: Volume, leaves: Leaves, problem: (m: string) => void): Map<number, Dirent[]> {
  const children = new Map<number, Dirent[]>();
  let damaged = 0;
  for (const ref of leaves.dents) {
    const d = readDirent(vol, ref);
    if (!d) {
      damaged++;
      continue;
    }
    const list = children.get(d.parent);
    if (list) list.push(d);
    else children.set(d.parent, [d]);
  }
  if (damaged) problem(`${damaged} directory entries are damaged; what they name is missing`);
  for (const list of children.values()) list.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  return children;
}

function* entries(vol: Volume, master: Master | null, ctx: ReadContext): Generator<Entry> {
  if (!master) throw new DecodeError('ubifs: no valid master node in LEBs 1 and 2');
  const problem = (m: string) => ctx.problem(`ubifs: ${m}`);
  const root = { lnum: master.rootLnum, offs: master.rootOffs, len: master.rootLen };
  const leaves = walkIndex(vol, root, problem);
  if (leaves.indexNodes === 0) throw new DecodeError('ubifs: the index root is damaged');
  const children = directories(vol, leaves, problem);
  const inodes = new Map<number, Inode | null>();
  const inode = (inum: number) => {
    let i = inodes.get(inum);
    if (i === undefined) {
      const ref = leaves.inodes.get(inum);
      i = ref ? readInode(vol, ref) : null;
      inodes.set(inum, i);
    }
    return i;
  };
  const firstPath = new Map<number, string>();
  const dirsSeen = new Set<number>([ROOT_INO]);
  let reached = 0;

  function* walk(dirIno: number, prefix: string, depth: number): Generator<Entry> {
    for (const d of children.get(dirIno) ?? []) {
      reached++;
      const path = prefix + d.name;
      const node = inode(d.inum);
      const kind = node ? unixKind(node.mode) : KIND_BY_ITYPE[d.type];
      const mode = node ? node.mode & 0o7777 : undefined;
      if (!kind) {
        problem(`${path} has unknown type (mode 0o${(node?.mode ?? 0).toString(8)}, entry type ${d.type})`);
        continue;
      }
      const linked = firstPath.get(d.inum);
      if (kind === 'dir') {
        if (dirsSeen.has(d.inum)) {
          problem(`directory ${path} is linked again (inode ${d.inum} is already ${linked ?? '/'})`);
          continue;
        }
        dirsSeen.add(d.inum);
        firstPath.set(d.inum, path);
        yield { path, kind, mode };
        if (depth >= MAX_DEPTH) problem(`${path} is deeper than ${MAX_DEPTH} levels; not followed`);
        else yield* walk(d.inum, `${path}/`, depth + 1);
      } else if (linked !== undefined) {
        yield { path, kind: 'hardlink', target: linked, mode };
      } else if (!node) {
        problem(`${path} (inode ${d.inum}) has no readable inode node`);
      } else if (node.flags & CRYPT_FL) {
        problem(`${path} is encrypted (fscrypt); it is not extracted`);
      } else {
        firstPath.set(d.inum, path);
        if (kind === 'file') {
          const blocks = leaves.data.get(d.inum) ?? [];
          const data = fileBytes(vol, node, blocks, ctx.remaining(), (m) => problem(`${path}: ${m}`));
          yield { path, kind, mode, data };
        } else if (kind === 'symlink') yield { path, kind, mode, target: Buffer.from(node.inline).toString('utf8') };
        else yield { path, kind, mode };
      }
    }
  }

  yield* walk(ROOT_INO, '', 1);
  let live = 0;
  for (const list of children.values()) live += list.length;
  if (reached < live) problem(`${live - reached} directory entries are not reachable from the root`);
}

export const ubifsFormat: FirmwareFormat = {
  name: 'ubifs',
  magics: [{ bytes: [0x31, 0x18, 0x10, 0x06] }],
  probe(data, offset) {
    const sb = superblockAt(data, offset);
    if (!sb) return null;
    const master = newestMaster(new Volume(data, offset, sb.lebSize, sb.lebCount));
    // The master's count is newer: the kernel grows a file system to fill its volume on first mount.
    const lebCount = Math.max(sb.lebCount, master?.lebCount ?? 0);
    const vol = new Volume(data, offset, sb.lebSize, lebCount);
    const flags = [
      sb.flags & FLG_ENCRYPTION ? ', encryption' : '',
      sb.flags & FLG_AUTHENTICATION ? ', authenticated' : '',
      master ? '' : ', no valid master node',
    ].join('');
    return {
      size: Math.min(data.length - offset, lebCount * sb.lebSize),
      description:
        `format ${sb.fmtVersion}, ${sb.lebSize}-byte LEBs × ${lebCount}, min. I/O ${sb.minIoSize}, ` +
        `${COMPRESSORS[sb.defaultCompr] ?? `compressor ${sb.defaultCompr}`}${flags}`,
      entries: (ctx) => entries(vol, master, ctx),
    };
  },
};
