// Archives made by `7z a` (Debian's p7zip-full) from a tree made here, read back and compared with the tree
// byte for byte: every method and filter 7z writes, solid and not, plain and encoded headers, passwords
// with and without encrypted headers, symlinks, empty files and directories, and an archive carved out of
// noise with its exact extent.
import assert from 'node:assert/strict';
import { chmodSync, lstatSync, mkdirSync, readdirSync, readFileSync, readlinkSync, symlinkSync } from 'node:fs';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { inTempDir, missingTool, runTool } from '../../../../../test/helpers/firmware/tools.js';
import type { Entry, EntryKind, Probed, ReadContext } from '../../format.js';
import { sevenZipFormat } from './index.js';
import { riscvDecode } from './riscv.js';

const noTool = missingTool('7z', 'p7zip-full');
const PASSWORD = 'Pässwörd 7';

/** A deterministic byte source (xorshift32). */
function random(seed: number): (n: number) => Uint8Array {
  let s = seed >>> 0 || 1;
  return (n) => {
    const out = new Uint8Array(n);
    for (let i = 0; i < n; i++) {
      s ^= s << 13;
      s ^= s >>> 17;
      s ^= s << 5;
      out[i] = s & 0xff;
    }
    return out;
  };
}

/** Text that compresses about 3:1, as configs and scripts do. */
function wordy(bytes: (n: number) => Uint8Array, n: number): Uint8Array {
  const words = ['busybox', 'httpd', 'libc.so.0', 'nvram', 'wan_proto', 'dhcp', '\n', ' ', '0x00', 'eth0'];
  let text = '';
  for (const r of bytes(n)) {
    text += words[r % words.length]!;
    if (text.length >= n) break;
  }
  return Buffer.from(text).subarray(0, n);
}

/**
 * Words that the branch converters convert: ARM and ARM64 `bl`, Thumb `bl` pairs, PowerPC `bl`, SPARC
 * `call`, x86 E8/E9 with near targets, among random words, so every filter has work to undo.
 */
function branchy(bytes: (n: number) => Uint8Array, words: number): Uint8Array {
  const r = Buffer.from(bytes(words * 5));
  const out = Buffer.alloc(words * 4);
  for (let i = 0; i < words; i++) {
    const v = r.readUInt32LE(i * 4);
    const little = [
      (v & 0x00ffffff) | 0xeb000000,
      (v & 0x03ffffff) | 0x94000000,
      0xf800f000 | (v & 0x07ff07ff),
      0xe8 | ((v & 0xff) << 8),
      v,
    ];
    const big = [(v & 0x03fffffc) | 0x48000001, (v & 0x0000ffff) | 0x40000000];
    const k = r[words * 4 + i]! % (little.length + big.length);
    if (k < little.length) out.writeUInt32LE(little[k]! >>> 0, i * 4);
    else out.writeUInt32BE(big[k - little.length]! >>> 0, i * 4);
  }
  return out;
}

/** RISC-V-like code: JAL ra/t0, AUIPC pairs with and without a matching rs1, compressed halfwords, noise. */
function riscvLike(bytes: (n: number) => Uint8Array, count: number): Uint8Array {
  const r = Buffer.from(bytes(count * 9));
  const parts: Buffer[] = [];
  for (let i = 0; i < count; i++) {
    const v = r.readUInt32LE(i * 8);
    const w = r.readUInt32LE(i * 8 + 4);
    const rd = [1, 5, 10, 2, 0][w % 5]!;
    const word = (x: number) => {
      const b = Buffer.alloc(4);
      b.writeUInt32LE(x >>> 0);
      return b;
    };
    switch (r[count * 8 + i]! % 4) {
      case 0:
        parts.push(word((v & 0xfffff000) | (rd << 7) | 0x6f));
        break;
      case 1:
        parts.push(word((v & 0xfffff000) | (rd << 7) | 0x17));
        parts.push(word((w & 0xfff00000) | ((v & 1 ? rd : w & 31) << 15) | (w & 0x7000) | 0x0f80 | 0x67));
        break;
      case 2:
        parts.push(Buffer.from([v & 0xfc, (v >>> 8) & 0xff]));
        break;
      default:
        parts.push(word(v));
    }
  }
  return Buffer.concat(parts);
}

