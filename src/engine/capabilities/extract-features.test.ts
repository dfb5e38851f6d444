import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import type { FrozenFeatures } from '../../contracts/understanding.js';
import { CORPUS } from '../../../test/helpers/engine/disasm.js';
import { encodeInstructions } from '../encodings/index.js';
import { recoverBinaryFunctions } from '../recover-binary.js';
import { extractStrings } from '../strings/index.js';
import { capabilityFeatures } from './extract-features.js';
import { matchRules } from './match-rules.js';
import { compileRules } from './rule-set.js';

const SAMPLES = path.join(CORPUS, 'bin', 'samples');

async function extract(name: string): Promise<FrozenFeatures> {
  const { image, graph, decoders } = await recoverBinaryFunctions(readFileSync(path.join(SAMPLES, name)), {});
  return capabilityFeatures(image, graph, encodeInstructions(image, graph, decoders), extractStrings(image));
}

/** Every key the features use: extraction interns only keys it writes. */
const everything = (x: FrozenFeatures): Set<string> => new Set(x.keys);

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

test('capabilities: features are written compact (interned keys, address deltas)', async (t) => {
  if (!existsSync(SAMPLES)) return t.skip('../shared/corpus is not present');
  const x = await extract('sample-file_crypt_linux-x86_64_gcc12_O2_stripped');
  const occurrences = x.functions.reduce((n, f) => n + f.b.reduce((m, b) => m + b.i.length, 0), 0);
  assert.ok(x.keys.length * 4 < occurrences, `${x.keys.length} keys for ${occurrences} numbers`);
  assert.equal(new Set(x.keys).size, x.keys.length, 'each key once');
});

test('capabilities: a frozen document with a key id out of range is refused', () => {
  const bad = { version: 1 as const, keys: ['mnemonic:nop'], file: [3, 0], functions: [] };
  assert.throws(() => matchRules(compileRules([]), bad), /out of range/);
});
