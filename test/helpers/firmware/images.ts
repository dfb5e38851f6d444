// Router-style firmware images made with the real tools, for the API tests and bench:firmware: a uImage
// kernel (LZMA), erased-flash padding, and a SquashFS root file system holding the given executables and
// a configuration file — the layout of most OpenWrt-era images.
import { chmodSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { noise } from '../samples.js';
import { missingTool, runTool } from './tools.js';

/** Why router images cannot be built here, or null. */
export const missingImageTools = () =>
  missingTool('mksquashfs', 'squashfs-tools') ??
  missingTool('mkimage', 'u-boot-tools') ??
  missingTool('xz', 'xz-utils');

export const CONFIG_TEXT = Buffer.from('option hostname router\noption lan 192.168.1.1\n'.repeat(40));

const pad = (b: Buffer, to: number) => Buffer.concat([b, Buffer.alloc((to - (b.length % to)) % to, 0xff)]);

/** The image, built in `dir`, with `executables` (name → bytes) under /bin of its root file system. */
export function routerImage(dir: string, executables: Map<string, Buffer>, comp = 'xz'): Buffer {
  const root = join(dir, 'rootfs');
  mkdirSync(join(root, 'bin'), { recursive: true });
  mkdirSync(join(root, 'etc'), { recursive: true });
  for (const [name, bytes] of executables) {
    writeFileSync(join(root, 'bin', name), bytes);
    chmodSync(join(root, 'bin', name), 0o755);
  }
  writeFileSync(join(root, 'etc', 'config'), CONFIG_TEXT);
  runTool('mksquashfs', [root, join(dir, 'root.sqsh'), '-comp', comp, '-noappend', '-quiet', '-all-root']);
  writeFileSync(join(dir, 'kernel.lzma'), runTool('xz', ['--format=lzma', '-c'], { input: noise(300_000, 21) }));
  runTool('mkimage', [
    '-A',
    'mips',
    '-O',
    'linux',
    '-T',
    'kernel',
    '-C',
    'lzma',
    '-a',
    '0x80000000',
    '-e',
    '0x80000000',
    '-n',
    'Linux-5.10',
    '-d',
    join(dir, 'kernel.lzma'),
    join(dir, 'uImage'),
  ]);
  return Buffer.concat([
    pad(readFileSync(join(dir, 'uImage')), 0x10000),
    pad(readFileSync(join(dir, 'root.sqsh')), 0x10000),
  ]);
}
