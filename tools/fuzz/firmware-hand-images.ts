// Firmware seeds built in memory, so the firmware target has seeds of most formats where none of Debian's
// tools is installed: tar, cpio, zip (test/helpers/firmware/builders.ts), gzip and zlib streams (node:zlib),
// uImage (single and multi-file), FIT, TRX, Android boot (v0, v3) and sparse images, Intel HEX, S-records,
// executables carved from a blob, and a chain of containers nested five deep. Layouts: U-Boot's image.h and
// FIT spec, Broadcom's trx.h, AOSP's bootimg.h and sparse_format.h, the devicetree specification.
import { deflateSync, gzipSync } from 'node:zlib';
import { crc32Update, crc32Value } from '../../src/engine/fuzzy/crc32.js';
import { fatMachO } from '../../test/helpers/engine/formats.js';
import { syntheticMachO } from '../../test/helpers/engine/macho.js';
import { syntheticPe } from '../../test/helpers/engine/pe.js';
import { sampleProgram } from '../../test/helpers/engine/sample-program.js';
import { cpioNewc, tar, zip, type HandEntry } from '../../test/helpers/firmware/builders.js';
import { noise } from '../../test/helpers/samples.js';

export interface NamedImage {
  name: string;
  bytes: Uint8Array;
}

const text = (line: string, times: number) => Buffer.from(line.repeat(times));

/**
 * The files every seed's file system or archive holds (~9 KiB): part random, part text (compressible), an
 * empty file, a gzip file (to recurse into), a deep path and a 100-byte name. Fixed bytes, so seeds built on
 * two machines with the same tools are the same.
 */
export const SEED_FILES: ReadonlyMap<string, Buffer> = new Map([
  ['bin/busybox', Buffer.concat([noise(2500, 7), text('BusyBox v1.36 multi-call binary\n', 80)])],
  ['etc/config', text('option hostname router\noption lan 192.168.1.1\n', 30)],
  ['etc/empty', Buffer.alloc(0)],
  ['etc/defaults.gz', gzipSync(text('wifi.ssid=binlens\n', 40))],
  ['lib/modules/5.10.0/kernel/drivers/net/wifi.ko', noise(600, 8)],
  [`www/${'n'.repeat(95)}.html`, text('<p>status</p>\n', 12)],
]);

/** The seed tree's symbolic link, empty directory and FIFO, as tar would list them. */
const SPECIAL: HandEntry[] = [
  { name: 'bin/sh', type: '2', link: 'busybox' },
  { name: 'tmp/', type: '5' },
  { name: 'dev/initctl', type: '6' },
];

/** A kernel-like payload: a random head, then text (so gzip and LZMA have something to find). */
export const KERNEL = Buffer.concat([noise(1500, 9), text('Linux version 5.10.0 (gcc 12)\n', 50)]);

const u32be = (...values: number[]) => {
  const b = Buffer.alloc(4 * values.length);
  values.forEach((x, i) => b.writeUInt32BE(x >>> 0, 4 * i));
  return b;
};
const pad = (b: Uint8Array, to: number, value = 0) =>
  Buffer.concat([b, Buffer.alloc((to - (b.length % to)) % to, value)]);

/** A legacy uImage: the 64-byte big-endian header (CRC over itself with the CRC field zero), then the payload. */
export function uimage(payload: Uint8Array, type: number, comp: number, name: string): Buffer {
  const h = Buffer.alloc(64);
  h.writeUInt32BE(0x27051956, 0);
  h.writeUInt32BE(payload.length, 12);
  h.writeUInt32BE(0x80008000, 16);
  h.writeUInt32BE(0x80008000, 20);
  h.writeUInt32BE(crc32Value(payload), 24);
  h.writeUInt8(5, 28); // linux
  h.writeUInt8(5, 29); // mips
  h.writeUInt8(type, 30);
  h.writeUInt8(comp, 31);
  h.write(name, 32, 32, 'latin1');
  h.writeUInt32BE(crc32Value(h), 4);
  return Buffer.concat([h, payload]);
}

