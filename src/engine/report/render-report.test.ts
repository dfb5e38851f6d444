import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { test, type TestContext } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { ATTACK_TACTICS } from '../capabilities/attack.js';
import { renderReport, type ReportInput } from './index.js';

const SHA256 = '3d812b535b8154a15529395e81a4e5ed1837b65c1a36b5f59b45495c38b87716';
const INJECT = 'inject thread into remote process';
const PE_SECURITY: ReportInput['security'] = [
  { feature: 'DEP', value: 'Yes', tone: 'good', meaning: 'data pages cannot run as code' },
  { feature: 'ASLR', value: 'No', tone: 'bad', meaning: 'loads at a random address' },
];
const ELF_SECURITY: ReportInput['security'] = [
  { feature: 'NX', value: 'Yes', tone: 'good', meaning: 'stack and data cannot run as code' },
  { feature: 'RELRO', value: 'Partial', tone: 'warn', meaning: 'relocations read-only after start-up' },
];

/** A PE with `capabilities` capability matches (the first an injection) and as many tagged functions. */
const input = (capabilities: number): ReportInput => ({
  binaryName: 'sample.exe',
  analysisId: 42,
  generatedAt: '2026-11-22T05:00:00.000Z',
  subtitle: 'PE32+ x86_64 executable for Windows · 41,984 bytes',
  verdict: {
    score: 0.973,
    level: 'malicious',
    label: 'Likely malicious',
    evidence: [{ group: 'Defense Evasion', rule: INJECT, weight: 0.9 }],
  },
  tactics: ATTACK_TACTICS.map((tactic) => ({
    tactic,
    capabilities: tactic === 'Defense Evasion' ? capabilities : 0,
    weight: tactic === 'Defense Evasion' ? 0.9 : 0,
  })),
  facts: [
    ['Format', 'PE32+ x86_64 executable for Windows'],
    ['Subsystem', 'Windows CUI'],
    ['Functions', '158 (12 named)'],
  ],
  hashes: [
    ['SHA-256', SHA256],
    ['MD5', '0123456789abcdef0123456789abcdef'],
  ],
  similarityHashes: [['TLSH', 'T15D133A4BB39748FDD207C1B449E75772E832FC120835AA6E1B64E6752F20D50DB29739']],
  security: PE_SECURITY,
  sections: [
    { name: '.text', size: 28_920, entropy: 6.29, access: 'r-x' },
    { name: '.packed', size: 9000, entropy: 7.91, access: 'rw-' },
    { name: '.tls', size: 16, entropy: 2, access: 'rw-' },
  ],
  fileEntropy: 5.86,
  fileSize: 41_984,
  capabilities: Array.from({ length: capabilities }, (_, i) => ({
    name: i === 0 ? INJECT : `capability number ${i}`,
    namespace: 'host-interaction/process/inject',
    weight: i === 0 ? 0.9 : 0.1,
    attack: [{ tactic: 'Defense Evasion', technique: 'Process Injection', id: 'T1055' }],
    functions: [`sub_${(0x401000 + i * 16).toString(16)}`],
  })),
  libraries: [{ name: 'zlib', version: '1.2.13', linkage: 'static' }],
  vulnerabilities: [
    {
      cve: 'CVE-2023-45853',
      product: 'zlib',
      version: '1.2.13',
      severity: 'CRITICAL',
      score: 9.8,
      summary: 'integer overflow in zipOpenNewFileInZip4_64',
    },
  ],
  suspicious: Array.from({ length: capabilities }, (_, i) => ({
    name: `sub_${(0x401000 + i * 16).toString(16)}`,
    vaddr: 0x401000 + i * 16,
    score: i === 0 ? 0.9 : 0.1,
    tags: [i === 0 ? INJECT : `capability number ${i}`],
  })),
  callGraph: {
    focus: { name: 'sub_401000', vaddr: 0x401000, score: 0.9, external: false },
    callers: [{ name: 'start', vaddr: 0x400100, score: 0, external: false }],
    callees: [
      { name: 'CreateRemoteThread', vaddr: null, score: 0, external: true },
      { name: 'sub_402000', vaddr: 0x402000, score: 0.3, external: false },
    ],
    indirectCalls: 2,
  },
});

const elf = (): ReportInput => ({
  ...input(3),
  binaryName: 'sample',
  subtitle: 'ELF 64-bit x86_64 executable for Linux · 16,664 bytes',
  facts: [
    ['Format', 'ELF 64-bit x86_64 executable for Linux'],
    ['Build ID', '342a69bf5e80d3c23d8a5210d2cd963148fd6a5'],
  ],
  security: ELF_SECURITY,
});

const have = (tool: string) => spawnSync(tool, ['-v']).error === undefined;

