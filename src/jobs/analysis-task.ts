// Worker-thread entry: reads the sample, runs the engine on it and stores the results. Runs inside piscina,
// not on the API loop; only a summary goes back.
import { analyze } from '../engine/index.js';
import { isPermanentFailure } from './failures.js';
import { outputOverLimit, type OutputLimits } from './output-limits.js';
import { loadRuleDirectories, shippedRulesDir, type LoadedRules, type RuleFileProblem } from './rule-files.js';
import { readSample, type SampleInput } from './sample-input.js';
import { recordProgress } from './stage-progress.js';
import { storeResult, type AnalysisSummary } from './stored-result.js';
import { threadStore } from './thread-store.js';

export interface AnalysisTaskInput extends SampleInput {
  /** Match capability rules (shipped rules/ plus these extra directories). */
  capabilities: boolean;
  rulesDirs: string[];
  /** Identify the libraries the binary carries. */
  sbom: boolean;
  /** A result holding more is refused here, before it is stored. */
  limits: OutputLimits;
  /** Where the results go: the service's database (already migrated) and the analysis's id. */
  databaseUrl: string;
  analysisId: number;
}

/** Errors lose their class crossing the thread boundary, so a refusal that retrying cannot fix is data. */
export type AnalysisTaskOutput =
  { kind: 'done'; summary: AnalysisSummary; ruleProblems: RuleFileProblem[] } | { kind: 'refused'; reason: string };

/** Rules are read and compiled once per worker thread (and again only if the directories change). */
let loaded: { key: string; rules: Promise<LoadedRules> } | null = null;

function workerRules(extraDirs: string[]): Promise<LoadedRules> {
  const dirs = [shippedRulesDir(), ...extraDirs];
  const key = dirs.join('\0');
  if (loaded?.key !== key) loaded = { key, rules: loadRuleDirectories(dirs) };
  return loaded.rules;
}

export default async function analyzeFile(input: AnalysisTaskInput): Promise<AnalysisTaskOutput> {
  const sample = await readSample(input);
  if (sample.kind === 'refused') return sample;
  const loadedRules = input.capabilities ? await workerRules(input.rulesDirs) : null;
  try {
    const options = { ...sample.options, rules: loadedRules?.rules ?? null, sbom: input.sbom };
    const store = threadStore(input.databaseUrl);
    const result = await analyze(sample.bytes, options, recordProgress(store.events, input.analysisId));
    const over = outputOverLimit(result, input.limits);
    if (over) return { kind: 'refused', reason: over };
    const summary = await storeResult(store, input.analysisId, result);
    return { kind: 'done', summary, ruleProblems: loadedRules?.problems ?? [] };
  } catch (err) {
    if (isPermanentFailure(err)) return { kind: 'refused', reason: (err as Error).message };
    throw err;
  }
}
