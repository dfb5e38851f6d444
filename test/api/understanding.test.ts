// Capabilities, tags, SBOM (reference shape and CycloneDX), vulnerabilities, the PDF report and the overview
// (the report's findings as data) through the API, on corpus binaries analysed with analysis_config asking for them, and what happens when it did not.
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { before, describe, test } from 'node:test';
import { readResultDocument, type FrozenFeatures } from '../../src/contracts/index.js';
import { analysisVerdict, matchRules } from '../../src/engine/capabilities/index.js';
import { loadRuleDirectories, shippedRulesDir } from '../../src/jobs/rule-files.js';
import { CORPUS } from '../helpers/engine/disasm.js';
import { sampleProgram } from '../helpers/engine/sample-program.js';
import { createStore, openDatabase } from '../../src/store/index.js';
import { backends } from '../helpers/backends.js';
import { useHarness, type Harness } from '../helpers/harness.js';
import { importOsvFixtures } from '../helpers/osv.js';

const INJECTOR = path.join(CORPUS, 'bin', 'samples', 'sample-win_injector_win-x86_64_mingw-gcc12_O2_stripped.exe');
const ZLIB = path.join(CORPUS, 'bin', 'debian', 'debian-zlib-bzip2-zstd_linux-x86_64_gcc12_O2_stripped');
const missing = existsSync(INJECTOR) && existsSync(ZLIB) ? null : '../shared/corpus is not present';
const ALL = { analysis_config: { generate_capabilities: true, generate_sbom: true, generate_cves: true } };
const INJECT = 'create thread in another process';

const get = (h: Harness, url: string, key = h.keys.alice) => h.request('GET', url, key);

interface Overview {
  verdict: { score: number; level: string; label: string; tactics: { tactic: string; capabilities: number }[] } | null;
  security: { feature: string; state: string; tone: string }[];
  sections: { name: string; access: string; file_size: number; entropy: number | null }[];
  imports: { name: string; library: string | null }[];
  exports: { name: string; vaddr: number }[];
  capabilities:
    | {
        rule: string;
        weight: number;
        attack: { tactic: string; id: string | null }[];
        mbc: string[];
        functions: { function_id: number | null; name: string; vaddr: number }[];
      }[]
    | null;
}

async function overview(h: Harness, id: number): Promise<Overview> {
  const r = await get(h, `/v2/analyses/${id}/overview`);
  assert.equal(r.statusCode, 200, r.body);
  return r.json().data as Overview;
}

/** Every section with bytes in the file has an entropy, in bits per byte. */
function assertMeasured(sections: Overview['sections']) {
  assert.ok(sections.length > 0);
  for (const s of sections.filter((x) => x.file_size > 0)) {
    assert.equal(typeof s.entropy, 'number', s.name);
    assert.ok(s.entropy! >= 0 && s.entropy! <= 8, `${s.name}: ${s.entropy}`);
  }
}

async function analysed(h: Harness, file: Buffer, extra: Record<string, unknown>): Promise<number> {
  const id = await h.analysis(h.keys.alice, file, extra);
  assert.equal(await h.waitForStatus(h.keys.alice, id), 'Complete');
  return id;
}