/** A multi-file uImage's payload: the zero-ended table of sizes, then each part 4-aligned. */
const multi = (parts: Uint8Array[]) =>
  Buffer.concat([u32be(...parts.map((p) => p.length), 0), ...parts.map((p) => pad(p, 4))]);

/** A TRX v1 image of the partitions (each 4-aligned): its CRC-32 is stored uninverted. */
function trx(parts: Uint8Array[]): Buffer {
  const offsets: number[] = [];
  let at = 28;
  for (const p of parts) {
    offsets.push(at);
    at += pad(p, 4).length;
  }
  const image = Buffer.concat([Buffer.alloc(28), ...parts.map((p) => pad(p, 4))]);
  image.write('HDR0', 0, 'latin1');
  image.writeUInt32LE(image.length, 4);
  image.writeUInt16LE(1, 14);
  offsets.slice(0, 3).forEach((o, i) => image.writeUInt32LE(o, 16 + 4 * i));
  image.writeUInt32LE(crc32Update(-1, image.subarray(12)) >>> 0, 8);
  return image;
}

/** An Android boot image, header v0 (page size given) or v3 (4096), of a kernel and a ramdisk. */
function androidBoot(version: 0 | 3, kernel: Uint8Array, ramdisk: Uint8Array, cmdline: string): Buffer {
  const page = version === 3 ? 4096 : 2048;
  const h = Buffer.alloc(page);
  h.write('ANDROID!', 0, 'latin1');
  h.writeUInt32LE(kernel.length, 8);
  h.writeUInt32LE(version, 40);
  if (version === 3) {
    h.writeUInt32LE(ramdisk.length, 12);
    h.writeUInt32LE(1580, 20);
    h.write(cmdline, 44, 'latin1');
  } else {
    h.writeUInt32LE(0x10008000, 12);
    h.writeUInt32LE(ramdisk.length, 16);
    h.writeUInt32LE(0x11000000, 20);
    h.writeUInt32LE(0x10000100, 32);
    h.writeUInt32LE(page, 36);
    h.write(cmdline, 64, 'latin1');
  }
  return Buffer.concat([h, pad(kernel, page), pad(ramdisk, page)]);
}

