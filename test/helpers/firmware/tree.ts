// Source trees for the firmware readers' tests, written to disk for the real tools to pack, and the check that
// what a reader gives back is that tree: paths, kinds, bytes, link targets (and modes), compared exactly.
// sourceTree is a small one: files of random and text bytes, an empty file, a nested directory, a long name
// and a symbolic link.
import assert from 'node:assert/strict';
import { linkSync, lstatSync, mkdirSync, readdirSync, readFileSync, readlinkSync, symlinkSync } from 'node:fs';
import { writeFileSync, chmodSync, type Stats } from 'node:fs';
import { join } from 'node:path';
import type { Entry, EntryKind } from '../../../src/engine/firmware/format.js';
import { noise } from '../samples.js';
import { runTool } from './tools.js';

/** The tree's regular files by relative path. */
export function sourceTree(dir: string, seed = 1): Map<string, Buffer> {
  const files = new Map<string, Buffer>([
    ['bin/tool', noise(70_000, seed)],
    ['etc/config.txt', Buffer.from('hostname=router\n'.repeat(300))],
    ['etc/empty', Buffer.alloc(0)],
    [`share/${'n'.repeat(90)}/deep.bin`, noise(5000, seed + 1)],
  ]);
  for (const [path, data] of files) {
    mkdirSync(join(dir, path, '..'), { recursive: true });
    writeFileSync(join(dir, path), data);
  }
  symlinkSync('tool', join(dir, 'bin', 'link'));
  return files;
}

/** Entries' files with a leading `./` or `/` dropped, as paths compare with sourceTree's. */
export const normalised = (files: Map<string, Uint8Array>) =>
  new Map([...files].map(([p, d]) => [p.replace(/^\.?\//, ''), Buffer.from(d)]));

/**
 * What writeTree puts at a path: a file's bytes (or text, with a mode), an empty directory, a symbolic link, a
 * hard link to a path written before, a FIFO, or a character device (made only when the tests run as root).
 */
export type TreeNode =
  | string
  | Uint8Array
  | { data: string | Uint8Array; mode: number }
  | { dir: true; mode?: number }
  | { symlink: string }
  | { hardlink: string }
  | { fifo: true }
  | { device: [major: number, minor: number] };

/** Writes the nodes under `root` in the order given, making parent directories as needed. */
export function writeTree(root: string, nodes: Record<string, TreeNode>): void {
  for (const [path, node] of Object.entries(nodes)) {
    const full = join(root, path);
    mkdirSync(join(full, '..'), { recursive: true });
    if (typeof node === 'string' || node instanceof Uint8Array) writeFileSync(full, node);
    else if ('data' in node) {
      writeFileSync(full, node.data);
      chmodSync(full, node.mode);
    } else if ('dir' in node) {
      mkdirSync(full, { recursive: true });
      if (node.mode !== undefined) chmodSync(full, node.mode);
    } else if ('symlink' in node) symlinkSync(node.symlink, full);
    else if ('hardlink' in node) linkSync(join(root, node.hardlink), full);
    else if ('fifo' in node) runTool('mkfifo', [full]);
    else if (process.getuid?.() === 0) runTool('mknod', [full, 'c', ...node.device.map(String)]);
  }
}

/** Every path under `root` (relative, '/'-separated). */
function treePaths(root: string, prefix = ''): string[] {
  const out: string[] = [];
  for (const name of readdirSync(join(root, prefix))) {
    const path = prefix ? `${prefix}/${name}` : name;
    out.push(path);
    if (lstatSync(join(root, path)).isDirectory()) out.push(...treePaths(root, path));
  }
  return out;
}

function kindOf(st: Stats): EntryKind {
  if (st.isDirectory()) return 'dir';
  if (st.isSymbolicLink()) return 'symlink';
  if (st.isFile()) return 'file';
  if (st.isFIFO()) return 'fifo';
  return st.isSocket() ? 'socket' : 'device';
}

/**
 * The entries are exactly the tree at `root`: each path once, each kind, file's bytes and link target. A hard
 * link must name a file entry of the same file. `modes`: permission bits must match too. `pseudo`: entries
 * the tool was told to add (kind and mode by path), which the tree does not hold.
 */
export function assertMatchesTree(
  entries: Entry[],
  root: string,
  options: { modes?: boolean; pseudo?: Record<string, [EntryKind, number]> } = {},
): void {
  const { modes = false, pseudo = {} } = options;
  const byPath = new Map(entries.map((e) => [e.path, e]));
  assert.equal(byPath.size, entries.length, 'no path given twice');
  const expected = [...treePaths(root), ...Object.keys(pseudo)];
  assert.deepEqual([...byPath.keys()].sort(), expected.sort());
  for (const path of expected) {
    const e = byPath.get(path)!;
    if (pseudo[path]) {
      assert.deepEqual([e.kind, e.mode], pseudo[path], path);
      continue;
    }
    const full = join(root, path);
    const st = lstatSync(full);
    if (e.kind === 'hardlink') {
      assert.ok(st.isFile() && byPath.get(e.target!)?.kind === 'file', `${path} links to the file ${e.target}`);
      assert.equal(lstatSync(join(root, e.target!)).ino, st.ino, `${path} links to the same file as ${e.target}`);
      continue;
    }
    assert.equal(e.kind, kindOf(st), path);
    if (modes) assert.equal(e.mode, st.mode & 0o7777, `${path} mode`);
    if (st.isFile()) assert.ok(Buffer.from(e.data!).equals(readFileSync(full)), `${path}: bytes differ`);
    assert.equal(e.target, st.isSymbolicLink() ? readlinkSync(full) : undefined, `${path} link target`);
  }
}
