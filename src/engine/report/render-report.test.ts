import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { renderReport, type ReportInput } from './render-report.js';

const SHA256 = '3d812b535b8154a15529395e81a4e5ed1837b65c1a36b5f59b45495c38b87716';

const input = (capabilities: number): ReportInput => ({
  binaryName: 'sample.exe',
  analysisId: 42,
  generatedAt: '2026-11-22T05:00:00.000Z',
  summary: [
    ['Format', 'PE x86_64 (windows)'],
    ['Functions', '158 (12 named)'],
  ],
  hashes: [
    ['SHA-256', SHA256],
    ['MD5', '0123456789abcdef0123456789abcdef'],
  ],
  security: [
    ['NX', 'yes'],
    ['ASLR', 'no'],
  ],
  capabilities: Array.from({ length: capabilities }, (_, i) => ({
    name: i === 0 ? 'inject thread into remote process' : `capability number ${i}`,
    namespace: 'host-interaction/process/inject',
    attack: ['Defense Evasion::Process Injection [T1055]'],
    functions: ['sub_401000'],
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
  suspicious: [{ name: 'sub_401000', vaddr: 0x401000, score: 0.9, tags: ['process injection'] }],
});

const have = (tool: string) => spawnSync(tool, ['-v']).error === undefined;

test('report: the PDF opens, every page renders, and its text holds the hashes and capabilities', async (t) => {
  if (!have('pdftoppm') || !have('pdftotext')) return t.skip('poppler-utils (pdftoppm, pdftotext) not installed');
  const dir = mkdtempSync(path.join(tmpdir(), 'binlens-report-'));
  try {
    // Enough capabilities to need several pages, so footers and page breaks are exercised.
    const pdf = await renderReport(input(120));
    const file = path.join(dir, 'r.pdf');
    writeFileSync(file, pdf);
    const pages = Number(/Pages:\s+(\d+)/.exec(execFileSync('pdfinfo', [file], { encoding: 'utf8' }))![1]);
    assert.ok(pages >= 2, `${pages} pages`);
    execFileSync('pdftoppm', ['-r', '30', '-png', file, path.join(dir, 'p')]);
    assert.equal(readdirSync(dir).filter((f) => f.endsWith('.png')).length, pages, 'one image per page');
    const text = execFileSync('pdftotext', ['-layout', file, '-'], { encoding: 'utf8' });
    for (const s of [
      SHA256,
      'inject thread into remote process',
      'T1055',
      'zlib 1.2.13',
      'CVE-2023-45853',
      'sub_401000',
      `page ${pages} of ${pages}`,
    ])
      assert.ok(text.includes(s), s);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('report: the same input gives the same bytes', async () => {
  assert.deepEqual(await renderReport(input(3)), await renderReport(input(3)));
});

test('report: empty sections say so', async (t) => {
  if (!have('pdftotext')) return t.skip('poppler-utils (pdftotext) not installed');
  const dir = mkdtempSync(path.join(tmpdir(), 'binlens-report-'));
  try {
    const file = path.join(dir, 'r.pdf');
    writeFileSync(file, await renderReport({ ...input(0), libraries: [], vulnerabilities: [], suspicious: [] }));
    const text = execFileSync('pdftotext', [file, '-'], { encoding: 'utf8' });
    for (const s of [
      'No capability rule matched.',
      'No known library identified.',
      'No function carries a capability tag.',
    ])
      assert.ok(text.includes(s), s);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
