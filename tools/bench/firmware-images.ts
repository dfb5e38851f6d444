// The firmware benchmark's matrix (firmware.ts): each image built at run time by the Debian tool that makes
// that format in the field, around corpus executables whose SHA-256 the scoring looks for. Every case says
// which executables it put in, where it put each top-level part, and the password its archive needs.
import { execFileSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { FlashLayout, noise, TRX_HEADER_SIZE, writeTrxHeader, type PlacedPart } from './firmware-layout.js';

/** A corpus executable put into images. */
export interface BenchExecutable {
  /** Its instruction set, which also names it inside the images (`bin/lz4-<label>`). */
  label: string;
  file: string;
  sha256: string;
}

export interface BuiltImage {
  file: string;
  /** The executables inside, at whatever depth. */
  expected: readonly BenchExecutable[];
  /** The image's top-level parts and where they start: where an unpacker's chunks must start. */
  parts: readonly PlacedPart[];
  /** What an encrypted archive inside needs (Binlens is given it; binwalk has no way to take one). */
  password: string | null;
}

export interface ImageCase {
  name: string;
  /** Commands the build runs, with the Debian package of each. */
  tools: readonly (readonly [command: string, debianPackage: string])[];
  build(w: Workshop): BuiltImage;
}

/** Runs the build tools in one scratch directory and lays out the file trees they pack. */
export class Workshop {
  constructor(
    readonly dir: string,
    /** x86-64, i386, aarch64, armhf, mipsel: the order the cases below take them in. */
    readonly executables: readonly BenchExecutable[],
  ) {}

  path(name: string): string {
    return join(this.dir, name);
  }

  /** The command's standard output; a failure throws with what it printed on standard error. */
  run(cmd: string, args: readonly string[], options: { cwd?: string; input?: Uint8Array | string } = {}): Buffer {
    return execFileSync(cmd, args, {
      cwd: options.cwd ?? this.dir,
      input: options.input,
      maxBuffer: 1 << 30,
      stdio: ['pipe', 'pipe', 'pipe'],
      // mkimage and mksquashfs stamp this time instead of now, so the images are the same on every run.
      env: { ...process.env, SOURCE_DATE_EPOCH: '0' },
    });
  }

  write(name: string, bytes: Uint8Array | string): string {
    writeFileSync(this.path(name), bytes);
    return this.path(name);
  }

  read(name: string): Buffer {
    return readFileSync(this.path(name));
  }

  /**
   * A small root file system in directory `name`: the executables as bin/lz4-<label>, a few text files, a
   * radio calibration blob of noise, an empty directory and (unless the format has none) a symbolic link.
   * `extra` copies further files in (path in the tree → file).
   */
  tree(
    name: string,
    exes: readonly BenchExecutable[],
    o: { links?: boolean; extra?: Record<string, string> } = {},
  ): string {
    const root = this.path(name);
    const put = (rel: string, content: Uint8Array | string) => {
      mkdirSync(join(root, rel, '..'), { recursive: true });
      writeFileSync(join(root, rel), content);
    };
    for (const x of exes) {
      put(`bin/lz4-${x.label}`, readFileSync(x.file));
      chmodSync(join(root, 'bin', `lz4-${x.label}`), 0o755);
    }
    put('etc/passwd', 'root:x:0:0:root:/root:/bin/sh\nnobody:x:65534:65534:nobody:/:/bin/false\n');
    put('etc/banner', `Binlens firmware benchmark (${name})\n`);
    put('usr/share/doc/README', 'Flash layout: boot loader, kernel, root file system, configuration.\n'.repeat(48));
    put('lib/firmware/radio.bin', noise(4096, name.length * 7919 + 1));
    mkdirSync(join(root, 'tmp'), { recursive: true });
    if (o.links !== false && exes[0]) {
      mkdirSync(join(root, 'sbin'), { recursive: true });
      symlinkSync(`../bin/lz4-${exes[0].label}`, join(root, 'sbin', 'init'));
    }
    for (const [rel, file] of Object.entries(o.extra ?? {})) put(rel, readFileSync(file));
    return root;
  }

  squashfs(name: string, root: string, compressor: string): string {
    this.run('mksquashfs', [root, this.path(name), '-comp', compressor, '-noappend', '-all-root', '-no-progress']);
    return this.path(name);
  }

  jffs2(name: string, root: string, endian: '-l' | '-b'): string {
    // 64 KiB erase blocks, padded to the end of the last (-p), owners squashed to root (-q).
    this.run('mkfs.jffs2', ['-r', root, '-o', this.path(name), endian, '-e', '0x10000', '-p', '-q']);
    return this.path(name);
  }

  /** newc cpio of the tree, gzip-compressed (an initramfs). */
  cpioGz(name: string, root: string): string {
    const list = this.run('find', ['.', '-mindepth', '1'], { cwd: root });
    const cpio = this.run('cpio', ['-o', '-H', 'newc', '--quiet'], { cwd: root, input: list });
    return this.write(name, this.run('gzip', ['-9', '-n', '-c'], { input: cpio }));
  }

  /** The .lzma (LZMA-alone) stream of a file, as U-Boot kernels are packed. */
  lzma(file: string): Buffer {
    return this.run('xz', ['--format=lzma', '-9', '-c', file]);
  }

  uimage(name: string, args: readonly string[], data: string): string {
    this.run('mkimage', [...args, '-n', 'binlens bench', '-d', data, this.path(name)]);
    return this.path(name);
  }
}

/** One file of one format at offset 0. */
const whole = (file: string, label: string, expected: readonly BenchExecutable[]): BuiltImage => ({
  file,
  expected,
  parts: [{ offset: 0, label }],
  password: null,
});

const SQUASHFS = ['mksquashfs', 'squashfs-tools'] as const;
const JFFS2 = ['mkfs.jffs2', 'mtd-utils'] as const;
const MKIMAGE = ['mkimage', 'u-boot-tools'] as const;
const XZ = ['xz', 'xz-utils'] as const;
const CPIO = ['cpio', 'cpio'] as const;
const ZIP = ['zip', 'zip'] as const;

const squashfsCase = (compressor: string): ImageCase => ({
  name: `squashfs-${compressor}`,
  tools: [SQUASHFS],
  build: (w) => whole(w.squashfs('image', w.tree('root', w.executables), compressor), 'squashfs', w.executables),
});

const jffs2Case = (endian: '-l' | '-b'): ImageCase => ({
  name: `jffs2-${endian === '-l' ? 'le' : 'be'}`,
  tools: [JFFS2],
  build: (w) => whole(w.jffs2('image', w.tree('root', w.executables), endian), 'jffs2', w.executables),
});

export const IMAGE_CASES: readonly ImageCase[] = [
  ...['gzip', 'lzma', 'lzo', 'xz', 'lz4', 'zstd'].map(squashfsCase),
  jffs2Case('-l'),
  jffs2Case('-b'),
  {
    name: 'ubi-ubifs',
    tools: [
      ['mkfs.ubifs', 'mtd-utils'],
      ['ubinize', 'mtd-utils'],
    ],
    build(w) {
      // NAND of 2 KiB pages and 128 KiB erase blocks: a logical erase block is 128 KiB less the two
      // headers' pages, 126,976 bytes; 64 of them bound the volume at ~7.8 MiB.
      const ubifs = w.path('rootfs.ubifs');
      w.run('mkfs.ubifs', ['-r', w.tree('root', w.executables), '-m', '2048', '-e', '126976', '-c', '64', '-o', ubifs]);
      const ini = `[rootfs]\nmode=ubi\nimage=${ubifs}\nvol_id=0\nvol_type=dynamic\nvol_name=rootfs\nvol_flags=autoresize\n`;
      w.run('ubinize', [
        '-o',
        w.path('image'),
        '-m',
        '2048',
        '-p',
        '128KiB',
        '-s',
        '2048',
        w.write('ubinize.ini', ini),
      ]);
      return whole(w.path('image'), 'ubi', w.executables);
    },
  },
  {
    name: 'ext2',
    tools: [['genext2fs', 'genext2fs']],
    build(w) {
      // 2,048 blocks of 1 KiB hold the ~0.7 MB tree with room to spare.
      w.run('genext2fs', ['-d', w.tree('root', w.executables), '-b', '2048', '-U', w.path('image')]);
      return whole(w.path('image'), 'ext2', w.executables);
    },
  },
  {
    name: 'ext4',
    tools: [['mkfs.ext4', 'e2fsprogs']],
    build(w) {
      w.run('mkfs.ext4', ['-q', '-F', '-d', w.tree('root', w.executables), w.path('image'), '4M']);
      return whole(w.path('image'), 'ext4', w.executables);
    },
  },
  {
    name: 'vfat',
    tools: [
      ['mkfs.vfat', 'dosfstools'],
      ['mcopy', 'mtools'],
    ],
    build(w) {
      const root = w.tree('root', w.executables, { links: false });
      w.run('mkfs.vfat', ['-C', w.path('image'), '2048', '-n', 'BENCH']);
      const top = readdirSync(root).map((n) => join(root, n));
      w.run('mcopy', ['-s', '-i', w.path('image'), ...top, '::/']);
      return whole(w.path('image'), 'fat', w.executables);
    },
  },
  {
    name: 'iso9660',
    tools: [['genisoimage', 'genisoimage']],
    build(w) {
      w.run('genisoimage', ['-quiet', '-R', '-J', '-o', w.path('image'), w.tree('root', w.executables)]);
      return whole(w.path('image'), 'iso9660', w.executables);
    },
  },
  {
    name: 'uimage-lzma',
    tools: [MKIMAGE, XZ],
    build(w) {
      // A MIPS router's kernel: the executable as vmlinux, LZMA-packed behind a legacy U-Boot header.
      const mipsel = w.executables.filter((x) => x.label === 'mipsel');
      const kernel = w.write('kernel.lzma', w.lzma(mipsel[0]!.file));
      const args = ['-A', 'mips', '-O', 'linux', '-T', 'kernel', '-C', 'lzma', '-a', '80001000', '-e', '80001000'];
      return whole(w.uimage('image', args, kernel), 'uimage', mipsel);
    },
  },
  {
    name: 'fit',
    tools: [MKIMAGE, ['dtc', 'device-tree-compiler'], CPIO],
    build(w) {
      // A FIT (flattened device tree) of a gzip'd ARM kernel, an initramfs and the board's device tree.
      const [kernel, ...rest] = w.executables
        .filter((x) => x.label === 'armhf')
        .concat(w.executables.filter((x) => x.label !== 'armhf'));
      const gz = w.write('kernel.gz', w.run('gzip', ['-9', '-n', '-c', kernel!.file]));
      const ramdisk = w.cpioGz('ramdisk.cpio.gz', w.tree('initramfs', rest));
      const dts = `/dts-v1/;\n/ {\n\tmodel = "binlens bench";\n\tcompatible = "binlens,bench";\n\t#address-cells = <1>;\n\t#size-cells = <1>;\n\tmemory@0 { device_type = "memory"; reg = <0x0 0x8000000>; };\n};\n`;
      w.run('dtc', ['-I', 'dts', '-O', 'dtb', '-o', w.path('board.dtb'), w.write('board.dts', dts)]);
      const args = ['-f', 'auto', '-A', 'arm', '-O', 'linux', '-T', 'kernel', '-C', 'gzip', '-a', '8000', '-e', '8000'];
      return whole(w.uimage('image', [...args, '-i', ramdisk, '-b', w.path('board.dtb')], gz), 'fdt', [
        kernel!,
        ...rest,
      ]);
    },
  },
  {
    name: 'cpio-newc-gzip',
    tools: [CPIO, ['gzip', 'gzip']],
    build: (w) => whole(w.cpioGz('image', w.tree('root', w.executables)), 'gzip', w.executables),
  },
  {
    name: 'tar-xz',
    tools: [
      ['tar', 'tar'],
      ['xz', 'xz-utils'],
    ],
    build(w) {
      w.run('tar', ['-C', w.tree('root', w.executables), '-cJf', w.path('image'), '.']);
      return whole(w.path('image'), 'xz', w.executables);
    },
  },
  {
    name: 'zip',
    tools: [ZIP],
    build(w) {
      // -y keeps the link a link.
      w.run('zip', ['-q', '-r', '-y', w.path('image.zip'), '.'], { cwd: w.tree('root', w.executables) });
      return whole(w.path('image.zip'), 'zip', w.executables);
    },
  },
  {
    name: 'zip-password',
    tools: [ZIP],
    build(w) {
      // ZipCrypto ("traditional PKWARE encryption"), what zip -P writes.
      const password = 'binlens-bench';
      w.run('zip', ['-q', '-r', '-y', '-P', password, w.path('image.zip'), '.'], {
        cwd: w.tree('root', w.executables),
      });
      return { ...whole(w.path('image.zip'), 'zip', w.executables), password };
    },
  },
  {
    name: '7z',
    tools: [['7z', 'p7zip-full']],
    build(w) {
      w.run('7z', ['a', '-bd', '-y', w.path('image.7z'), '.'], { cwd: w.tree('root', w.executables) });
      return whole(w.path('image.7z'), '7z', w.executables);
    },
  },
  {
    name: '7z-password',
    tools: [['7z', 'p7zip-full']],
    build(w) {
      // 7zAES with the file list encrypted too (-mhe=on): nothing is readable without the password.
      const password = 'binlens-bench';
      w.run('7z', ['a', '-bd', '-y', `-p${password}`, '-mhe=on', w.path('image.7z'), '.'], {
        cwd: w.tree('root', w.executables),
      });
      return { ...whole(w.path('image.7z'), '7z', w.executables), password };
    },
  },
  {
    name: 'nested-depth-4',
    tools: [ZIP, ['tar', 'tar'], SQUASHFS, MKIMAGE],
    build(w) {
      // zip (x86-64, i386) in tar.gz (+ aarch64) in squashfs (+ armhf, mipsel) in a U-Boot image.
      const [x64, x86, arm64, ...outer] = w.executables;
      w.run('zip', ['-q', '-r', w.path('update.zip'), '.'], { cwd: w.tree('level4', [x64!, x86!], { links: false }) });
      const level3 = w.tree('level3', [arm64!], { extra: { 'payload/update.zip': w.path('update.zip') } });
      w.run('tar', ['-C', level3, '-czf', w.path('update.tar.gz'), '.']);
      const level2 = w.tree('level2', outer, { extra: { 'var/update.tar.gz': w.path('update.tar.gz') } });
      const squashfs = w.squashfs('rootfs.squashfs', level2, 'xz');
      const image = w.uimage('image', ['-A', 'arm', '-O', 'linux', '-T', 'filesystem', '-C', 'none'], squashfs);
      return whole(image, 'uimage', w.executables);
    },
  },
  {
    name: 'trx',
    tools: [XZ, SQUASHFS, JFFS2],
    build(w) {
      // Broadcom layout: header, LZMA kernel, squashfs root, jffs2 configuration; erased flash, zeros and
      // noise between them, inside the partitions (the header's offsets say where each starts).
      const [x64, x86, arm64, armhf, mipsel] = w.executables;
      const layout = new FlashLayout().part('trx', new Uint8Array(TRX_HEADER_SIZE));
      const kernelAt = layout.size;
      layout.filler(w.lzma(mipsel!.file)).padTo(0x1000, 0xff).noise(1500, 11).padTo(0x10000, 0x00);
      const rootfsAt = layout.size;
      layout.filler(readFileSync(w.squashfs('rootfs.squashfs', w.tree('root', [x64!, x86!, arm64!]), 'xz')));
      layout.padTo(0x10000, 0xff).noise(3000, 12).padTo(0x1000, 0x00);
      const configAt = layout.size;
      layout.filler(readFileSync(w.jffs2('config.jffs2', w.tree('config', [armhf!]), '-l')));
      const image = layout.bytes();
      writeTrxHeader(image, [kernelAt, rootfsAt, configAt]);
      return { file: w.write('image.trx', image), expected: w.executables, parts: layout.parts, password: null };
    },
  },
  {
    name: 'flash-concat',
    tools: [XZ, MKIMAGE, SQUASHFS, JFFS2],
    build(w) {
      // A whole NOR flash read out: boot loader (noise), uImage kernel, squashfs root, jffs2 overlay, each at
      // its own boundary with erased flash, zeros and noise between.
      const [x64, x86, arm64, armhf, mipsel] = w.executables;
      const kernel = w.write('kernel.lzma', w.lzma(mipsel!.file));
      const uimageArgs = [
        '-A',
        'mips',
        '-O',
        'linux',
        '-T',
        'kernel',
        '-C',
        'lzma',
        '-a',
        '80001000',
        '-e',
        '80001000',
      ];
      const layout = new FlashLayout()
        .noise(0x3000, 21)
        .padTo(0x10000, 0xff)
        .part('uimage', readFileSync(w.uimage('kernel.uimage', uimageArgs, kernel)))
        .padTo(0x10000, 0xff)
        .part('squashfs', readFileSync(w.squashfs('rootfs.squashfs', w.tree('root', [x64!, x86!]), 'xz')))
        .padTo(0x10000, 0x00)
        .noise(2000, 22)
        .padTo(0x1000, 0x00)
        .part('jffs2', readFileSync(w.jffs2('overlay.jffs2', w.tree('overlay', [arm64!, armhf!]), '-b')))
        .padTo(0x10000, 0xff);
      return {
        file: w.write('flash.bin', layout.bytes()),
        expected: w.executables,
        parts: layout.parts,
        password: null,
      };
    },
  },
];

/** Whether a command is on the PATH. */
export const onPath = (cmd: string): boolean =>
  (process.env.PATH ?? '').split(delimiter).some((d) => d !== '' && existsSync(join(d, cmd)));

/** The cases whose tools are all installed, and a line for each that is not. */
export function buildableCases(cases: readonly ImageCase[]): { ready: ImageCase[]; missing: string[] } {
  const ready: ImageCase[] = [];
  const missing: string[] = [];
  for (const c of cases) {
    const absent = c.tools.filter(([cmd]) => !onPath(cmd));
    if (absent.length === 0) ready.push(c);
    else
      missing.push(
        `${c.name}: not built, ${absent.map(([cmd, pkg]) => `${cmd} (apt-get install ${pkg})`).join(', ')} missing`,
      );
  }
  return { ready, missing };
}
