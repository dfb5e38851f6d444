import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { elf, pe, PE_LFANEW } from '../../test/helpers/engine/formats.js';
import { hashBytes, shannonEntropy } from './hashes.js';
import { IDENTIFY_PREFIX, STAGE_NAMES, analyze, analyzeTypes, type AnalyzeOptions } from './pipeline.js';

const elfX64 = elf({
  bits: 64,
  little: true,
  type: 2,
  machine: 62,
  entry: 0x401000,
  segments: [{ type: 1, vaddr: 0x400000 }],
});
const pe64 = pe({ bits: 64, machine: 0x8664, imageBase: 0x140000000, entryRva: 0x1000, importSize: 0x28 });
const blob = new Uint8Array(4096).map((_, i) => (i * 31 + 7) & 0xff);

// crc32 from zlib 1.2.13, ssdeep from the ssdeep 2.14.1 CLI; TLSH needs 50 bytes (see engine/fuzzy for more cases).
test('hashBytes: known digests of "abc"', () => {
  assert.deepEqual(hashBytes(new TextEncoder().encode('abc')), {
    md5: '900150983cd24fb0d6963f7d28e17f72',
    sha1: 'a9993e364706816aba3e25717850c26c9cd0d89d',
    sha256: 'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad',
    crc32: '352441c2',
    tlsh: 'TNULL',
    ssdeep: '3:uG:uG',
  });
});

const entropyCases: [string, Uint8Array, number][] = [
  ['empty', new Uint8Array(0), 0],
  ['one repeated byte', new Uint8Array(1000).fill(0x41), 0],
  ['two equally likely bytes', new Uint8Array([0, 1, 0, 1]), 1],
  ['"aab"', new TextEncoder().encode('aab'), 0.9183],
  ['every byte value once', new Uint8Array(256).map((_, i) => i), 8],
];
for (const [name, bytes, want] of entropyCases) {
  test(`shannonEntropy: ${name} → ${want}`, () => assert.equal(shannonEntropy(bytes), want));
}

const analyzeCases: {
  name: string;
  bytes: Uint8Array;
  options: AnalyzeOptions;
  want: { format: string; architecture: string; bits: number | null; platform: string; modelName: string | null };
}[] = [
  {
    name: 'ELF x86_64',
    bytes: elfX64,
    options: {},
    want: { format: 'elf', architecture: 'x86_64', bits: 64, platform: 'linux', modelName: 'binnet-0.7-x86-64-linux' },
  },
  {
    name: 'PE32+ x86_64',
    bytes: pe64,
    options: {},
    want: {
      format: 'pe',
      architecture: 'x86_64',
      bits: 64,
      platform: 'windows',
      modelName: 'binnet-0.7-x86-64-windows',
    },
  },
  {
    name: 'ELF keeps its own identity over a conflicting config',
    bytes: elfX64,
    options: { binaryConfig: { isa: 'arm', platform: 'windows', file_format: 'pe' } },
    want: { format: 'elf', architecture: 'x86_64', bits: 64, platform: 'linux', modelName: 'binnet-0.7-x86-64-linux' },
  },
  {
    name: 'raw blob without config',
    bytes: blob,
    options: {},
    want: { format: 'raw', architecture: 'unknown', bits: null, platform: 'unknown', modelName: null },
  },
  {
    name: 'raw blob, isa x86 on windows',
    bytes: blob,
    options: { binaryConfig: { isa: 'x86', platform: 'windows', file_format: 'blob' } },
    want: { format: 'raw', architecture: 'x86', bits: 32, platform: 'windows', modelName: 'binnet-0.7-x86-32-windows' },
  },
  {
    name: 'raw blob, isa x86_64 on linux',
    bytes: blob,
    options: { binaryConfig: { isa: 'x86_64', platform: 'linux' } },
    want: { format: 'raw', architecture: 'x86_64', bits: 64, platform: 'linux', modelName: 'binnet-0.7-x86-64-linux' },
  },
  {
    name: "raw blob, isa 'arm' means the arm-64 models",
    bytes: blob,
    options: { binaryConfig: { isa: 'arm', platform: 'android' } },
    want: {
      format: 'raw',
      architecture: 'arm64',
      bits: 64,
      platform: 'android',
      modelName: 'binnet-0.7-arm-64-android',
    },
  },
  {
    name: 'raw blob, isa without platform has no model',
    bytes: blob,
    options: { binaryConfig: { isa: 'x86_64', platform: null } },
    want: { format: 'raw', architecture: 'x86_64', bits: 64, platform: 'unknown', modelName: null },
  },
  {
    name: 'raw blob claimed as PE stays raw',
    bytes: blob,
    options: { binaryConfig: { file_format: 'pe' } },
    want: { format: 'raw', architecture: 'unknown', bits: null, platform: 'unknown', modelName: null },
  },
];

