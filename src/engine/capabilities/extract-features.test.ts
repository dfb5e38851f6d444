import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { CORPUS } from '../disasm/fixtures.js';
import { decodersFor, recoverBinaryFunctions } from '../recover-binary.js';
import { capabilityFeatures } from './extract-features.js';
import { FeatureSet, type ExtractedFeatures } from './feature-set.js';
import { freezeFeatures, thawFeatures } from './freeze.js';

const SAMPLES = path.join(CORPUS, 'bin', 'samples');

async function extract(name: string): Promise<ExtractedFeatures> {
  const { image, graph } = await recoverBinaryFunctions(readFileSync(path.join(SAMPLES, name)), {});
  return capabilityFeatures(image, graph, await decodersFor(image));
}

/** Every feature of the binary, in one set (the file's and every function's). */
function everything(x: ExtractedFeatures): FeatureSet {
  const all = new FeatureSet();
  all.addList(x.file);
  for (const fn of x.functions) {
    all.addList(fn.features);
    for (const bb of fn.blocks) {
      all.addList(bb.features);
      for (const insn of bb.instructions) all.addList(insn.features);
    }
  }
  return all;
}

test('capabilities: features of stripped corpus samples (PE and ELF) name their APIs, strings and numbers', async (t) => {
  if (!existsSync(SAMPLES)) return t.skip('../shared/corpus is not present');
  const pe = everything(await extract('sample-win_injector_win-x86_64_mingw-gcc12_O2_stripped.exe'));
  for (const k of [
    'format:pe',
    'os:windows',
    'arch:amd64',
    'import:kernel32.VirtualAllocEx',
    'api:kernel32.WriteProcessMemory',
    'api:WriteProcessMemory',
    'api:kernel32.CreateProcess',
    'api:advapi32.RegSetValueEx',
    'characteristic:calls from',
  ])
    assert.ok(pe.has(k), `win_injector: ${k}`);
  const elf = everything(await extract('sample-net_beacon_linux-x86_64_gcc12_O2_stripped'));
  for (const k of ['format:elf', 'os:linux', 'api:socket', 'api:connect', 'number:2', 'mnemonic:call'])
    assert.ok(elf.has(k), `net_beacon: ${k}`);
  const crypt = everything(await extract('sample-file_crypt_linux-x86_64_gcc12_O0g'));
  for (const k of ['characteristic:nzxor', 'characteristic:loop', 'number:255'])
    assert.ok(crypt.has(k), `file_crypt: ${k}`);
});

test('capabilities: frozen features thaw to the same features, smaller', async (t) => {
  if (!existsSync(SAMPLES)) return t.skip('../shared/corpus is not present');
  const x = await extract('sample-file_crypt_linux-x86_64_gcc12_O2_stripped');
  const frozen = JSON.stringify(freezeFeatures(x));
  assert.deepEqual(thawFeatures(JSON.parse(frozen)), x);
  assert.ok(frozen.length * 2 < JSON.stringify(x).length, `${frozen.length} vs ${JSON.stringify(x).length}`);
});

test('capabilities: a frozen document with a key id out of range is refused', () => {
  const bad = { version: 1 as const, keys: ['mnemonic:nop'], file: [3, 0], functions: [] };
  assert.throws(() => thawFeatures(bad), /out of range/);
});
