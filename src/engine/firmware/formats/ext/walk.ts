// The tree from the root directory (inode 2) down, as entries: a directory before what it holds, a
// non-directory inode met again as a hard link to its first path, a directory met again (a cycle, or a
// hostile image sharing one) as a problem. One unreadable entry is a problem; the walk goes on.
import { DecodeError } from '../../compression/errors.js';
import type { Entry } from '../../format.js';
import { fileBytes, symlinkTarget } from './contents.js';
import { DirectoryReader } from './directories.js';
import { readInode, type Inode } from './inodes.js';
import type { Volume } from './volume.js';

const ROOT_INODE = 2;
/** Directories nested deeper than this are left out (with a problem): real trees stay under 20. */
const MAX_DEPTH = 64;

export function* walk(vol: Volume): Generator<Entry> {
  const { ctx } = vol;
  const root = readInode(vol, ROOT_INODE);
  if (root.kind !== 'dir') throw new DecodeError(`ext: the root inode is a ${root.kind}`);
  const directories = new DirectoryReader(vol);
  const dirsSeen = new Set<number>([ROOT_INODE]);
  /** Path each non-directory inode was first given, or null when it could not be read. */
  const firstPath = new Map<number, string | null>();

  function* inside(dir: Inode, prefix: string, depth: number): Generator<Entry> {
    let listing;
    try {
      listing = directories.list(dir, prefix);
    } catch (err) {
      // The root's listing gone is the whole volume gone, as are listings past the volume's bytes; a
      // subdirectory's is one problem.
      if (!(err instanceof DecodeError) || depth === 0 || directories.exhausted) throw err;
      ctx.problem(`ext: ${prefix}: listing unreadable: ${err.message.replace(/^ext: /, '')}`);
      return;
    }
    for (const { name, inode } of listing) {
      const path = prefix ? `${prefix}/${name}` : name;
      const found = visit(path, inode);
      if (!found) continue;
      yield found.entry;
      if (!found.dir) continue;
      if (depth + 1 > MAX_DEPTH) ctx.problem(`ext: ${path}: directories nested past ${MAX_DEPTH} levels left out`);
      else yield* inside(found.dir, path, depth + 1);
    }
  }

  /** The entry for inode `n` met at `path` (and the directory to go into), or null after a problem. */
  function visit(path: string, n: number): { entry: Entry; dir?: Inode } | null {
    const first = firstPath.get(n);
    if (first === null) ctx.problem(`ext: ${path}: the same unreadable inode ${n} as before`);
    if (first !== undefined) return first === null ? null : { entry: { path, kind: 'hardlink', target: first } };
    try {
      const node = readInode(vol, n);
      if (node.kind === 'dir') {
        if (dirsSeen.has(n)) {
          ctx.problem(`ext: ${path}: directory inode ${n} reached a second time (left out)`);
          return null;
        }
        dirsSeen.add(n);
        return { entry: { path, kind: 'dir', mode: node.mode }, dir: node };
      }
      firstPath.set(n, null);
      const { kind, mode } = node;
      const entry: Entry =
        kind === 'file'
          ? { path, kind, mode, data: fileBytes(vol, node) }
          : kind === 'symlink'
            ? { path, kind, mode, target: symlinkTarget(vol, node) }
            : { path, kind, mode };
      firstPath.set(n, path);
      return { entry };
    } catch (err) {
      if (!(err instanceof DecodeError)) throw err;
      ctx.problem(`ext: ${path}: ${err.message.replace(/^ext: /, '')}`);
      return null;
    }
  }

  yield* inside(root, '', 0);
}
