/** Enforces the one-way dependency order of docs/STYLE.md (see docs/ARCHITECTURE.md). */
const layer = (name, mayImport) => ({
  name: `${name}-imports`,
  comment: `src/${name} may import only: ${mayImport.join(', ') || 'nothing of the project'}`,
  severity: 'error',
  from: { path: `^src/${name}/` },
  // An entry ending in `.ts` allows that one file, any other a whole folder.
  to: {
    path: '^src/',
    pathNot: [`^src/${name}/`, ...mayImport.map((m) => (m.endsWith('.ts') ? `^src/${m}$` : `^src/${m}/`))],
  },
});

module.exports = {
  forbidden: [
    { name: 'no-circular', severity: 'error', from: {}, to: { circular: true } },
    layer('shared', []),
    layer('contracts', ['shared']),
    layer('engine', ['shared', 'contracts']),
    layer('config', ['shared']),
    layer('blobs', ['shared']),
    layer('store', ['shared']),
    layer('jobs', ['shared', 'contracts', 'engine', 'store', 'blobs']),
    layer('services', ['shared', 'contracts', 'engine', 'store', 'blobs']),
    layer('api', ['shared', 'contracts', 'services']),
    layer('main', ['shared', 'contracts', 'config', 'store', 'blobs', 'jobs', 'services', 'api']),
    // `binlens analyze` runs the engine in its own worker thread: like jobs/, an edge where the engine meets files;
    // it reads capability rules and loads the demangler as the analysis threads do (jobs/rule-files.ts,
    // jobs/demangler.ts), not the queue.
    layer('cli', ['shared', 'contracts', 'config', 'engine', 'main', 'jobs/rule-files.ts', 'jobs/demangler.ts']),
    // Development tooling (tools/fuzz): fuzzes the engine, classifying errors as the job worker does, seeded
    // by the test builders; nothing in src/ imports tools/ or test/.
    {
      name: 'fuzz-imports',
      comment: 'tools/fuzz may import only: src/shared, src/contracts, src/engine, src/jobs, test/helpers',
      severity: 'error',
      from: { path: '^tools/fuzz/' },
      to: {
        path: '^(src|test|tools)/',
        pathNot: ['^src/(shared|contracts|engine|jobs)/', '^test/helpers/', '^tools/fuzz/'],
      },
    },
    {
      name: 'src-is-shipped',
      comment: 'code in src/ never imports test support or tooling',
      severity: 'error',
      from: { path: '^src/' },
      to: { path: '^(test|tools)/' },
    },
    // Inside the engine: formats → disasm → isa → cfg → encodings → strings → features → {capabilities, similarity}
    // → pipeline.
    ...[
      ['formats', ['disasm', 'isa', 'cfg', 'encodings', 'strings', 'features', 'capabilities', 'similarity']],
      ['disasm', ['isa', 'cfg', 'encodings', 'strings', 'features', 'capabilities', 'similarity']],
      ['isa', ['cfg', 'encodings', 'strings', 'features', 'capabilities', 'similarity']],
      ['cfg', ['encodings', 'strings', 'features', 'capabilities', 'similarity']],
      ['encodings', ['strings', 'features', 'capabilities', 'similarity']],
      ['strings', ['features', 'capabilities', 'similarity']],
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