for (const c of analyzeCases) {
  test(`analyze: ${c.name}`, async () => {
    const result = await analyze(c.bytes, c.options);
    const { format, architecture, bits, platform } = result.identity;
    assert.deepEqual({ format, architecture, bits, platform, modelName: result.modelName }, c.want);
    assert.equal(result.size, c.bytes.length);
    assert.equal(result.hashes.sha256, createHash('sha256').update(c.bytes).digest('hex'));
    assert.equal(result.entropy, shannonEntropy(c.bytes));
    assert.equal(result.functionCount, result.functions.length);
  });
}

test('analyze: deterministic for the same bytes and options', async () => {
  const options: AnalyzeOptions = { binaryConfig: { isa: 'x86', platform: 'linux' } };
  for (const bytes of [elfX64, pe64, blob]) {
    assert.equal(JSON.stringify(await analyze(bytes, options)), JSON.stringify(await analyze(bytes.slice(), options)));
  }
});

test('analyze: reports every stage of STAGE_NAMES but data types (generated on request) in order, each with a label, ending at 1', async () => {
  const seen: [string, number][] = [];
  await analyze(pe64, {}, (stage, fraction, label) => {
    assert.ok(label.length > 0, stage);
    seen.push([stage, fraction]);
  });
  assert.deepEqual(
    seen.map(([stage]) => stage),
    [...STAGE_NAMES.filter((s) => s !== 'types'), 'done'],
  );
  assert.deepEqual(seen.at(-1), ['done', 1]);
  for (let i = 1; i < seen.length; i++) assert.ok(seen[i]![1] >= seen[i - 1]![1], 'fractions never decrease');
});

test('analyze: awaits a listener that returns a promise before the next stage', async () => {
  const order: string[] = [];
  await analyze(pe64, {}, async (stage) => {
    order.push(`${stage} begins`);
    await new Promise((r) => setTimeout(r, 1));
    order.push(`${stage} recorded`);
  });
  for (let i = 0; i < order.length; i += 2) assert.ok(order[i + 1] === order[i]!.replace('begins', 'recorded'));
});

test('analyze: identifies from the first 64 KiB only', async () => {
  // The same PE image with its headers moved just past the prefix: identify sees only the MZ stub.
  const far = new Uint8Array(IDENTIFY_PREFIX + pe64.length);
  far.set(pe64.subarray(0, PE_LFANEW));
  far.set(pe64.subarray(PE_LFANEW), IDENTIFY_PREFIX);
  new DataView(far.buffer).setUint32(0x3c, IDENTIFY_PREFIX, true);
  assert.equal((await analyze(far, {})).identity.format, 'raw');
  new DataView(far.buffer).setUint32(0x3c, IDENTIFY_PREFIX - 0x100, true);
  far.set(pe64.subarray(PE_LFANEW), IDENTIFY_PREFIX - 0x100);
  assert.equal((await analyze(far, {})).identity.format, 'pe');
});

test('analyzeTypes: runs identification, recovery, names and types only, and returns a record per function', async () => {
  const seen: string[] = [];
  const types = await analyzeTypes(pe64, {}, (stage) => void seen.push(stage));
  assert.deepEqual(seen, ['identify', 'parse', 'recover', 'names', 'types', 'done']);
  assert.ok(Array.isArray(types));
});