/** An Android sparse image of 1 KiB blocks: raw, fill, don't-care and a CRC-32 chunk of what came before. */
function androidSparse(raw: Uint8Array): Buffer {
  const block = 1024;
  const data = pad(raw, block);
  const rawBlocks = data.length / block;
  const chunk = (type: number, blocks: number, body: Uint8Array) => {
    const c = Buffer.alloc(12);
    c.writeUInt16LE(type, 0);
    c.writeUInt32LE(blocks, 4);
    c.writeUInt32LE(12 + body.length, 8);
    return Buffer.concat([c, body]);
  };
  const fillWord = Buffer.from([0xde, 0xad, 0xbe, 0xef]);
  const expanded = Buffer.concat([data, Buffer.alloc(2 * block, 0).map((_, i) => fillWord[i % 4]!)]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32LE(crc32Value(expanded), 0);
  const chunks = [
    chunk(0xcac1, rawBlocks, data),
    chunk(0xcac2, 2, fillWord),
    chunk(0xcac4, 0, crc),
    chunk(0xcac3, 3, new Uint8Array(0)),
  ];
  const h = Buffer.alloc(28);
  h.writeUInt32LE(0xed26ff3a, 0);
  h.writeUInt16LE(1, 4);
  h.writeUInt16LE(28, 8);
  h.writeUInt16LE(12, 10);
  h.writeUInt32LE(block, 12);
  h.writeUInt32LE(rawBlocks + 5, 16);
  h.writeUInt32LE(chunks.length, 20);
  return Buffer.concat([h, ...chunks]);
}

/** A flattened device tree of `nodes` (name → properties) under the root, as a FIT lays out its images. */
function fit(description: string, images: Record<string, Record<string, Uint8Array>>): Buffer {
  const strings: string[] = [];
  const nameAt = (name: string) => {
    if (!strings.includes(name)) strings.push(name);
    return Buffer.from(
      strings
        .slice(0, strings.indexOf(name))
        .map((s) => `${s}\0`)
        .join(''),
    ).length;
  };
  const begin = (name: string) => Buffer.concat([u32be(1), pad(Buffer.from(`${name}\0`), 4)]);
  const prop = (name: string, value: Uint8Array) =>
    Buffer.concat([u32be(3, value.length, nameAt(name)), pad(value, 4)]);
  const end = u32be(2);
  const struct = Buffer.concat([
    begin(''),
    prop('description', Buffer.from(`${description}\0`)),
    begin('images'),
    ...Object.entries(images).flatMap(([name, props]) => [
      begin(name),
      ...Object.entries(props).map(([k, v]) => prop(k, v)),
      end,
    ]),
    end,
    end,
    u32be(9),
  ]);
  const stringBlock = Buffer.from(strings.map((s) => `${s}\0`).join(''));
  const reserve = Buffer.alloc(16);
  const structAt = 40 + reserve.length;
  const stringsAt = structAt + struct.length;
  const header = u32be(0xd00dfeed, stringsAt + stringBlock.length, structAt, stringsAt, 40, 17, 16, 0);
  return Buffer.concat([header, u32be(stringBlock.length, struct.length), reserve, struct, stringBlock]);
}

/** A Unix ar archive (a Debian package's layout when the members are its three), GNU long names included. */
function ar(members: { name: string; data: Uint8Array }[]): Buffer {
  const long = members.filter((m) => m.name.length > 15);
  const table = long.map((m) => `${m.name}/\n`).join('');
  const header = (name: string, size: number) =>
    Buffer.from(
      `${name.padEnd(16)}${'0'.padEnd(12)}${'0'.padEnd(6)}${'0'.padEnd(6)}${'100644'.padEnd(8)}${String(size).padEnd(10)}\x60\n`,
      'latin1',
    );
  const member = (name: string, data: Uint8Array) => Buffer.concat([header(name, data.length), pad(data, 2, 0x0a)]);
  const parts = [Buffer.from('!<arch>\n', 'latin1')];
  if (table) parts.push(member('//', Buffer.from(table)));
  for (const m of members)
    parts.push(member(m.name.length > 15 ? `/${table.indexOf(`${m.name}/`)}` : `${m.name}/`, m.data));
  return Buffer.concat(parts);
}

/** Intel HEX of `data` at `base` (an extended linear address record first), 16 bytes a record. */
function intelHex(data: Uint8Array, base: number): Buffer {
  const record = (type: number, address: number, body: Uint8Array) => {
    const bytes = [body.length, (address >> 8) & 0xff, address & 0xff, type, ...body];
    const sum = (0x100 - (bytes.reduce((a, b) => a + b, 0) & 0xff)) & 0xff;
    return `:${[...bytes, sum].map((b) => b.toString(16).padStart(2, '0').toUpperCase()).join('')}\r\n`;
  };
  const lines = [record(4, 0, Uint8Array.from([(base >>> 24) & 0xff, (base >>> 16) & 0xff]))];
  for (let at = 0; at < data.length; at += 16) lines.push(record(0, (base + at) & 0xffff, data.subarray(at, at + 16)));
  lines.push(record(1, 0, new Uint8Array(0)));
  return Buffer.from(lines.join(''), 'latin1');
}

/** S-records of `data` at a 32-bit `base` (S3), with a header (S0), a count (S5) and an end (S7). */
function srec(data: Uint8Array, base: number): Buffer {
  const record = (type: number, address: number[], body: Uint8Array) => {
    const bytes = [address.length + body.length + 1, ...address, ...body];
    const sum = ~bytes.reduce((a, b) => a + b, 0) & 0xff;
    return `S${type}${[...bytes, sum].map((b) => b.toString(16).padStart(2, '0').toUpperCase()).join('')}\n`;
  };
  const be32 = (n: number) => [(n >>> 24) & 0xff, (n >>> 16) & 0xff, (n >>> 8) & 0xff, n & 0xff];
  const lines = [record(0, [0, 0], Buffer.from('binlens'))];
  let count = 0;
  for (let at = 0; at < data.length; at += 16, count++)
    lines.push(record(3, be32(base + at), data.subarray(at, at + 16)));
  lines.push(
    record(5, [(count >> 8) & 0xff, count & 0xff], new Uint8Array(0)),
    record(7, be32(base), new Uint8Array(0)),
  );
  return Buffer.from(lines.join(''), 'latin1');
}

export function handBuiltImages(): NamedImage[] {
  const files = [...SEED_FILES].map(([name, data]) => ({ name, data }));
  const tarball = tar([...files, ...SPECIAL]);
  const cpio = cpioNewc([
    { name: 'bin', mode: 0o40755 },
    ...files,
    { name: 'bin/sh', data: Buffer.from('busybox'), mode: 0o120777 },
    { name: 'dev/initctl', mode: 0o10600 },
  ]);
  const zipped = zip(files);
  const ramdisk = gzipSync(cpio);
  const kernel = uimage(gzipSync(KERNEL), 2, 1, 'Linux-5.10.0');
  const elf = sampleProgram({ bits: 32, little: true, machine: 40 });
  const macho = fatMachO([{ cputype: 7, image: syntheticMachO({ bits: 32, cputype: 7 }).bytes }]);
  const nested = gzipSync(
    tar([{ name: 'update/inner.zip', data: zip([{ name: 'initrd.cpio.gz', data: ramdisk }]) }, ...files.slice(0, 2)]),
  );
  const firmware = Buffer.concat([
    pad(kernel, 4096, 0xff),
    pad(Buffer.from(tarball), 4096, 0xff),
    Buffer.alloc(2048, 0xff),
  ]);
  return [
    { name: 'hand-tar', bytes: tarball },
    {
      name: 'hand-ar-deb',
      bytes: ar([
        { name: 'debian-binary', data: Buffer.from('2.0\n') },
        { name: 'control.tar.gz', data: gzipSync(tar(files.slice(1, 2))) },
        { name: 'data.tar.gz', data: gzipSync(tarball) },
        { name: 'a-member-with-a-long-name.txt', data: KERNEL.subarray(1500, 1600) },
      ]),
    },
    { name: 'hand-cpio-newc', bytes: cpio },
    { name: 'hand-zip', bytes: zipped },
    { name: 'hand-tar-gzip', bytes: gzipSync(tarball) },
    { name: 'hand-cpio-zlib', bytes: deflateSync(cpio) },
    { name: 'hand-uimage-gzip', bytes: kernel },
    { name: 'hand-uimage-multi', bytes: uimage(multi([gzipSync(KERNEL), ramdisk]), 4, 0, 'multi') },
    {
      name: 'hand-fit',
      bytes: fit('kernel and ramdisk', {
        'kernel-1': { data: gzipSync(KERNEL), compression: Buffer.from('gzip\0'), type: Buffer.from('kernel\0') },
        'ramdisk-1': { data: cpio, compression: Buffer.from('none\0'), type: Buffer.from('ramdisk\0') },
      }),
    },
    { name: 'hand-trx', bytes: trx([kernel, gzipSync(tarball)]) },
    { name: 'hand-android-boot-v0', bytes: androidBoot(0, KERNEL, ramdisk, 'console=ttyMSM0,115200n8') },
    { name: 'hand-android-boot-v3', bytes: androidBoot(3, gzipSync(KERNEL), ramdisk, 'androidboot.hardware=fuzz') },
    { name: 'hand-android-sparse', bytes: androidSparse(tarball) },
    { name: 'hand-intel-hex', bytes: intelHex(KERNEL.subarray(0, 700), 0x0800_0000) },
    { name: 'hand-srec', bytes: srec(KERNEL.subarray(0, 700), 0x0800_0000) },
    {
      name: 'hand-executables',
      bytes: Buffer.concat([Buffer.alloc(512, 0xff), elf, gzipSync(KERNEL), macho, syntheticPe(32).bytes]),
    },
    { name: 'hand-nested', bytes: nested },
    { name: 'hand-flash-layout', bytes: firmware },
  ];
}
