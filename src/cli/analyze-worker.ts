// Worker-thread entry of `binlens analyze`, `binlens types` and `binlens decompile`. The engine's stages are synchronous and the
// longest (function recovery) takes seconds on a large binary, so the engine runs here while the main thread
// keeps redrawing the progress bar.
import { readFileSync } from 'node:fs';
import { parentPort, workerData } from 'node:worker_threads';
import { analyze, analyzeDecompilation, analyzeTypes, type AnalyzeOptions } from '../engine/index.js';
import { loadDemangler } from '../jobs/demangler.js';
import { loadRuleDirectories, shippedRulesDir, type RuleFileProblem } from '../jobs/rule-files.js';

export interface EngineWorkerInput {
  /** The whole analysis, data types only, or C for the `wanted` functions (all when null). */
  task: 'analysis' | 'types' | 'decompile';
  wanted?: (string | number)[] | null;
  path: string;
  options: Omit<AnalyzeOptions, 'rules'>;
  /** Match capability rules: the shipped rules/ plus these directories (null: no capabilities). */
  rulesDirs: string[] | null;
}

/**
 * The result crosses as JSON text: for busybox (a 21 MB document) structured cloning took 2–5 s against
 * 0.2–1 s to stringify, and `--json` then writes the text without parsing it. Errors lose their class
 * crossing the thread boundary, so whether one is the input's fault is data.
 */
export type EngineWorkerMessage =
  | { kind: 'progress'; stage: string; fraction: number }
  | { kind: 'done'; json: string; ruleProblems: RuleFileProblem[] }
  | { kind: 'failed'; message: string; permanent: boolean };

const post = (m: EngineWorkerMessage) => parentPort!.postMessage(m);
const { task, path, options, rulesDirs, wanted } = workerData as EngineWorkerInput;
try {
  const demangle = await loadDemangler();
  const report = (stage: string, fraction: number) => post({ kind: 'progress', stage, fraction });
  if (task === 'decompile') {
    const c = await analyzeDecompilation(readFileSync(path), { ...options, demangle }, wanted ?? null, report);
    post({ kind: 'done', json: JSON.stringify(c), ruleProblems: [] });
  } else if (task === 'types') {
    const types = await analyzeTypes(readFileSync(path), { ...options, demangle }, report);
    post({ kind: 'done', json: JSON.stringify(types), ruleProblems: [] });
  } else {
    // Read and compiled as the service's analysis threads do (src/jobs/rule-files.ts).
    const loaded = rulesDirs ? await loadRuleDirectories([shippedRulesDir(), ...rulesDirs]) : null;
    const result = await analyze(readFileSync(path), { ...options, rules: loaded?.rules ?? null, demangle }, report);
    // Vectors are for the service's index; as JSON they would be an object per typed-array element.
    post({ kind: 'done', json: JSON.stringify({ ...result, vectors: null }), ruleProblems: loaded?.problems ?? [] });
  }
} catch (err) {
  // FormatError and DecoderError mark malformed or unsupported input as permanent; anything else is a bug.
  post({
    kind: 'failed',
    message: err instanceof Error ? err.message : String(err),
    permanent: (err as { permanent?: unknown }).permanent === true,
  });
}
