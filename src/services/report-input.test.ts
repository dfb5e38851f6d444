import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { ResultDocument } from '../contracts/index.js';
import { UNKNOWN_SECURITY } from '../engine/formats/image.js';
import { keyFacts, mitigations, tacticStrip } from './report-input.js';

const ELF_SECURITY = { ...UNKNOWN_SECURITY, nx: true, relro: 'partial' as const, canary: true };
// UNKNOWN_SECURITY's nx and pie are set (false): a PE must still not list them beside DEP and ASLR.
const PE_SECURITY = { ...UNKNOWN_SECURITY, aslr: true, dep: true, cfg: false, seh: true, highEntropyVa: true };

test('report input: an ELF lists the checksec set, never a PE-only field or a null', () => {
  const rows = mitigations('elf', ELF_SECURITY).map((r) => `${r.feature} ${r.value} (${r.tone})`);
  const expected = 'NX Yes (good), PIE No (bad), RELRO Partial (warn), Stack canary Yes (good), Fortify No (warn)';
  assert.equal(rows.join(', '), expected);
});

test("report input: a PE lists its DllCharacteristics under Windows' names, once each", () => {
  const rows = mitigations('pe', PE_SECURITY);
  assert.deepEqual(
    rows.map((r) => r.feature),
    ['DEP', 'ASLR', 'High-entropy ASLR', 'Stack canary', 'Fortify', 'Control Flow Guard', 'SEH'],
  );
  assert.equal(rows.find((r) => r.feature === 'SEH')!.tone, 'neutral');
  // Raw code has no headers to declare mitigations in.
  assert.deepEqual(mitigations('raw', { ...ELF_SECURITY, relro: null }), []);
});

test('report input: key facts hold only what the format has', () => {
  const result = {
    identity: {
      format: 'elf',
      architecture: 'x86_64',
      bits: 64,
      endianness: 'little',
      platform: 'linux',
      binaryType: 'executable',
      dynamic: true,
      entryPoint: 0x1330,
      baseAddress: 0,
      debug: false,
    },
    size: 16_664,
    language: 'c',
    libraries: ['libc.so.6'],
    functionCount: 8,
    stripped: false,
    debugInfo: { dwarf: false, buildId: 'abc123', pdbPath: null, pdbGuid: null },
    imports: [],
    exports: [],
  } as unknown as ResultDocument;
  const facts = new Map(keyFacts(result, 8, 'binnet-0.7-x86-64-linux'));
  assert.equal(facts.get('Format'), 'ELF 64-bit x86_64 executable for Linux');
  assert.equal(facts.get('Language'), 'C');
  assert.equal(facts.get('Linking'), 'dynamic: libc.so.6');
  assert.equal(facts.get('Build ID'), 'abc123');
  for (const absent of ['Subsystem', 'Image base']) assert.ok(!facts.has(absent), absent);
  const pe = {
    ...result,
    identity: {
      ...result.identity,
      format: 'pe',
      platform: 'windows',
      subsystem: 'Windows GUI',
      baseAddress: 0x140000000,
    },
    debugInfo: { ...result.debugInfo, buildId: null },
  } as ResultDocument;
  const peFacts = new Map(keyFacts(pe, 8, 'm'));
  assert.equal(peFacts.get('Format'), 'PE32+ x86_64 executable for Windows');
  assert.equal(peFacts.get('Subsystem'), 'Windows GUI');
  assert.equal(peFacts.get('Image base'), '0x140000000');
  assert.ok(!peFacts.has('Build ID'));
});

test('report input: the tactic strip has every Enterprise tactic in order, counting each capability once', () => {
  const strip = tacticStrip([
    {
      name: 'inject',
      namespace: 'process/injection',
      weight: 0.9,
      attack: [
        { tactic: 'Defense Evasion', technique: 'Process Injection', id: 'T1055' },
        { tactic: 'Defense Evasion', technique: 'Process Injection: DLL', id: 'T1055.001' },
      ],
      functions: [],
    },
    {
      name: 'xor',
      namespace: 'data-encoding/xor',
      weight: 0.4,
      attack: [{ tactic: 'Defense Evasion', technique: 'Deobfuscate', id: 'T1140' }],
      functions: [],
    },
    {
      name: 'odd',
      namespace: '',
      weight: 0.1,
      attack: [{ tactic: 'Mobile Thing', technique: '', id: null }],
      functions: [],
    },
  ]);
  assert.equal(strip.length, 15);
  assert.equal(strip[0]!.tactic, 'Reconnaissance');
  assert.deepEqual(strip[6], { tactic: 'Defense Evasion', capabilities: 2, weight: 0.9 });
  assert.deepEqual(strip[14], { tactic: 'Mobile Thing', capabilities: 1, weight: 0.1 });
});
