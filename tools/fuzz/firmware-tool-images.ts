// Firmware seeds made by Debian's own tools from the seed tree (firmware-hand-images.ts's files, a symbolic
// link and a FIFO): every format the unpacker reads or is about to (ext, FAT, ISO 9660, UBI, UBIFS), each
// compressor a format offers, both byte orders where the tool writes both. Small (1–210 KiB) so an execution
// stays near 10 ms. Timestamps, volume ids and UUIDs are pinned so the same tools give the same bytes, except
// where the tool draws random bytes itself (ZipCrypto and AES headers, the UBIFS UUID) or stores times it
// cannot be told (the files' ctime in ext4, the creation time in ISO 9660).
import {
  chmodSync,
  lutimesSync,
  mkdirSync,
  readFileSync,
  readdirSync,
  symlinkSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { inTempDir, missingTool, runTool } from '../../test/helpers/firmware/tools.js';
import { KERNEL, SEED_FILES, type NamedImage } from './firmware-hand-images.js';

/** 2000-01-01: every timestamp the tools store. */
const EPOCH = 946_684_800;
/** The password of the encrypted zips: firmware-target.ts's second variant. */
const PASSWORD = 'binlens';
/** The ext4 seeds' UUID and directory hash seed (mke2fs draws both at random otherwise). */
const UUID = '6e0ea8f5-5a3c-4c5e-9c1f-0b1e2d3c4b5a';

interface Recipe {
  name: string;
  /** [command, Debian package] for each tool it runs. */
  tools: [string, string][];
  /** The image, built in `dir`; `root` holds the trees `src` (with link and FIFO) and `plain` (files only). */
  build(root: string, dir: string): Uint8Array;
}

const SQUASHFS: [string, string] = ['mksquashfs', 'squashfs-tools'];
const JFFS2: [string, string] = ['mkfs.jffs2', 'mtd-utils'];
const MKIMAGE: [string, string] = ['mkimage', 'u-boot-tools'];
const UBI: [string, string][] = [
  ['mkfs.ubifs', 'mtd-utils'],
  ['ubinize', 'mtd-utils'],
];

const read = (path: string) => new Uint8Array(readFileSync(path));
/** Command-line words: `words('-A mips -O linux')`. */
const words = (text: string) => text.split(' ');
const pad = (b: Uint8Array, to: number) => Buffer.concat([b, Buffer.alloc((to - (b.length % to)) % to, 0xff)]);

/** The tree's paths, parents before children, sorted: what cpio and the timestamp pinning walk. */
function walk(dir: string, prefix = ''): string[] {
  return readdirSync(join(dir, prefix), { withFileTypes: true })
    .sort((a, b) => (a.name < b.name ? -1 : 1))
    .flatMap((e) => {
      const path = prefix ? `${prefix}/${e.name}` : e.name;
      return e.isDirectory() ? [path, ...walk(dir, path)] : [path];
    });
}

function makeTree(dir: string, special: boolean): void {
  for (const [path, data] of SEED_FILES) {
    mkdirSync(join(dir, path, '..'), { recursive: true });
    writeFileSync(join(dir, path), data);
  }
  chmodSync(join(dir, 'bin/busybox'), 0o755);
  mkdirSync(join(dir, 'tmp'));
  if (special) {
    symlinkSync('busybox', join(dir, 'bin/sh'));
    mkdirSync(join(dir, 'dev'));
    runTool('mkfifo', [join(dir, 'dev/initctl')]);
  }
  for (const path of [...walk(dir).reverse(), '.'])
    if (path === 'bin/sh') lutimesSync(join(dir, path), EPOCH, EPOCH);
    else utimesSync(join(dir, path), EPOCH, EPOCH);
}

const squashfs = (name: string, options: string[]): Recipe => ({
  name: `squashfs-${name}`,
  tools: [SQUASHFS],
  build: (root, dir) => {
    const out = join(dir, 'fs');
    runTool('mksquashfs', [join(root, 'src'), out, '-noappend', '-quiet', '-b', '4096', '-all-root', ...options]);
    return read(out);
  },
});

const jffs2 = (name: string, options: string[]): Recipe => ({
  name: `jffs2-${name}`,
  tools: [JFFS2],
  build: (root, dir) => {
    runTool('mkfs.jffs2', ['-r', join(root, 'src'), '-o', join(dir, 'fs'), '-e', '8KiB', ...options]);
    return read(join(dir, 'fs'));
  },
});

/** `input` compressed by `command args`, read from a file of pinned time (lzop stores it; stdin has none). */
function compress(dir: string, [command]: [string, string], args: string[], input: Uint8Array): Uint8Array {
  const path = join(dir, 'payload');
  writeFileSync(path, input);
  utimesSync(path, EPOCH, EPOCH);
  return new Uint8Array(runTool(command, [...args, path]));
}

/** A stream of the seed tree's tar (or cpio) through `command args`. */
const stream = (name: string, command: [string, string], args: string[], inner: 'tar' | 'cpio' = 'tar'): Recipe => ({
  name: `${name}-${inner}`,
  tools: [command, inner === 'tar' ? ['tar', 'tar'] : ['cpio', 'cpio']],
  build: (root, dir) => compress(dir, command, args, archive(root, inner)),
});

function archive(root: string, kind: 'tar' | 'cpio', format = kind === 'tar' ? 'gnu' : 'newc'): Buffer {
  const src = join(root, 'src');
  if (kind === 'cpio')
    return runTool('cpio', ['-o', '--quiet', '--reproducible', '-H', format], {
      cwd: src,
      input: Buffer.from(walk(src).join('\n')),
    });
  const pax = format === 'pax' ? ['--pax-option=delete=atime,delete=ctime'] : [];
  const owner = words(`--sort=name --owner=0 --group=0 --numeric-owner --mtime=@${EPOCH}`);
  return runTool('tar', [`--format=${format}`, ...pax, ...owner, '-cf', '-', '-C', src, '.']);
}

/** A uImage of the kernel compressed by `command args` (or stored), as mkimage writes it. */
const uimage = (comp: string, command: [string, string] | null, args: string[] = []): Recipe => ({
  name: `uimage-${comp}`,
  tools: [MKIMAGE, ...(command ? [command] : [])],
  build: (_root, dir) => {
    writeFileSync(join(dir, 'kernel'), command ? compress(dir, command, args, KERNEL) : KERNEL);
    const header = words(`-A mips -O linux -T kernel -C ${comp} -a 0x80000000 -e 0x80000000 -n Linux-${comp}`);
    runTool('mkimage', [...header, '-d', join(dir, 'kernel'), join(dir, 'uImage')]);
    return read(join(dir, 'uImage'));
  },
});

const zip = (name: string, command: [string, string], args: string[]): Recipe => ({
  name: `zip-${name}`,
  tools: [command],
  build: (root, dir) => {
    runTool(command[0], [...args, join(dir, 'out.zip'), '.'], {
      cwd: join(root, command[0] === 'zip' ? 'src' : 'plain'),
    });
    return read(join(dir, 'out.zip'));
  },
});

/** A 7z archive of the plain tree (7-Zip reads FIFOs as files and follows links). */
const zip7 = (name: string, args: string[]): Recipe => ({
  name: `7z-${name}`,
  tools: [['7z', 'p7zip-full']],
  build: (root, dir) => {
    runTool('7z', ['a', '-t7z', '-bd', '-bso0', ...args, join(dir, 'out.7z'), '.'], { cwd: join(root, 'plain') });
    return read(join(dir, 'out.7z'));
  },
});

/** mkfs.ubifs for 16 KiB NOR-like erase blocks (8-byte writes): the smallest layout it makes, 11 LEBs. */
function ubifs(root: string, dir: string): string {
  const out = join(dir, 'ubifs');
  runTool('mkfs.ubifs', ['-r', join(root, 'src'), ...words('-m 8 -e 16256 -c 24 -l 2 -p 1 -U -o'), out]);
  return out;
}

function ubinize(dir: string, volumes: { name: string; image: string; type: 'static' | 'dynamic' }[]): Uint8Array {
  const config = volumes
    .map((v, id) => `[${v.name}]\nmode=ubi\nimage=${v.image}\nvol_id=${id}\nvol_type=${v.type}\nvol_name=${v.name}\n`)
    .join('');
  writeFileSync(join(dir, 'ubi.cfg'), config);
  runTool('ubinize', ['-o', join(dir, 'ubi'), '-m', '8', '-p', '16KiB', '-Q', '1', join(dir, 'ubi.cfg')]);
  return read(join(dir, 'ubi'));
}

const RECIPES: Recipe[] = [
  ...['gzip', 'lzo', 'lz4', 'xz', 'zstd', 'lzma'].map((c) => squashfs(c, ['-comp', c])),
  squashfs('uncompressed', ['-noI', '-noD', '-noF', '-noX']),
  jffs2('le', ['-l']),
  jffs2('be-padded', ['-b', '-p']),
  jffs2('le-lzo', ['-l', '-X', 'lzo', '-x', 'zlib', '-x', 'rtime']),
  jffs2('be-uncompressed', ['-b', '-m', 'none', '-n']),
  ...(['little', 'big'] as const).map((order) => ({
    name: `cramfs-${order}`,
    tools: [['mkfs.cramfs', 'util-linux']] as [string, string][],
    build: (root: string, dir: string) => {
      runTool('mkfs.cramfs', ['-N', order, join(root, 'src'), join(dir, 'fs')]);
      return read(join(dir, 'fs'));
    },
  })),
  {
    name: 'romfs',
    tools: [['genromfs', 'genromfs']],
    build: (root, dir) => {
      runTool('genromfs', ['-f', join(dir, 'fs'), '-d', join(root, 'src'), '-V', 'binlens']);
      return read(join(dir, 'fs'));
    },
  },
  ...(['newc', 'odc', 'bin', 'crc'] as const).map((f) => ({
    name: `cpio-${f}`,
    tools: [['cpio', 'cpio']] as [string, string][],
    build: (root: string) => new Uint8Array(archive(root, 'cpio', f)),
  })),
  ...(['gnu', 'pax'] as const).map((f) => ({
    name: `tar-${f}`,
    tools: [['tar', 'tar']] as [string, string][],
    build: (root: string) => new Uint8Array(archive(root, 'tar', f)),
  })),
  zip('deflate', ['zip', 'zip'], ['-q', '-r', '-y', '-X']),
  zip('stored', ['zip', 'zip'], ['-q', '-r', '-y', '-X', '-0']),
  zip('zip64', ['zip', 'zip'], ['-q', '-r', '-y', '-X', '-fz']),
  zip('zipcrypto', ['zip', 'zip'], ['-q', '-r', '-X', '-P', PASSWORD]),
  zip('aes256', ['7z', 'p7zip-full'], ['a', '-tzip', '-bd', '-bso0', `-p${PASSWORD}`, '-mem=AES256']),
  ...['BZip2', 'LZMA', 'Deflate64'].map((m) =>
    zip(m.toLowerCase(), ['7z', 'p7zip-full'], ['a', '-tzip', '-bd', '-bso0', `-mm=${m}`]),
  ),
  ...(
    [
      ['lzma2', []],
      ['ppmd', ['-m0=PPMd']],
      ['bcj-lzma', ['-m0=BCJ', '-m1=LZMA']],
      ['bzip2', ['-m0=BZip2']],
      ['deflate', ['-m0=Deflate']],
      ['copy', ['-m0=Copy']],
      ['aes-header', [`-p${PASSWORD}`, '-mhe=on']],
    ] as const
  ).map(([name, args]) => zip7(name, [...args])),
  {
    name: 'ar',
    tools: [['ar', 'binutils']],
    build: (root, dir) => {
      const members = ['bin/busybox', 'etc/config', `www/${'n'.repeat(95)}.html`].map((p) => join(root, 'plain', p));
      runTool('ar', ['rcD', join(dir, 'out.a'), ...members]);
      return read(join(dir, 'out.a'));
    },
  },
  stream('gzip', ['gzip', 'gzip'], ['-n', '-9', '-c']),
  stream('bzip2', ['bzip2', 'bzip2'], ['-c']),
  stream('xz', ['xz', 'xz-utils'], ['-c']),
  stream('xz-x86-sha256', ['xz', 'xz-utils'], ['-c', '--check=sha256', '--x86', '--lzma2=preset=6'], 'cpio'),
  stream('lzma', ['xz', 'xz-utils'], ['--format=lzma', '-c']),
  stream('zstd', ['zstd', 'zstd'], ['-q', '-c', '--no-progress'], 'cpio'),
  stream('lz4', ['lz4', 'lz4'], ['-q', '-c']),
  stream('lz4-legacy', ['lz4', 'lz4'], ['-q', '-c', '-l'], 'cpio'),
  stream('lzop', ['lzop', 'lzop'], ['-c']),
  uimage('none', null),
  uimage('gzip', ['gzip', 'gzip'], ['-n', '-c']),
  uimage('bzip2', ['bzip2', 'bzip2'], ['-c']),
  uimage('lzma', ['xz', 'xz-utils'], ['--format=lzma', '-c']),
  uimage('lzo', ['lzop', 'lzop'], ['-c']),
  uimage('lz4', ['lz4', 'lz4'], ['-q', '-c']),
  uimage('zstd', ['zstd', 'zstd'], ['-q', '-c']),
  {
    name: 'uimage-multi',
    tools: [MKIMAGE, ['gzip', 'gzip'], ['cpio', 'cpio']],
    build: (root, dir) => {
      writeFileSync(join(dir, 'kernel.gz'), runTool('gzip', ['-n', '-c'], { input: KERNEL }));
      writeFileSync(join(dir, 'initrd'), archive(root, 'cpio'));
      const parts = `${join(dir, 'kernel.gz')}:${join(dir, 'initrd')}`;
      runTool('mkimage', [...words('-A arm -O linux -T multi -C none -n multi -d'), parts, join(dir, 'uImage')]);
      return read(join(dir, 'uImage'));
    },
  },
  ...(
    [
      ['fit', []],
      ['fit-external', ['-E']],
    ] as const
  ).map(([name, extra]) => ({
    name,
    tools: [MKIMAGE, ['dtc', 'device-tree-compiler'], ['gzip', 'gzip']] as [string, string][],
    build: (_root: string, dir: string) => {
      writeFileSync(join(dir, 'kernel.gz'), runTool('gzip', ['-n', '-c'], { input: KERNEL }));
      const header = words('-f auto -A arm -O linux -T kernel -C gzip -a 0x8000 -e 0x8000 -n fit -d');
      runTool('mkimage', [...extra, ...header, join(dir, 'kernel.gz'), join(dir, 'fit.itb')]);
      return read(join(dir, 'fit.itb'));
    },
  })),
  {
    name: 'fdt',
    tools: [['dtc', 'device-tree-compiler']],
    build: () =>
      new Uint8Array(
        runTool('dtc', ['-q', '-I', 'dts', '-O', 'dtb'], {
          input: Buffer.from(
            '/dts-v1/;\n/ { model = "binlens"; #address-cells = <1>; #size-cells = <1>;\n' +
              '  memory@0 { device_type = "memory"; reg = <0 0x1000>; };\n' +
              '  chosen { bootargs = "console=ttyS0"; }; };\n',
          ),
        }),
      ),
  },
  ...(['ihex', 'srec'] as const).map((format) => ({
    name: `objcopy-${format}`,
    tools: [['objcopy', 'binutils']] as [string, string][],
    build: (_root: string, dir: string) => {
      writeFileSync(join(dir, 'blob'), KERNEL.subarray(0, 900));
      // Relative names: the S0 record holds the input's.
      runTool('objcopy', ['-I', 'binary', '-O', format, '--change-addresses', '0x08000000', 'blob', 'out'], {
        cwd: dir,
      });
      return read(join(dir, 'out'));
    },
  })),
  {
    name: 'android-boot-mkbootimg',
    tools: [
      ['mkbootimg', 'mkbootimg'],
      ['gzip', 'gzip'],
      ['cpio', 'cpio'],
    ],
    build: (root, dir) => {
      writeFileSync(join(dir, 'kernel'), KERNEL);
      writeFileSync(join(dir, 'ramdisk'), runTool('gzip', ['-n', '-c'], { input: archive(root, 'cpio') }));
      writeFileSync(join(dir, 'second'), KERNEL.subarray(0, 300));
      const parts = ['kernel', 'ramdisk', 'second'].flatMap((p) => [`--${p}`, join(dir, p)]);
      const header = words('--header_version 0 --pagesize 2048 --cmdline console=ttyS0');
      runTool('mkbootimg', [...header, ...parts, '-o', join(dir, 'boot.img')]);
      return read(join(dir, 'boot.img'));
    },
  },
  {
    name: 'ext2-genext2fs',
    tools: [['genext2fs', 'genext2fs']],
    build: (root, dir) => {
      runTool('genext2fs', ['-f', '-b', '64', '-N', '32', '-d', join(root, 'src'), join(dir, 'fs')]);
      return read(join(dir, 'fs'));
    },
  },
  ...(
    [
      ['ext4', []],
      ['ext4-no-csum', ['-O', '^metadata_csum']],
    ] as const
  ).map(([name, features]) => ({
    name,
    tools: [['mke2fs', 'e2fsprogs']] as [string, string][],
    build: (root: string, dir: string) => {
      const pinned = words(`-U ${UUID} -E hash_seed=${UUID}`);
      const layout = words('-q -F -t ext4 -O ^has_journal -b 1024 -N 32');
      runTool('mke2fs', [...layout, ...features, ...pinned, '-d', join(root, 'src'), join(dir, 'fs'), '96k']);
      return read(join(dir, 'fs'));
    },
  })),
  {
    name: 'android-sparse-img2simg',
    tools: [
      ['genext2fs', 'genext2fs'],
      ['img2simg', 'android-sdk-libsparse-utils'],
    ],
    build: (root, dir) => {
      runTool('genext2fs', ['-f', '-b', '64', '-N', '32', '-d', join(root, 'src'), join(dir, 'fs')]);
      runTool('img2simg', [join(dir, 'fs'), join(dir, 'sparse'), '1024']);
      return read(join(dir, 'sparse'));
    },
  },
  {
    name: 'fat12',
    tools: [
      ['mkfs.vfat', 'dosfstools'],
      ['mcopy', 'mtools'],
    ],
    build: (root, dir) => {
      const image = join(dir, 'fs');
      runTool('mkfs.vfat', ['-C', '--invariant', '-i', '0b1e2d3c', '-n', 'BINLENS', image, '64']);
      const top = readdirSync(join(root, 'plain')).map((n) => join(root, 'plain', n));
      runTool('mcopy', ['-s', '-m', '-i', image, ...top, '::/']);
      return read(image);
    },
  },
  ...(
    [
      ['iso9660-rock-joliet', ['-R', '-J']],
      ['iso9660-plain', []],
    ] as const
  ).map(([name, options]) => ({
    name,
    tools: [['genisoimage', 'genisoimage']] as [string, string][],
    build: (root: string, dir: string) => {
      runTool('genisoimage', [
        '-quiet',
        ...options,
        ...words('-no-pad -V BINLENS -o'),
        join(dir, 'fs'),
        join(root, 'plain'),
      ]);
      return read(join(dir, 'fs'));
    },
  })),
  { name: 'ubifs', tools: [UBI[0]!], build: (root, dir) => read(ubifs(root, dir)) },
  {
    name: 'ubi-static',
    tools: UBI,
    build: (_root, dir) => {
      writeFileSync(join(dir, 'kernel'), KERNEL);
      return ubinize(dir, [{ name: 'kernel', image: join(dir, 'kernel'), type: 'static' }]);
    },
  },
  {
    name: 'ubi-ubifs',
    tools: UBI,
    build: (root, dir) => ubinize(dir, [{ name: 'rootfs', image: ubifs(root, dir), type: 'dynamic' }]),
  },
  {
    // The OpenWrt-era layout: a uImage kernel, then a SquashFS root and a JFFS2 overlay, each on a 4 KiB boundary.
    name: 'router-flash',
    tools: [MKIMAGE, SQUASHFS, JFFS2, ['xz', 'xz-utils']],
    build: (root, dir) => {
      const parts = [
        uimage('lzma', ['xz', 'xz-utils'], ['--format=lzma', '-c']),
        squashfs('xz', ['-comp', 'xz']),
        jffs2('be-padded', ['-b', '-p']),
      ];
      return Buffer.concat(parts.map((r) => pad(r.build(root, dir), 4096)));
    },
  },
];

/** Every recipe's image whose tools are installed; `missing` says which tools kept the others out. */
export function toolBuiltImages(): { images: NamedImage[]; missing: string[] } {
  const missing = new Set<string>();
  const images: NamedImage[] = [];
  // One look-up per command (each spawns a shell).
  const absent = new Map<string, string | null>();
  const why = ([command, pkg]: [string, string]) => {
    if (!absent.has(command)) absent.set(command, missingTool(command, pkg));
    return absent.get(command)!;
  };
  // Tools that read it (mkimage, mksquashfs, mke2fs, mkfs.ubifs) store this instead of the time of day.
  const saved = {
    SOURCE_DATE_EPOCH: process.env.SOURCE_DATE_EPOCH,
    E2FSPROGS_FAKE_TIME: process.env.E2FSPROGS_FAKE_TIME,
  };
  process.env.SOURCE_DATE_EPOCH = String(EPOCH);
  process.env.E2FSPROGS_FAKE_TIME = String(EPOCH);
  try {
    inTempDir((root) => {
      if (missingTool('mkfifo', 'coreutils')) throw new Error('mkfifo is missing: no tool-built seeds');
      makeTree(join(root, 'src'), true);
      makeTree(join(root, 'plain'), false);
      for (const [n, r] of RECIPES.entries()) {
        const reasons = r.tools.map(why).filter((m) => m !== null);
        if (reasons.length > 0) {
          for (const m of reasons) missing.add(m);
          continue;
        }
        const dir = join(root, `work-${n}`);
        mkdirSync(dir);
        images.push({ name: r.name, bytes: r.build(root, dir) });
      }
    });
  } finally {
    for (const [k, v] of Object.entries(saved))
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
  }
  return { images, missing: [...missing] };
}
