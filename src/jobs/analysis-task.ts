// Worker-thread entry: reads the sample, runs the engine on it and stores the results. Runs inside piscina,
// not on the API loop; only a summary goes back.
import { readFile, stat } from 'node:fs/promises';
import { analyze, type BinaryConfig, type ClientSymbols } from '../engine/index.js';
import { loadDemangler } from './demangler.js';
import { createStore, openDatabase, type Store } from '../store/index.js';
import { isPermanentFailure } from './failures.js';
import { outputOverLimit, type OutputLimits } from './output-limits.js';
import { loadRuleDirectories, shippedRulesDir, type LoadedRules, type RuleFileProblem } from './rule-files.js';
import { recordProgress } from './stage-progress.js';
import { storeResult, type AnalysisSummary } from './stored-result.js';

export interface AnalysisTaskInput {
  path: string;
  binaryConfig: BinaryConfig | null;
  /** Function boundaries a disassembler plugin sent with the create request. */
  symbols: ClientSymbols | null;
  /** A separate debug file for the sample (names for its stripped functions). */
  debugPath: string | null;
  /** Samples larger than this are refused rather than read into a worker's memory. */
  maxBytes: number;
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

/** The database connection of this thread, opened on its first analysis and closed with the thread. */
let opened: { url: string; store: Store } | null = null;

function threadStore(url: string): Store {
  if (opened?.url !== url) {
    void opened?.store.driver.close();
    opened = { url, store: createStore(openDatabase(url)) };
  }
  return opened.store;
}

export default async function analyzeFile(input: AnalysisTaskInput): Promise<AnalysisTaskOutput> {
  const { size } = await stat(input.path);
  if (size > input.maxBytes)
    return { kind: 'refused', reason: `sample is ${size} bytes; the analysis limit is ${input.maxBytes}` };
  const bytes = await readFile(input.path);
  const debug =
    input.debugPath && (await stat(input.debugPath)).size <= input.maxBytes ? await readFile(input.debugPath) : null;
  const loadedRules = input.capabilities ? await workerRules(input.rulesDirs) : null;
  try {
    const options = {
      binaryConfig: input.binaryConfig,
      symbols: input.symbols,
      debug,
      rules: loadedRules?.rules ?? null,
      sbom: input.sbom,
      demangle: await loadDemangler(),
    };
    const store = threadStore(input.databaseUrl);
    const result = await analyze(bytes, options, recordProgress(store.events, input.analysisId));
    const over = outputOverLimit(result, input.limits);
    if (over) return { kind: 'refused', reason: over };
    const summary = await storeResult(store, input.analysisId, result);
    return { kind: 'done', summary, ruleProblems: loadedRules?.problems ?? [] };
  } catch (err) {
    if (isPermanentFailure(err)) return { kind: 'refused', reason: (err as Error).message };
    throw err;
  }
}