/** The PDF written to a temporary file, for poppler; null (the test skipped) without poppler-utils. */
async function withPdf<T>(t: TestContext, r: ReportInput, use: (file: string, dir: string) => T): Promise<T | null> {
  if (!have('pdftotext') || !have('pdftoppm') || !have('pdfinfo')) {
    t.skip('poppler-utils (pdftotext, pdftoppm, pdfinfo) not installed');
    return null;
  }
  const dir = mkdtempSync(path.join(tmpdir(), 'binlens-report-'));
  try {
    const file = path.join(dir, 'r.pdf');
    writeFileSync(file, await renderReport(r));
    return use(file, dir);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
const pageCount = (file: string) =>
  Number(/Pages:\s+(\d+)/.exec(execFileSync('pdfinfo', [file], { encoding: 'utf8' }))![1]);
const textOf = (file: string, pages?: [number, number]) =>
  execFileSync('pdftotext', [...(pages ? ['-f', `${pages[0]}`, '-l', `${pages[1]}`] : []), '-layout', file, '-'], {
    encoding: 'utf8',
  });

test('report: every page renders, each numbered, and the text holds hashes, capabilities and libraries', async (t) => {
  // Enough capabilities to need several pages, so page breaks, repeated headers and footers are exercised.
  await withPdf(t, input(120), (file, dir) => {
    const pages = pageCount(file);
    assert.ok(pages >= 4, `${pages} pages`);
    execFileSync('pdftoppm', ['-r', '30', '-png', file, path.join(dir, 'p')]);
    assert.equal(readdirSync(dir).filter((f) => f.endsWith('.png')).length, pages, 'one image per page');
    const text = textOf(file);
    for (const s of [SHA256, 'T15D133A4BB', INJECT, 'capability number 119', 'T1055', 'zlib', 'CVE-2023-45853'])
      assert.ok(text.includes(s), s);
    for (let n = 1; n <= pages; n++) assert.ok(textOf(file, [n, n]).includes(`Page ${n} of ${pages}`), `page ${n}`);
  });
});

test('report: page 1 has the verdict and score, the tactics and the most suspicious function with its reason', async (t) => {
  await withPdf(t, input(120), (file) => {
    const first = textOf(file, [1, 1]);
    for (const s of ['Verdict: Likely malicious', 'OVERALL SCORE', '97', 'Defense Evasion', 'Command and', 'Impact'])
      assert.ok(first.includes(s), s);
    assert.match(first, /sub_401000\s+0x401000\s+0\.90\s+inject thread into remote process/);
    assert.ok(first.includes('SHA-256'), 'key facts on page 1');
    // The pictures come on page 2: the call graph's nodes and the entropy chart's sections.
    const second = textOf(file, [2, 2]);
    for (const s of [
      'CreateRemoteThread',
      '2 indirect calls',
      '.packed',
      '7.91',
      'Not drawn: 1 section under 256 bytes',
    ])
      assert.ok(second.includes(s), s);
  });
});

test('report: the same input gives the same bytes, whenever it is rendered', async () => {
  const first = await renderReport(input(3));
  // Past a second boundary: PDF dates have one-second resolution.
  await sleep(1100);
  const again = await renderReport(input(3));
  assert.deepEqual(again, first);
  assert.ok(Buffer.from(first).includes('D:20261122050000Z'), 'creation date pinned to the analysis time');
});

test('report: an ELF shows its own protections and facts, a PE its own', async (t) => {
  await withPdf(t, elf(), (file) => {
    const text = textOf(file, [1, 1]);
    for (const s of ['NX', 'RELRO', 'Partial', 'Build ID']) assert.ok(text.includes(s), s);
    for (const s of ['ASLR', 'DEP', 'Subsystem', 'null']) assert.ok(!text.includes(s), s);
  });
  await withPdf(t, input(3), (file) => {
    const text = textOf(file, [1, 1]);
    for (const s of ['ASLR', 'DEP', 'Subsystem']) assert.ok(text.includes(s), s);
    for (const s of ['RELRO', 'Build ID', 'null']) assert.ok(!text.includes(s), s);
  });
});

test('report: what was not generated or not found is said, not left blank', async (t) => {
  const bare: ReportInput = {
    ...input(0),
    verdict: null,
    tactics: null,
    capabilities: null,
    suspicious: null,
    callGraph: null,
    libraries: [],
    vulnerabilities: 'no database',
    sections: null,
    security: [],
  };
  await withPdf(t, bare, (file) => {
    const text = textOf(file).replace(/\s+/g, ' ');
    for (const s of [
      'Verdict: not assessed',
      'analysis_config.generate_capabilities',
      'No known library identified.',
      'Not checked: the vulnerability database is empty',
      'The sample is no longer stored',
      'No exploit mitigations apply to this format.',
    ])
      assert.ok(text.includes(s), s);
    assert.ok(!text.includes('ATT&CK tactics'), 'no tactic strip without capabilities');
  });
});
