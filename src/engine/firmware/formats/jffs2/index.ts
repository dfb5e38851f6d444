// JFFS2, the log-structured flash file system: nodes.ts scans the node log, inode.ts assembles a file from
// its data nodes, compressors.ts decodes them; here the directory entries become the tree. Imports only
// the firmware compression modules and node:zlib (CRC-32).
import { type FirmwareFormat, type Entry, type EntryKind, type ReadContext, unixKind } from '../../format.js';
import { inodeData, inodeOf, type Inode } from './inode.js';
import { byteOrderAt, Fields, scanNodes, type Dirent, type NodeLog } from './nodes.js';

const ROOT_INO = 1;
/** Directory levels followed: real trees are a dozen deep; a hostile one stops here. */
const MAX_DEPTH = 64;

/** DT_* types in directory entries, for an inode that has no node left. */
const KIND_BY_DT: Record<number, EntryKind> = {
  1: 'fifo',
  2: 'device',
  4: 'dir',
  6: 'device',
  8: 'file',
  10: 'symlink',
  12: 'socket',
};

/** The live name → inode links: the newest entry per (parent, name), deletions (inode 0) dropped. */
function liveChildren(dirents: Dirent[]): Map<number, Dirent[]> {
  const newest = new Map<string, Dirent>();
  for (const d of dirents) {
    const key = `${d.pino}/${d.name}`;
    const cur = newest.get(key);
    if (!cur || d.version >= cur.version) newest.set(key, d);
  }
  const children = new Map<number, Dirent[]>();
  for (const d of newest.values()) {
    if (d.ino === 0) continue;
    const list = children.get(d.pino);
    if (list) list.push(d);
    else children.set(d.pino, [d]);
  }
  for (const list of children.values()) list.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  return children;
}

function* entries(f: Fields, log: NodeLog, ctx: ReadContext): Generator<Entry> {
  for (const p of log.problems) ctx.problem(p);
  if (log.moreProblems) ctx.problem(`jffs2: ${log.moreProblems} more damaged nodes`);
  const children = liveChildren(log.dirents);
  const inodes = new Map<number, Inode | null>();
  const inode = (ino: number) => {
    let i = inodes.get(ino);
    if (i === undefined) {
      const refs = log.inodes.get(ino);
      i = refs ? inodeOf(f, refs) : null;
      inodes.set(ino, i);
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
      const node = inode(d.ino);
      const kind = node ? unixKind(node.mode) : KIND_BY_DT[d.type];
      const mode = node ? node.mode & 0o7777 : undefined;
      if (!kind) {
        ctx.problem(`jffs2: ${path} has unknown type (mode 0o${(node?.mode ?? 0).toString(8)}, dirent ${d.type})`);
        continue;
      }
      const linked = firstPath.get(d.ino);
      if (kind === 'dir') {
        if (dirsSeen.has(d.ino)) {
          ctx.problem(`jffs2: directory ${path} is linked again (inode ${d.ino} is already ${linked ?? '/'})`);
          continue;
        }
        dirsSeen.add(d.ino);
        firstPath.set(d.ino, path);
        yield { path, kind, mode };
        if (depth >= MAX_DEPTH) ctx.problem(`jffs2: ${path} is deeper than ${MAX_DEPTH} levels; not followed`);
        else yield* walk(d.ino, `${path}/`, depth + 1);
      } else if (linked !== undefined) {
        yield { path, kind: 'hardlink', target: linked, mode };
      } else if (!node) {
        ctx.problem(`jffs2: ${path} (inode ${d.ino}) has no inode node`);
      } else {
        firstPath.set(d.ino, path);
        if (kind === 'file') yield { path, kind, mode, data: inodeData(f, node, ctx, path) };
        else if (kind === 'symlink')
          yield { path, kind, mode, target: Buffer.from(inodeData(f, node, ctx, path)).toString('utf8') };
        else yield { path, kind, mode };
      }
    }
  }

  yield* walk(ROOT_INO, '', 1);
  let live = 0;
  for (const list of children.values()) live += list.length;
  if (reached < live) ctx.problem(`jffs2: ${live - reached} directory entries are not reachable from the root`);
}

export const jffs2Format: FirmwareFormat = {
  name: 'jffs2',
  magics: [{ bytes: [0x85, 0x19] }, { bytes: [0x19, 0x85] }],
  probe(data, offset) {
    const littleEndian = byteOrderAt(data, offset);
    if (littleEndian === null) return null;
    const log = scanNodes(data, offset, littleEndian);
    const block = log.eraseBlock ? `, ${log.eraseBlock >> 10} KiB erase blocks` : '';
    return {
      size: log.end - offset,
      description: `${littleEndian ? 'little' : 'big'}-endian, ${log.nodes} nodes, ${log.inodes.size} inodes${block}`,
      entries: (ctx) => entries(new Fields(data, littleEndian), log, ctx),
    };
  },
};
