// `binlens analyze` as a user runs it: a real process on real files, its exit codes, stdout and stderr.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { AnalysisResult } from '../../src/contracts/index.js';
import { PROGRAM, sampleProgram } from '../helpers/engine/sample-program.js';

const corpus = resolve(process.cwd(), '..', 'shared', 'corpus');

function binlens(...args: string[]) {
  // stderr is a pipe here, not a terminal: no progress bar may reach it.
  const r = spawnSync(process.execPath, ['bin/binlens.js', ...args], { encoding: 'utf8', maxBuffer: 1 << 28 });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

const sha256 = (file: string) => createHash('sha256').update(readFileSync(file)).digest('hex');

/** The summary's `label  value` lines as a map. */
function summary(stdout: string): Map<string, string> {
  return new Map(
    stdout
      .trimEnd()
      .split('\n')
      .map((l) => [
        l.split(/\s{2,}/)[0]!,
        l
          .split(/\s{2,}/)
          .slice(1)
          .join('  '),
      ]),
  );
}

function analyzeJson(...args: string[]): AnalysisResult {
  const r = binlens('analyze', ...args, '--json');
  assert.equal(r.status, 0, r.stderr);
  assert.equal(r.stderr, '');
  // Nothing but the document on stdout: it parses whole.
  return JSON.parse(r.stdout) as AnalysisResult;
}

/** A failure is one line naming the file, not a stack trace. */
function assertCleanError(stderr: string, pattern: RegExp) {
  assert.match(stderr.trimEnd(), pattern);
  assert.equal(stderr.trimEnd().split('\n').length, 1, stderr);
  assert.doesNotMatch(stderr, /^\s+at /m);
}

describe('binlens analyze', () => {
  let dir: string;
  let program: string;

  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'binlens-cli-'));
    program = join(dir, 'program');
    writeFileSync(program, sampleProgram({ bits: 64, little: true, machine: 62 }));
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  test('the sample program: a summary of what the JSON document holds', () => {
    const doc = analyzeJson(program);
    const r = binlens('analyze', program);
    assert.equal(r.status, 0, r.stderr);
    assert.equal(r.stderr, '');
    const s = summary(r.stdout);
    const named = doc.functions.filter((f) => !f.name.startsWith('sub_')).length;
    assert.deepEqual(
      {
        sha256: s.get('sha256'),
        format: s.get('format'),
        architecture: s.get('architecture'),
        platform: s.get('platform'),
        model: s.get('model'),
        entry: s.get('entry point'),
        functions: s.get('functions'),
        strings: s.get('strings'),
        imports: s.get('imports'),
        security: s.get('security'),
      },
      {
        sha256: sha256(program),
        format: 'ELF executable, dynamically linked',
        architecture: 'x86_64 (64-bit, little-endian)',
        platform: 'linux',
        model: 'binnet-0.7-x86-64-linux',
        entry: `0x${PROGRAM.start.toString(16)}`,
        functions: `${doc.functionCount.toLocaleString('en-US')} (${named} named, ${doc.functionCount - named} sub_)`,
        strings: String(doc.strings.length),
        imports: `${doc.imports.length} from 2 libraries`,
        // Linked without BIND_NOW; importing __stack_chk_fail and __printf_chk shows a canary and fortify.
        security: 'nx, pie, relro partial, canary, fortify',
      },
    );
    assert.ok(named >= 4, `the sample's symbols name its functions (${named} named)`);
    // Every stage the pipeline reports, in order, each with its time; then the total and peak memory.
    assert.match(
      s.get('stages') ?? '',
      /^start-up [\d.,]+ ms, identify [\d.,]+ ms, hash [\d.,]+ ms, parse [\d.,]+ ms, recover [\d.,]+ ms, names [\d.,]+ ms, strings [\d.,]+ ms, instructions [\d.,]+ ms, vectors [\d.,]+ ms, capabilities [\d.,]+ ms, sbom [\d.,]+ ms, transfer [\d.,]+ ms$/,
    );
    assert.match(s.get('total') ?? '', /^[\d.,]+ ms, peak RSS \d+ MiB$/);
  });

  test('--json: the whole result document, consistent with the file', () => {
    const doc = analyzeJson(program);
    assert.equal(doc.hashes.sha256, sha256(program));
    assert.equal(doc.size, readFileSync(program).length);
    assert.equal(doc.functionCount, doc.functions.length);
    assert.equal(doc.identity.format, 'elf');
    const start = doc.functions.find((f) => f.vaddr === PROGRAM.start);
    assert.equal(start?.name, '_start');
    for (const name of PROGRAM.imports)
      assert.ok(
        doc.imports.some((i) => i.name === name),
        `import ${name}`,
      );
    assert.deepEqual(doc.libraries, ['libc.so.6', 'libm.so.6']);
    assert.ok(doc.instructionCount >= doc.functionCount);
  });

  test('every stage the service runs: capabilities (shipped and --rules) and libraries; --recovery-only skips them', (t) => {
    const sample = join(corpus, 'bin', 'samples', 'sample-passwd_reader_linux-x86_64_gcc12_O2_stripped');
    if (!existsSync(sample)) return t.skip('../shared/corpus is not present');
    const full = analyzeJson(sample);
    assert.ok(full.capabilities, 'capabilities were matched');
    assert.ok(full.capabilities.matches.some((m) => m.rule === 'access /etc/passwd'));
    assert.deepEqual(full.sbom, []);
    const s = summary(binlens('analyze', sample).stdout);
    assert.match(s.get('capabilities') ?? '', /^\d+ of \d+ rules: .*access \/etc\/passwd.*\(ATT&CK .*T1087\.001/);
    assert.equal(s.get('libraries'), 'none identified');

    const rules = join(dir, 'rules');
    mkdirSync(rules);
    writeFileSync(
      join(rules, 'reads-group.yml'),
      'rule:\n  meta:\n    name: mentions the group database\n    scopes:\n      static: function\n  features:\n    - string: /etc/group\n',
    );
    writeFileSync(join(rules, 'broken.yml'), 'rule: [');
    const extra = binlens('analyze', sample, '--rules', rules, '--json');
    assert.equal(extra.status, 0, extra.stderr);
    assert.match(extra.stderr, /^capability rule skipped: .*broken\.yml: /);
    const extraRules = (JSON.parse(extra.stdout) as AnalysisResult).capabilities!;
    assert.equal(extraRules.rules, full.capabilities.rules + 1);

    const bare = analyzeJson(sample, '--recovery-only');
    assert.equal(bare.capabilities, null);
    assert.equal(bare.sbom, null);
    assert.equal(summary(binlens('analyze', sample, '--recovery-only').stdout).get('capabilities'), undefined);
  });

  const corpusCases = [
    { path: 'bin/samples/sample-file_crypt_linux-x86_64_gcc12_O2_stripped', format: 'ELF', platform: 'linux' },
    { path: 'bin/samples/sample-file_crypt_win-x86_64_mingw-gcc12_O2_stripped.exe', format: 'PE', platform: 'windows' },
  ];
  for (const c of corpusCases) {
    test(`corpus ${c.path.split('/').pop()}`, (t) => {
      const file = join(corpus, c.path);
      if (!existsSync(file)) return t.skip(`${file} absent (../shared/corpus not here)`);
      const manifest = JSON.parse(readFileSync(join(corpus, 'manifest.json'), 'utf8')) as {
        binaries: { path: string; sha256: string; size: number }[];
      };
      const entry = manifest.binaries.find((b) => b.path === c.path)!;
      const r = binlens('analyze', file);
      assert.equal(r.status, 0, r.stderr);
      const s = summary(r.stdout);
      assert.equal(s.get('sha256'), entry.sha256);
      assert.equal(s.get('size'), `${entry.size.toLocaleString('en-US')} bytes`);
      assert.match(s.get('format') ?? '', new RegExp(`^${c.format} `));
      assert.equal(s.get('architecture'), 'x86_64 (64-bit, little-endian)');
      assert.equal(s.get('platform'), c.platform);
      assert.equal(s.get('stripped'), 'yes');
      // A stripped program still has functions to recover, and strings.
      const functions = Number(/^([\d,]+) /.exec(s.get('functions') ?? '')?.[1]?.replace(/,/g, ''));
      assert.ok(functions >= 5, `functions: ${s.get('functions')}`);
      assert.ok(Number(s.get('strings')?.replace(/,/g, '')) > 0, `strings: ${s.get('strings')}`);
    });
  }

  test('a raw blob with --isa and --base: disassembled at that address', () => {
    // push rbp; mov rbp, rsp; call +7 (→ 0x10); pop rbp; ret; 5 × int3; xor eax, eax; ret
    const blob = join(dir, 'blob.bin');
    writeFileSync(blob, Buffer.from('554889e5e8070000005dc3cccccccccc31c0c3', 'hex'));
    const at = (base: number) => analyzeJson(blob, '--isa', 'x86_64', '--base', `0x${base.toString(16)}`);
    const doc = at(0x400000);
    assert.equal(doc.identity.format, 'raw');
    assert.equal(doc.identity.architecture, 'x86_64');
    assert.deepEqual(
      doc.functions.map((f) => f.vaddr),
      [0x400000, 0x400010],
    );
    assert.deepEqual(
      doc.calls.map((c) => [c.site, c.target]),
      [[0x400004, 0x400010]],
    );
    assert.deepEqual(
      analyzeJson(blob, '--isa', 'x86_64').functions.map((f) => f.vaddr),
      [0, 0x10],
      'without --base the blob loads at 0',
    );
  });

  test('a file in no known container, without --isa: hashes only, and how to go further', () => {
    const garbage = join(dir, 'garbage.bin');
    writeFileSync(garbage, Buffer.from(Array.from({ length: 4096 }, (_, i) => (i * 131 + 7) & 0xff)));
    const r = binlens('analyze', garbage);
    assert.equal(r.status, 0, r.stderr);
    const s = summary(r.stdout);
    assert.equal(s.get('format'), 'raw blob');
    assert.equal(s.get('sha256'), sha256(garbage));
    assert.match(s.get('note') ?? '', /--isa/);
    assert.equal(s.get('functions'), undefined);
  });

  test('a malformed binary: exit 1 and one line, no stack trace', () => {
    const bad = join(dir, 'bad.elf');
    writeFileSync(bad, Buffer.concat([Buffer.from('\x7fELF\x02\x01\x01', 'latin1'), Buffer.alloc(200, 0xa5)]));
    const r = binlens('analyze', bad);
    assert.equal(r.status, 1);
    assert.equal(r.stdout, '');
    assertCleanError(r.stderr, new RegExp(`^binlens: cannot analyse ${bad.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: `));
  });

  const usageCases: { name: string; args: (dir: string) => string[]; message: RegExp }[] = [
    { name: 'a missing file', args: (d) => [join(d, 'nope')], message: /^binlens: no such file: .*nope$/ },
    { name: 'a directory', args: (d) => [d], message: /^binlens: .* is a directory/ },
    { name: 'no file', args: () => [], message: /^binlens: analyze takes one file/ },
    { name: 'an unknown ISA', args: () => ['x', '--isa', 'mips'], message: /--isa must be one of x86, x86_64, arm/ },
    { name: '--base without --isa', args: () => ['x', '--base', '0x1000'], message: /--base needs --isa/ },
    { name: 'a bad address', args: () => ['x', '--isa', 'x86', '--base', '4k'], message: /--base must be an address/ },
    {
      name: 'an unknown option',
      args: () => ['x', '--fast'],
      message: /unknown option --fast \(binlens analyze --help lists the options\)/,
    },
  ];
  for (const c of usageCases) {
    test(`usage error, exit 2: ${c.name}`, () => {
      const r = binlens('analyze', ...c.args(dir));
      assert.equal(r.status, 2, r.stderr);
      assert.equal(r.stdout, '');
      assertCleanError(r.stderr, c.message);
    });
  }

  test('--help: exit 0, the options on stdout', () => {
    const r = binlens('analyze', '--help');
    assert.equal(r.status, 0);
    for (const option of ['--json', '--isa', '--base', '--platform']) assert.ok(r.stdout.includes(option), option);
  });
});
