import { test } from 'node:test';
import assert from 'node:assert/strict';
import { closeSync, existsSync, openSync, readFileSync, readSync, statSync } from 'node:fs';
import path from 'node:path';
import type { Architecture, BinaryFormat, Platform } from '../../contracts/result.js';
import { pickModel } from '../models.js';
import { identify } from './identify.js';

// Tests run compiled from dist/, always with cwd = project root, so the corpus is found from cwd.
const CORPUS = path.resolve(process.cwd(), '..', 'shared', 'corpus');
const PREFIX = 64 * 1024;

interface ManifestEntry {
  path: string;
  size: number;
  format: string;
  os: string;
  arch: string;
  bits: number;
  endianness: string;
  image_base?: string | null;
}

// The manifest spells formats and architectures as readelf/file do; ours are the contract's.
const FORMATS: Record<string, BinaryFormat> = { ELF: 'elf', PE: 'pe', 'Mach-O': 'macho' };
const ARCHS: Record<string, Architecture> = {
  x86_64: 'x86_64',
  amd64: 'x86_64',
  i386: 'x86',
  i686: 'x86',
  aarch64: 'arm64',
  arm64: 'arm64',
  arm: 'arm',
  armhf: 'arm',
  mips: 'mips',
  mipsel: 'mips',
};
const PLATFORMS: Record<string, Platform> = { linux: 'linux', windows: 'windows', android: 'android', macos: 'macos' };
const MODELLED: ReadonlySet<Architecture> = new Set<Architecture>(['x86', 'x86_64', 'arm64']);

function readPrefix(file: string): Uint8Array {
  const fd = openSync(file, 'r');
  try {
    const buf = Buffer.alloc(PREFIX);
    return buf.subarray(0, readSync(fd, buf, 0, PREFIX, 0));
  } finally {
    closeSync(fd);
  }
}

test('identify: every corpus binary matches its manifest', (t) => {
  if (!existsSync(path.join(CORPUS, 'manifest.json'))) {
    t.skip(`${CORPUS} absent`);
    return;
  }
  const manifest = JSON.parse(readFileSync(path.join(CORPUS, 'manifest.json'), 'utf8')) as {
    binaries: ManifestEntry[];
  };
  assert.ok(manifest.binaries.length > 0, 'manifest lists binaries');
  const disagreements: string[] = [];
  for (const entry of manifest.binaries) {
    const file = path.join(CORPUS, entry.path);
    const id = identify(readPrefix(file), statSync(file).size);
    const want = {
      format: FORMATS[entry.format],
      architecture: ARCHS[entry.arch],
      bits: entry.bits,
      endianness: entry.endianness,
      platform: PLATFORMS[entry.os],
    };
    const got = {
      format: id.format,
      architecture: id.architecture,
      bits: id.bits,
      endianness: id.endianness,
      platform: id.platform,
    };
    const model = pickModel(id);
    const problems: string[] = [];
    if (JSON.stringify(got) !== JSON.stringify(want))
      problems.push(`got ${JSON.stringify(got)}, manifest ${JSON.stringify(want)}`);
    // Every corpus binary is a program: PIEs (ET_DYN + PT_INTERP) must not pass for libraries.
    if (id.binaryType !== 'executable') problems.push(`binaryType ${id.binaryType}`);
    if (entry.image_base != null && id.baseAddress !== Number(entry.image_base)) {
      problems.push(`baseAddress ${id.baseAddress} vs image_base ${entry.image_base}`);
    }
    if (
      want.architecture &&
      MODELLED.has(want.architecture) &&
      (want.format === 'elf' || want.format === 'pe') &&
      !model
    ) {
      problems.push('no model');
    }
    if (problems.length > 0) disagreements.push(`${entry.path}: ${problems.join('; ')}`);
  }
  t.diagnostic(`${manifest.binaries.length} corpus binaries checked`);
  assert.deepEqual(disagreements, []);
});
