// A small source tree for the firmware readers' tests: files of random and text bytes, an empty file, a
// nested directory, a long name and a symbolic link — what the real tools pack, compared byte for byte.
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { noise } from '../samples.js';

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
