// Enforces the one-way dependency order of docs/STYLE.md (see docs/ARCHITECTURE.md).

/**
 * `dir` may import, of the paths `scope` matches, only itself and `mayImport` (folders, or one file where
 * an entry ends in `.ts`), which `root` prefixes.
 */
const onlyImports = (name, dir, scope, root, mayImport) => ({
  name: `${name}-imports`,
  comment: `${dir} may import only: ${mayImport.join(', ') || 'nothing of the project'}`,
  severity: 'error',
  from: { path: `^${dir}/` },
  to: {
    path: scope,
    pathNot: [`^${dir}/`, ...mayImport.map((m) => (m.endsWith('.ts') ? `^${root}${m}$` : `^${root}${m}/`))],
  },
});
/** A layer of src/: entries relative to src/. */
const layer = (name, mayImport) => onlyImports(name, `src/${name}`, '^src/', 'src/', mayImport);
/** Development tooling in tools/: entries relative to the project root. */
const tool = (name, mayImport) => onlyImports(name, `tools/${name}`, '^(src|test|tools)/', '', mayImport);

module.exports = {
  forbidden: [
    { name: 'no-circular', severity: 'error', from: {}, to: { circular: true } },
    layer('shared', []),
    layer('contracts', ['shared']),
    layer('engine', ['shared', 'contracts']),
    layer('config', ['shared']),
    layer('blobs', ['shared']),
    // The optional language model (AI refinement of decompiled code): called by the jobs that decompile,
    // opened by main from the config.
    layer('llm', ['shared']),
    layer('store', ['shared']),
    layer('jobs', ['shared', 'contracts', 'engine', 'store', 'blobs', 'llm']),
    layer('services', ['shared', 'contracts', 'engine', 'store', 'blobs']),
    layer('api', ['shared', 'contracts', 'services']),
    layer('main', ['shared', 'contracts', 'config', 'store', 'blobs', 'jobs', 'services', 'api', 'llm']),
    // `binlens analyze` runs the engine in its own worker thread: like jobs/, an edge where the engine meets files;
    // it reads capability rules and loads the demangler as the analysis threads do (jobs/rule-files.ts,
    // jobs/demangler.ts), not the queue.
    layer('cli', ['shared', 'contracts', 'config', 'engine', 'main', 'jobs/rule-files.ts', 'jobs/demangler.ts']),
    // Development tooling (tools/): never shipped; nothing in src/ imports tools/ or test/.
    // tools/fuzz fuzzes the engine, classifying errors as the job worker does, seeded by the test builders.
    tool('fuzz', ['src/shared', 'src/contracts', 'src/engine', 'src/jobs', 'test/helpers']),
    // tools/bench measures the layers as the service runs them: the engine (timed per stage with the CLI's
    // StageClock, with rules and demangler loaded as jobs/ loads them), the store, the analysis pool, the
    // whole service in-process (main) or as a process; API responses typed by contracts/. From test/ only the
    // corpus/objdump helpers, hand-built multipart bodies and the browser the web interface's tests drive.
    tool('bench', [
      'src/shared',
      'src/contracts',
      'src/config',
      'src/engine',
      'src/store',
      'src/jobs',
      'src/main',
      'src/cli/stage-clock.ts',
      'test/helpers/engine/disasm.ts',
      'test/helpers/multipart.ts',
      'test/helpers/browser.ts',
    ]),
    // tools/tune chooses engine constants on the bench's similarity protocol and index vectors.
    tool('tune', ['src/shared', 'src/engine', 'tools/bench/similarity-protocol.ts', 'tools/bench/index-corpus.ts']),
    // tools/build: copy-assets and run-tests work on files; web builds the service (never listening) for its
    // OpenAPI document, which types the web interface.
    tool('build', ['src/config', 'src/main']),
    {
      name: 'src-is-shipped',
      comment: 'code in src/ never imports test support or tooling',
      severity: 'error',
      from: { path: '^src/' },
      to: { path: '^(test|tools)/' },
    },
    // Inside the engine: formats → disasm → isa → cfg → encodings → strings → features → {capabilities, similarity}
    // → pipeline; the IR sits beside the ISA profiles (a profile names its lifter) and after cfg, types after it.
    ...[
      [
        'formats',
        ['disasm', 'isa', 'cfg', 'ir', 'types', 'encodings', 'strings', 'features', 'capabilities', 'similarity'],
      ],
      ['disasm', ['isa', 'cfg', 'ir', 'types', 'encodings', 'strings', 'features', 'capabilities', 'similarity']],
      ['isa', ['cfg', 'types', 'encodings', 'strings', 'features', 'capabilities', 'similarity']],
      ['cfg', ['ir', 'types', 'encodings', 'strings', 'features', 'capabilities', 'similarity']],
      ['ir', ['types', 'encodings', 'strings', 'features', 'capabilities', 'similarity']],
      ['encodings', ['ir', 'types', 'strings', 'features', 'capabilities', 'similarity']],
      ['strings', ['ir', 'types', 'features', 'capabilities', 'similarity']],
    ].map(([stage, later]) => ({
      name: `engine-${stage}-order`,
      comment: `engine/${stage} may not import later stages: ${later.join(', ')}`,
      severity: 'error',
      from: { path: `^src/engine/${stage}/` },
      to: { path: `^src/engine/(${later.join('|')})/` },
    })),
    {
      name: 'engine-is-pure',
      comment: 'the engine does no I/O: no fs, net, child_process, worker_threads',
      severity: 'error',
      from: { path: '^src/engine/' },
      to: {
        dependencyTypes: ['core'],
        path: '^(fs|node:fs|net|node:net|child_process|node:child_process|http|node:http|https|node:https|worker_threads|node:worker_threads|fs/promises|node:fs/promises)$',
      },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    exclude: { path: '\\.test\\.ts$' },
  },
};