function makeTree(root: string): void {
  const bytes = random(0x7a);
  const file = (path: string, data: Uint8Array | string, mode = 0o644) => {
    mkdirSync(join(root, path, '..'), { recursive: true });
    writeFileSync(join(root, path), data);
    chmodSync(join(root, path), mode);
  };
  file('etc/hostname', 'router\n');
  file('etc/passwd', 'root:x:0:0:root:/root:/bin/sh\n', 0o600);
  file('bin/busybox', wordy(bytes, 300_000), 0o755);
  file('bin/ls', readFileSync('/bin/ls'), 0o755);
  file('lib/branchy.bin', branchy(bytes, 40_000));
  file('lib/riscv.bin', riscvLike(bytes, 20_000));
  file('lib/random.bin', bytes(100_000));
  file('empty', '');
  file('名前/ünïcødé.txt', 'ünïcødé\n');
  mkdirSync(join(root, 'var/empty'), { recursive: true });
  symlinkSync('../etc/hostname', join(root, 'bin/hostname'));
}

interface Expected {
  kind: EntryKind;
  data?: Buffer;
  target?: string;
  mode: number;
}

/** Every path under `root` ('/'-separated, relative) with what the archive must say about it. */
function walk(root: string, prefix = '', out = new Map<string, Expected>()): Map<string, Expected> {
  for (const name of readdirSync(join(root, prefix))) {
    const rel = prefix ? `${prefix}/${name}` : name;
    const st = lstatSync(join(root, rel));
    const mode = st.mode & 0o7777;
    if (st.isSymbolicLink()) out.set(rel, { kind: 'symlink', target: readlinkSync(join(root, rel)), mode });
    else if (st.isDirectory()) {
      out.set(rel, { kind: 'dir', mode });
      walk(root, rel, out);
    } else out.set(rel, { kind: 'file', data: readFileSync(join(root, rel)), mode });
  }
  return out;
}

interface Read {
  probed: Probed | null;
  entries: Entry[];
  problems: string[];
}

function readArchive(data: Uint8Array, password: string | null, budget = 1 << 30, offset = 0): Read {
  const problems: string[] = [];
  const ctx: ReadContext = { remaining: () => budget, password, problem: (m) => problems.push(m) };
  const probed = sevenZipFormat.probe(data, offset, ctx);
  return { probed, entries: probed ? [...probed.entries(ctx)] : [], problems };
}

/** Builds the tree, archives it with `options` and returns the archive and the tree's contents. */
function archive(options: string[]): { data: Buffer; tree: Map<string, Expected> } {
  return inTempDir((dir) => {
    const src = join(dir, 'src');
    mkdirSync(src);
    makeTree(src);
    runTool('7z', ['a', '-bd', '-snl', ...options, join(dir, 'out.7z'), '.'], { cwd: src });
    return { data: readFileSync(join(dir, 'out.7z')), tree: walk(src) };
  });
}

function assertMatchesTree(read: Read, tree: Map<string, Expected>, what: string): void {
  assert.deepEqual(read.problems, [], `${what}: no problems`);
  const seen = new Map(read.entries.map((e) => [e.path, e]));
  assert.equal(seen.size, read.entries.length, `${what}: no path twice`);
  assert.deepEqual([...seen.keys()].sort(), [...tree.keys()].sort(), `${what}: the same paths`);
  for (const [path, want] of tree) {
    const got = seen.get(path)!;
    assert.equal(got.kind, want.kind, `${what}: ${path} kind`);
    assert.equal(got.mode, want.mode, `${what}: ${path} mode`);
    if (want.data) assert.ok(want.data.equals(got.data!), `${what}: ${path} bytes`);
    if (want.target !== undefined) assert.equal(got.target, want.target, `${what}: ${path} target`);
  }
}

