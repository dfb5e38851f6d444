// The tree from the root directory down, as entries: directories before what they hold, a non-directory
// inode met a second time as a hard link to its first path, a directory met a second time (a cycle, or a
// hostile image sharing one) as a problem. One unreadable entry is a problem; the walk goes on.
import { DecodeError } from '../../compression/errors.js';
import type { Entry } from '../../format.js';
import { readListing } from './directories.js';
import { Fragments, readFile } from './files.js';
import type { Image } from './image.js';
import { readInode, type DirInode, type Inode } from './inodes.js';
import { MetadataTable } from './metadata.js';
import { directoryTableEnd } from './superblock.js';

/** Directories nested deeper than this are left out (with a problem): real trees stay under 20. */
const MAX_DEPTH = 64;
const targets = new TextDecoder('utf-8');

export function* walk(image: Image): Generator<Entry> {
  const { sb, view, ctx } = image;
  const inodes = new MetadataTable(image, sb.inodeTableStart, sb.directoryTableStart, 'inode');
  const directories = new MetadataTable(image, sb.directoryTableStart, directoryTableEnd(sb), 'directory');
  const fragments = new Fragments(image);
  const inode = (ref: number): Inode => readInode(inodes, view, ref, sb.blockSize);
  const root = inode(sb.rootInode);
  if (root.kind !== 'dir') throw new DecodeError(`squashfs: the root inode is a ${root.kind}`);
  const dirsSeen = new Set<number>([sb.rootInode]);
  /** Path each non-directory inode was first given, or null when it could not be read. */
  const firstPath = new Map<number, string | null>();

  function* inside(dir: DirInode, prefix: string, depth: number): Generator<Entry> {
    let listing;
    try {
      listing = readListing(directories, view, dir);
    } catch (err) {
      // The root's listing gone is the whole image gone; a subdirectory's is one problem.
      if (!(err instanceof DecodeError) || depth === 0) throw err;
      ctx.problem(`${prefix}: listing unreadable: ${err.message}`);
      return;
    }
    for (const { name, inode: ref } of listing) {
      const path = prefix ? `${prefix}/${name}` : name;
      const found = visit(path, ref);
      if (!found) continue;
      yield found.entry;
      if (!found.dir) continue;
      if (depth + 1 > MAX_DEPTH) ctx.problem(`${path}: directories nested past ${MAX_DEPTH} levels left out`);
      else yield* inside(found.dir, path, depth + 1);
    }
  }

  /** The entry for inode `ref` met at `path` (and the directory to go into), or null after a problem. */
  function visit(path: string, ref: number): { entry: Entry; dir?: DirInode } | null {
    const first = firstPath.get(ref);
    if (first === null) ctx.problem(`${path}: the same unreadable inode as before`);
    if (first !== undefined) return first === null ? null : { entry: { path, kind: 'hardlink', target: first } };
    try {
      const node = inode(ref);
      if (node.kind === 'dir') {
        if (dirsSeen.has(ref)) {
          ctx.problem(`${path}: directory inode ${ref} reached a second time (left out)`);
          return null;
        }
        dirsSeen.add(ref);
        return { entry: { path, kind: 'dir', mode: node.mode }, dir: node };
      }
      firstPath.set(ref, null);
      const entry: Entry =
        node.kind === 'file'
          ? { path, kind: 'file', mode: node.mode, data: readFile(image, inodes, fragments, node) }
          : node.kind === 'symlink'
            ? { path, kind: 'symlink', mode: node.mode, target: targets.decode(node.target) }
            : { path, kind: node.kind, mode: node.mode };
      firstPath.set(ref, path);
      return { entry };
    } catch (err) {
      if (!(err instanceof DecodeError)) throw err;
      ctx.problem(`${path}: ${err.message}`);
      return null;
    }
  }

  yield* inside(root, '', 0);
}