for (const backend of backends) {
  describe(
    `capabilities, tags, SBOM, vulnerabilities, PDF (${backend.name})`,
    { skip: backend.skip ?? missing ?? false },
    () => {
      const h = useHarness(backend);
      let injector: number;
      let zlib: number;
      let plain: number;

      before(async () => {
        if (backend.skip || missing) return;
        assert.equal(await importOsvFixtures(h().config.databaseUrl), 6);
        injector = await analysed(h(), readFileSync(INJECTOR), ALL);
        zlib = await analysed(h(), readFileSync(ZLIB), ALL);
        plain = await analysed(h(), Buffer.from(sampleProgram({ bits: 64, little: true, machine: 62 })), {});
      });

      test('capabilities per function, and per function id', async () => {
        const r = await get(h(), `/v2/analyses/${injector}/capabilities`);
        assert.equal(r.statusCode, 200, r.body);
        const entries = r.json().data.capabilities as {
          function_name: string;
          function_vaddr: number;
          capabilities: string[];
        }[];
        const injecting = entries.filter((e) => e.capabilities.includes(INJECT));
        assert.equal(injecting.length, 1, JSON.stringify(entries));
        const fn = (await get(h(), `/v2/analyses/${injector}/functions?page_size=1000`)).json().data.functions as {
          id: number;
          vaddr: number;
        }[];
        const target = fn.find((f) => f.vaddr === injecting[0]!.function_vaddr)!;
        const one = await get(h(), `/v2/functions/${target.id}/capabilities`);
        assert.equal(one.statusCode, 200, one.body);
        assert.deepEqual(one.json().data.capabilities.sort(), [...injecting[0]!.capabilities].sort());
      });

      test('stored features re-match to the same capabilities without decoding again', async () => {
        const store = createStore(openDatabase(h().config.databaseUrl));
        try {
          const frozen = await store.events.features<FrozenFeatures>(injector);
          const { rules, problems } = await loadRuleDirectories([shippedRulesDir()]);
          assert.deepEqual(problems, []);
          const again = matchRules(rules, frozen!);
          const stored = readResultDocument(await store.events.result(injector))!.capabilities!.matches.map(
            (m) => m.rule,
          );
          assert.deepEqual([...again.matches.keys()].filter((n) => rules.reported.has(n)).sort(), [...stored].sort());
        } finally {
          await store.driver.close();
        }
      });

      test('tags: capability tags with scores beside the analysis tags, highest first', async () => {
        const r = await get(h(), `/v2/analyses/${injector}/tags`);
        assert.equal(r.statusCode, 200, r.body);
        const tags = r.json().data.analysis_tags as {
          name: string;
          origin: string;
          score?: number;
          functions?: unknown[];
        }[];
        const capability = tags.filter((t) => t.origin === 'CAPABILITY');
        const inject = capability.find((t) => t.name === INJECT)!;
        assert.equal(inject.score, 0.9);
        assert.equal(inject.functions!.length, 1);
        const scores = capability.map((t) => t.score!);
        assert.deepEqual(
          scores,
          [...scores].sort((a, b) => b - a),
        );
      });

      test('SBOM: statically linked libraries with versions, and the needed libraries', async () => {
        const r = await get(h(), `/v2/analyses/${zlib}/sbom`);
        assert.equal(r.statusCode, 200, r.body);
        const [sbom] = r.json().data;
        assert.deepEqual(sbom.packages, [
          { name: 'zlib', version: '1.2.13' },
          { name: 'bzip2', version: '1.0.8' },
          { name: 'zstd', version: 'unknown' },
        ]);
        assert.ok(sbom.imported_libs.includes('libc.so.6'));
      });

      test('SBOM as CycloneDX 1.5', async () => {
        const r = await get(h(), `/v2/analyses/${zlib}/sbom/cyclonedx`);
        assert.equal(r.statusCode, 200, r.body);
        assert.match(r.headers['content-type'] as string, /^application\/vnd\.cyclonedx\+json/);
        const doc = r.json();
        assert.equal(doc.specVersion, '1.5');
        assert.deepEqual(
          doc.components.map((c: { purl: string }) => c.purl),
          ['pkg:generic/zlib@1.2.13', 'pkg:generic/bzip2@1.0.8', 'pkg:github/facebook/zstd'],
        );
      });

      test('vulnerabilities from the imported OSV records, only where the version is affected', async () => {
        const r = await get(h(), `/v2/analyses/${zlib}/vulnerabilities`);
        assert.equal(r.statusCode, 200, r.body);
        const v = r.json().data.vulnerabilities as {
          cve_number: string;
          severity: string;
          score: number;
          product: string;
        }[];
        assert.deepEqual(
          v.map((x) => [x.cve_number, x.product, x.severity, x.score]),
          [['CVE-2023-45853', 'zlib', 'CRITICAL', 9.8]],
        );
      });

      test('the PDF report: verdict, score, tactics and the top function on page 1; facts of the format; every page renders', async (t) => {
        const elf = await get(h(), `/v2/analyses/${zlib}/pdf`);
        assert.equal(elf.statusCode, 200, elf.body);
        assert.equal(elf.headers['content-type'], 'application/pdf');
        assert.equal(elf.rawPayload.subarray(0, 5).toString(), '%PDF-');
        if (['pdftotext', 'pdftoppm', 'pdfinfo'].some((tool) => spawnSync(tool, ['-v']).error))
          return t.skip('poppler-utils (pdftotext, pdftoppm, pdfinfo) not installed');
        const dir = mkdtempSync(path.join(tmpdir(), 'binlens-pdf-'));
        try {
          const read = async (id: number, name: string) => {
            const r = await get(h(), `/v2/analyses/${id}/pdf`);
            assert.equal(r.statusCode, 200, r.body);
            const file = path.join(dir, `${name}.pdf`);
            writeFileSync(file, r.rawPayload);
            const pages = Number(/Pages:\s+(\d+)/.exec(execFileSync('pdfinfo', [file], { encoding: 'utf8' }))![1]);
            execFileSync('pdftoppm', ['-r', '20', '-png', file, path.join(dir, name)]);
            const images = readdirSync(dir).filter((f) => f.startsWith(`${name}-`) && f.endsWith('.png'));
            assert.equal(images.length, pages, `${name}: one image per page`);
            // Whitespace as one space: table cells wrap where the column ends.
            const text = (first?: number) =>
              execFileSync('pdftotext', [...(first ? ['-f', `${first}`, '-l', `${first}`] : []), file, '-'], {
                encoding: 'utf8',
              }).replace(/\s+/g, ' ');
            return { pages, all: text(), page1: text(1) };
          };
          const stored = async (id: number) => {
            const store = createStore(openDatabase(h().config.databaseUrl));
            try {
              return readResultDocument(await store.events.result(id))!;
            } finally {
              await store.driver.close();
            }
          };

          // The injector: judged malicious, with the verdict, score, tactics and the injecting function on page 1.
          const pe = await read(injector, 'pe');
          const verdict = analysisVerdict((await stored(injector)).capabilities!);
          assert.equal(verdict.level, 'malicious', JSON.stringify(verdict));
          assert.ok(pe.page1.includes(`Verdict: ${verdict.label}`), pe.page1);
          assert.match(pe.page1, new RegExp(`OVERALL SCORE\\s+${Math.round(verdict.score * 100)}\\s`));
          for (const tactic of ['Defense Evasion', 'Persistence', 'Command and'])
            assert.ok(pe.page1.includes(tactic), tactic);
          const entries = (await get(h(), `/v2/analyses/${injector}/capabilities`)).json().data.capabilities as {
            function_name: string;
            capabilities: string[];
          }[];
          const top = entries.find((e) => e.capabilities.includes(INJECT))!.function_name;
          for (const s of [top, INJECT, 'DEP', 'ASLR', 'Subsystem', `Page 1 of ${pe.pages}`])
            assert.ok(pe.page1.includes(s), s);
          for (const s of ['RELRO', 'null']) assert.ok(!pe.page1.includes(s), s);
          // Page 2's call graph shows what the injecting function calls.
          for (const s of ['CreateRemoteThread', 'WriteProcessMemory', 'Entropy by section', '.text'])
            assert.ok(pe.all.includes(s), s);

          // The ELF: not judged malicious; its own protections only; libraries and vulnerabilities further on.
          const zlibReport = await read(zlib, 'elf');
          const elfVerdict = analysisVerdict((await stored(zlib)).capabilities!);
          assert.notEqual(elfVerdict.level, 'malicious');
          assert.ok(zlibReport.page1.includes(`Verdict: ${elfVerdict.label}`));
          for (const s of ['NX', 'PIE', 'RELRO', 'Build ID']) assert.ok(zlibReport.page1.includes(s), s);
          for (const s of ['ASLR', 'DEP', 'Subsystem', 'null']) assert.ok(!zlibReport.page1.includes(s), s);
          const sha = (await get(h(), `/v2/analyses/${zlib}/basic`)).json().data.sha_256_hash as string;
          for (const s of [sha, 'zlib', '1.2.13', 'CVE-2023-45853', `Page ${zlibReport.pages} of ${zlibReport.pages}`])
            assert.ok(zlibReport.all.includes(s), s);
        } finally {
          rmSync(dir, { recursive: true, force: true });
        }
      });

      test('overview: the verdict and its tactics, mitigations, sections with entropy, imports, capabilities', async () => {
        const pe = await overview(h(), injector);
        const store = createStore(openDatabase(h().config.databaseUrl));
        const verdict = await store.events
          .result(injector)
          .then((doc) => analysisVerdict(readResultDocument(doc)!.capabilities!))
          .finally(() => store.driver.close());
        assert.deepEqual(
          [pe.verdict!.score, pe.verdict!.level, pe.verdict!.label],
          [Math.round(verdict.score * 100), 'malicious', verdict.label],
        );
        assert.equal(pe.verdict!.tactics[0]!.tactic, 'Reconnaissance');
        assert.ok(pe.verdict!.tactics.find((t) => t.tactic === 'Defense Evasion')!.capabilities > 0);
        const features = pe.security.map((m) => m.feature);
        for (const f of ['DEP', 'ASLR']) assert.ok(features.includes(f), f);
        assert.ok(!features.includes('RELRO'));
        assertMeasured(pe.sections);
        assert.equal(pe.sections.find((s) => s.name === '.text')?.access, 'r-x');
        const remote = pe.imports.find((i) => i.name === 'CreateRemoteThread');
        assert.match(remote?.library ?? '', /kernel32/i, JSON.stringify(pe.imports));

        const capabilities = pe.capabilities!;
        const weights = capabilities.map((c) => c.weight);
        assert.deepEqual(
          weights,
          [...weights].sort((a, b) => b - a),
        );
        const inject = capabilities.find((c) => c.rule === INJECT)!;
        assert.deepEqual(inject.attack, [{ tactic: 'Defense Evasion', technique: 'Process Injection', id: 'T1055' }]);
        assert.deepEqual(inject.mbc, ['Process::Create Thread [C0038]']);
        assert.equal(inject.functions.length, 1);
        const [where] = inject.functions;
        const fn = await get(h(), `/v2/functions/${where!.function_id}/capabilities`);
        assert.ok(fn.json().data.capabilities.includes(INJECT), fn.body);
        const tagged = (await get(h(), `/v2/analyses/${injector}/capabilities`)).json().data.capabilities as {
          function_name: string;
          function_vaddr: number;
        }[];
        assert.ok(tagged.some((t) => t.function_vaddr === where!.vaddr && t.function_name === where!.name));

        const elf = await overview(h(), zlib);
        assert.notEqual(elf.verdict!.level, 'malicious');
        assert.deepEqual(
          elf.security.filter((m) => ['NX', 'PIE', 'RELRO', 'DEP'].includes(m.feature)).map((m) => m.feature),
          ['NX', 'PIE', 'RELRO'],
        );
        assertMeasured(elf.sections);
        assert.ok(elf.sections.some((s) => s.name === '.bss' && s.file_size === 0 && s.entropy === null));
        // ELF binds a symbol to no library (the loader searches them all).
        assert.ok(elf.imports.some((i) => i.name === '__libc_start_main' && i.library === null));

        // Without capabilities there is nothing to judge by: no verdict, no capabilities, the rest as usual.
        const bare = await overview(h(), plain);
        assert.equal(bare.verdict, null);
        assert.equal(bare.capabilities, null);
        assertMeasured(bare.sections);
      });

      test('not asked for in analysis_config: 409 naming the flag; the PDF says so', async (t) => {
        for (const [route, flag] of [
          ['capabilities', 'generate_capabilities'],
          ['sbom', 'generate_sbom'],
          ['vulnerabilities', 'generate_cves'],
        ] as const) {
          const r = await get(h(), `/v2/analyses/${plain}/${route}`);
          assert.equal(r.statusCode, 409, `${route}: ${r.body}`);
          assert.match(r.json().message, new RegExp(`analysis_config\\.${flag}`));
        }
        const tags = (await get(h(), `/v2/analyses/${plain}/tags`)).json().data.analysis_tags as { origin: string }[];
        assert.ok(tags.every((t) => t.origin !== 'CAPABILITY'));
        const pdf = await get(h(), `/v2/analyses/${plain}/pdf`);
        assert.equal(pdf.statusCode, 200);
        if (spawnSync('pdftotext', ['-v']).error) return t.skip('poppler-utils (pdftotext) not installed');
        const text = execFileSync('pdftotext', ['-', '-'], { input: pdf.rawPayload, encoding: 'utf8' });
        for (const s of [
          'Verdict: not assessed',
          'analysis_config.generate_capabilities',
          'analysis_config.generate_sbom',
        ])
          assert.ok(text.includes(s), s);
      });

      test("another user's private analysis is not found on every route", async () => {
        for (const route of ['capabilities', 'sbom', 'sbom/cyclonedx', 'vulnerabilities', 'pdf', 'overview']) {
          const r = await get(h(), `/v2/analyses/${injector}/${route}`, h().keys.bob);
          assert.equal(r.statusCode, 404, `${route}: ${r.body}`);
        }
      });

      test('a malformed id is a validation error', async () => {
        const r = await get(h(), '/v2/analyses/x/capabilities');
        assert.equal(r.statusCode, 422);
        assert.equal(r.json().errors[0].code, 'validation_error');
      });
    },
  );
}