/** Options, and the methods the description must name (so each variant really uses what it tests). */
const VARIANTS: [string, string[], string[]][] = [
  ['default (LZMA2, BCJ for executables)', [], ['LZMA2', 'BCJ']],
  ['LZMA', ['-m0=LZMA'], ['LZMA']],
  ['PPMd', ['-m0=PPMd'], ['PPMd']],
  ['PPMd in 64 KiB (the model restarts)', ['-m0=PPMd:mem=64k:o=16'], ['PPMd']],
  ['PPMd order 32 in 1 MiB (free blocks glued)', ['-m0=PPMd:mem=1m:o=32'], ['PPMd']],
  ['BZip2', ['-m0=BZip2'], ['BZip2']],
  ['Deflate', ['-m0=Deflate'], ['Deflate']],
  ['Copy', ['-m0=Copy'], ['Copy']],
  ['BCJ', ['-mf=BCJ'], ['BCJ']],
  ['BCJ2', ['-mf=BCJ2'], ['BCJ2', 'LZMA']],
  ['ARM', ['-mf=ARM'], ['ARM']],
  ['ARMT', ['-mf=ARMT'], ['ARMT']],
  ['ARM64', ['-mf=ARM64'], ['ARM64']],
  ['PPC', ['-mf=PPC'], ['PPC']],
  ['SPARC', ['-mf=SPARC'], ['SPARC']],
  ['IA64', ['-mf=IA64'], ['IA64']],
  ['RISCV', ['-mf=RISCV'], ['RISCV']],
  ['Delta', ['-mf=Delta:4'], ['Delta']],
  ['Swap4', ['-mf=Swap4'], ['Swap4']],
  ['non-solid', ['-ms=off'], ['LZMA2']],
  ['plain header', ['-mhc=off'], ['LZMA2']],
  ['password', [`-p${PASSWORD}`], ['7zAES']],
  ['password, encrypted header', [`-p${PASSWORD}`, '-mhe=on'], ['7zAES']],
];

for (const [what, options, methods] of VARIANTS) {
  test(`7z: ${what} reads back as the tree`, (t) => {
    if (noTool) return t.skip(noTool);
    const { data, tree } = archive(options);
    const read = readArchive(data, PASSWORD);
    assert.ok(read.probed, 'recognised');
    assert.equal(read.probed.size, data.length, 'extent is the whole archive');
    for (const m of methods) assert.match(read.probed.description!, new RegExp(`\\b${m}\\b`), `uses ${m}`);
    assertMatchesTree(read, tree, what);
  });
}

test('7z: solid and non-solid archives say so; -mhe hides even the names', (t) => {
  if (noTool) return t.skip(noTool);
  assert.match(readArchive(archive([]).data, null).probed!.description!, /solid/);
  assert.doesNotMatch(readArchive(archive(['-ms=off']).data, null).probed!.description!, /solid/);
  const hidden = readArchive(archive([`-p${PASSWORD}`, '-mhe=on']).data, null);
  assert.match(hidden.probed!.description!, /encrypted header/);
});

test('7z: the RISC-V sample really exercises the filter', () => {
  const sample = riscvLike(random(3), 2000);
  const decoded = Buffer.from(sample);
  riscvDecode(decoded, 0);
  assert.ok(!decoded.equals(sample), 'decoding changes the sample, so encoding did too');
});

test('7z: without the password, encrypted files are problems and the rest is listed', (t) => {
  if (noTool) return t.skip(noTool);
  const { data, tree } = archive([`-p${PASSWORD}`]);
  const read = readArchive(data, null);
  const withData = [...tree].filter(([, e]) => e.kind !== 'dir' && (e.data?.length ?? 1) > 0).map(([p]) => p);
  assert.deepEqual(
    read.problems.sort(),
    withData.map((p) => `7z entry ${p} is encrypted: give the archive's password to extract it`).sort(),
  );
  assert.ok(read.entries.some((e) => e.path === 'var/empty' && e.kind === 'dir'));
  assert.ok(read.entries.some((e) => e.path === 'empty' && e.data?.length === 0));
  assert.ok(!read.entries.some((e) => e.data && e.data.length > 0), 'no encrypted bytes given out');
});

test('7z: a wrong password is named as such, for the files and for an encrypted header', (t) => {
  if (noTool) return t.skip(noTool);
  const files = readArchive(archive([`-p${PASSWORD}`]).data, 'not it');
  assert.ok(files.problems.length > 0);
  for (const p of files.problems) assert.match(p, /wrong password/);
  assert.ok(!files.entries.some((e) => e.data && e.data.length > 0));

  const hidden = archive([`-p${PASSWORD}`, '-mhe=on']).data;
  const none = readArchive(hidden, null);
  assert.deepEqual(none.entries, []);
  assert.deepEqual(none.problems, [
    "7z archive's file list is encrypted: give the archive's password to list and extract it",
  ]);
  const wrong = readArchive(hidden, 'not it');
  assert.deepEqual(wrong.entries, []);
  assert.equal(wrong.problems.length, 1);
  assert.match(wrong.problems[0]!, /wrong password/);
});

test('7z: an archive inside noise is found at its offset with its exact extent', (t) => {
  if (noTool) return t.skip(noTool);
  const { data, tree } = archive(['-ms=off']);
  const noise = random(99);
  const image = Buffer.concat([noise(5000), data, noise(7000)]);
  // A false signature in the noise (its CRC cannot hold) is refused.
  image.set([0x37, 0x7a, 0xbc, 0xaf, 0x27, 0x1c, 0, 4], 100);
  assert.equal(readArchive(image, null, 1 << 30, 100).probed, null);
  const read = readArchive(image, null, 1 << 30, 5000);
  assert.equal(read.probed!.size, data.length);
  assertMatchesTree(read, tree, 'embedded');
  // Cut short, the archive has no extent: not recognised.
  assert.equal(readArchive(image.subarray(0, 5000 + data.length - 1), null, 1 << 30, 5000).probed, null);
});

test('7z: a damaged file is a problem for that file only', (t) => {
  if (noTool) return t.skip(noTool);
  const { data, tree } = archive(['-m0=Copy', '-mhc=off']);
  const damaged = Buffer.from(data);
  const at = damaged.indexOf(Buffer.from('root:x:0:0'));
  damaged[at] = damaged[at]! ^ 0xff;
  const read = readArchive(damaged, null);
  assert.deepEqual(read.problems, ['7z entry etc/passwd: CRC-32 mismatch']);
  assert.equal(read.entries.length, tree.size - 1);
});

test('7z: output past the budget is a problem per file, not an allocation', (t) => {
  if (noTool) return t.skip(noTool);
  const read = readArchive(archive(['-ms=off']).data, null, 200_000);
  assert.ok(read.problems.some((p) => /bin\/busybox: decompressed output passes 200000 bytes/.test(p)));
  assert.ok(read.entries.some((e) => e.path === 'etc/hostname' && e.data?.length === 7));
});

test('7z: an empty archive is 32 bytes with nothing in it', (t) => {
  if (noTool) return t.skip(noTool);
  const data = inTempDir((dir) => {
    mkdirSync(join(dir, 'none'));
    runTool('7z', ['a', '-bd', join(dir, 'e.7z'), '.'], { cwd: join(dir, 'none') });
    return readFileSync(join(dir, 'e.7z'));
  });
  const read = readArchive(data, null);
  assert.equal(read.probed!.size, 32);
  assert.deepEqual(read.entries, []);
});
