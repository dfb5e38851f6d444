import { availableParallelism } from 'node:os';
import { delimiter, resolve } from 'node:path';
import { ANALYSIS_LIMIT_SETTINGS, type AnalysisLimits } from '../shared/analysis-limits.js';
import type { FirmwareLimits } from '../shared/firmware-limits.js';
import { LLM_SETTINGS, type LlmSettings } from '../shared/llm-settings.js';

export interface Config {
  host: string;
  port: number;
  dataDir: string;
  /** `postgres://…` for PostgreSQL, otherwise the SQLite file path. */
  databaseUrl: string;
  adminApiKey: string | null;
  maxUploadBytes: number;
  /** Analysis worker threads; 0 runs the API without workers (a separate `binlens worker` does the work). */
  workers: number;
  /** How long a claimed job stays leased without a heartbeat before another worker may take it over. */
  jobLeaseMs: number;
  logLevel: string;
  /** pretty: one readable line per event; json: pino's JSON lines; auto: pretty on a terminal, else JSON. */
  logFormat: 'pretty' | 'json' | 'auto';
  /** Extra capability-rule directories (BINLENS_RULES_DIRS, path-delimiter separated), loaded after the shipped rules/. */
  rulesDirs: string[];
  /** Time, heap and output bounds of each analysis (BINLENS_ANALYSIS_*). */
  analysisLimits: AnalysisLimits;
  /** The language model of the optional AI refinement of decompiled code (BINLENS_LLM_*); null: off. */
  llm: LlmSettings | null;
  /** Wall time of one emulated run of a sample (BINLENS_SANDBOX_SECONDS): it ends there, with what it did. */
  sandboxMs: number;
  /** Bounds of one firmware unpacking (BINLENS_FIRMWARE_*). */
  firmware: FirmwareLimits;
}

export class ConfigError extends Error {}

const DEFAULT_MAX_UPLOAD = 10 * 1024 * 1024 * 1024;

function int(env: NodeJS.ProcessEnv, name: string, dflt: number, min: number, max: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return dflt;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < min || n > max)
    throw new ConfigError(`${name} must be an integer in ${min}..${max}, got "${raw}"`);
  return n;
}

/**
 * Default, smallest and largest accepted value of each analysis limit. The largest real binary measured,
 * anthoscli (a 127 MB Go program), takes 90–97 s in the engine on the shared 2-core VM, ends holding 1.75 GiB
 * of heap and yields 145,931 functions, 270,268 strings and 2,309,884 cross-references (kubectl, 49 MB:
 * 25 s, 68,832, 133,804, 681,602). The defaults leave it six times its time and about twice its output.
 * 4096 MiB is V8's own heap cap for a thread on 64-bit (4096 MiB old + 48 MiB young generation), so the
 * default stops no analysis that finished before.
 */
const ANALYSIS_LIMIT_RANGES: Record<keyof AnalysisLimits, [dflt: number, min: number, max: number]> = {
  // A thread takes ~0.2 s to start; 2^31 − 1 ms (24.8 days) is setTimeout's longest delay.
  timeoutMs: [10 * 60_000, 1000, 2 ** 31 - 1],
  // A thread holds ~20 MiB of heap once the engine has loaded.
  maxMemoryMb: [4096, 64, 1 << 20],
  // An array holds at most 2^32 − 1 items.
  maxFunctions: [300_000, 1, 2 ** 32 - 1],
  maxStrings: [600_000, 1, 2 ** 32 - 1],
  maxXrefs: [5_000_000, 1, 2 ** 32 - 1],
};

/** A setting with a fixed set of values; the first is its default. */
function oneOf<T extends string>(env: NodeJS.ProcessEnv, name: string, values: readonly [T, ...T[]]): T {
  const raw = env[name];
  if (raw === undefined || raw === '') return values[0];
  if (!(values as readonly string[]).includes(raw))
    throw new ConfigError(`${name} must be one of ${values.join(', ')}, not "${raw}"`);
  return raw as T;
}

const limit = (env: NodeJS.ProcessEnv, key: keyof AnalysisLimits) =>
  int(env, ANALYSIS_LIMIT_SETTINGS[key], ...ANALYSIS_LIMIT_RANGES[key]);

/**
 * The model is a chat-completions URL (with its model name and optional key) or a GGUF file, never both;
 * neither leaves the refinement off. A setting that only makes sense with the other kind is refused rather
 * than ignored, so a typo cannot silently leave it off.
 */
function llmSettings(env: NodeJS.ProcessEnv): LlmSettings | null {
  const set = (key: keyof typeof LLM_SETTINGS) => {
    const raw = env[LLM_SETTINGS[key]];
    return raw === undefined || raw === '' ? null : raw;
  };
  const [url, apiKey, model, modelPath, threads] = [
    set('url'),
    set('apiKey'),
    set('model'),
    set('modelPath'),
    set('threads'),
  ];
  // A local model answers a long refinement in minutes on a CPU; a remote one in seconds.
  const timeoutMs = int(env, LLM_SETTINGS.timeoutMs, 120_000, 1000, 2 ** 31 - 1);
  if (url !== null && modelPath !== null)
    throw new ConfigError(`set ${LLM_SETTINGS.url} or ${LLM_SETTINGS.modelPath}, not both`);
  if (modelPath !== null) {
    if (apiKey !== null || model !== null)
      throw new ConfigError(
        `${LLM_SETTINGS.apiKey} and ${LLM_SETTINGS.model} go with ${LLM_SETTINGS.url}, ` +
          `not with ${LLM_SETTINGS.modelPath}`,
      );
    if (!modelPath.endsWith('.gguf'))
      throw new ConfigError(`${LLM_SETTINGS.modelPath} must be the path of a .gguf model file, got "${modelPath}"`);
    // One thread per core: node-llama-cpp's own default (at least 4) oversubscribes a 2-core machine, where
    // llama.cpp's spinning threads then wait on each other (decisions.md, "AI refinement").
    const cores = availableParallelism();
    return {
      kind: 'gguf',
      modelPath: resolve(modelPath),
      threads: int(env, LLM_SETTINGS.threads, cores, 1, 1024),
      timeoutMs,
    };
  }
  if (threads !== null) throw new ConfigError(`${LLM_SETTINGS.threads} goes with ${LLM_SETTINGS.modelPath}`);
  if (url === null) {
    const stray = (['apiKey', 'model'] as const).find((k) => set(k) !== null);
    if (stray) throw new ConfigError(`${LLM_SETTINGS[stray]} is set but ${LLM_SETTINGS.url} is not`);
    return null;
  }
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new ConfigError(`${LLM_SETTINGS.url} must be an http(s) URL such as http://127.0.0.1:8000/v1, got "${url}"`);
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:')
    throw new ConfigError(`${LLM_SETTINGS.url} must be an http(s) URL, got "${url}"`);
  if (parsed.username || parsed.password)
    throw new ConfigError(`${LLM_SETTINGS.url} may not hold credentials: put the key in ${LLM_SETTINGS.apiKey}`);
  if (parsed.search || parsed.hash)
    throw new ConfigError(`${LLM_SETTINGS.url} is the API's base URL (…/v1), without a query or fragment`);
  if (model === null)
    throw new ConfigError(`${LLM_SETTINGS.model} must name the model to ask when ${LLM_SETTINGS.url} is set`);
  return { kind: 'chat-completions', url: parsed.href.replace(/\/+$/, ''), apiKey, model, timeoutMs };
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const dataDir = resolve(env.BINLENS_DATA_DIR || './data');
  return {
    host: env.BINLENS_HOST || '127.0.0.1',
    port: int(env, 'BINLENS_PORT', 8080, 0, 65535),
    dataDir,
    databaseUrl: env.BINLENS_DATABASE_URL || resolve(dataDir, 'binlens.sqlite'),
    adminApiKey: env.BINLENS_ADMIN_API_KEY || null,
    maxUploadBytes: int(env, 'BINLENS_MAX_UPLOAD_BYTES', DEFAULT_MAX_UPLOAD, 1, Number.MAX_SAFE_INTEGER),
    workers: int(env, 'BINLENS_WORKERS', 1, 0, 64),
    jobLeaseMs: int(env, 'BINLENS_JOB_LEASE_MS', 30_000, 100, 3_600_000),
    logLevel: env.BINLENS_LOG_LEVEL || 'info',
    logFormat: oneOf(env, 'BINLENS_LOG_FORMAT', ['auto', 'pretty', 'json'] as const),
    rulesDirs: (env.BINLENS_RULES_DIRS ?? '')
      .split(delimiter)
      .filter((d) => d !== '')
      .map((d) => resolve(d)),
    analysisLimits: {
      timeoutMs: limit(env, 'timeoutMs'),
      maxMemoryMb: limit(env, 'maxMemoryMb'),
      maxFunctions: limit(env, 'maxFunctions'),
      maxStrings: limit(env, 'maxStrings'),
      maxXrefs: limit(env, 'maxXrefs'),
    },
    llm: llmSettings(env),
    sandboxMs: int(env, 'BINLENS_SANDBOX_SECONDS', 60, 1, 3600) * 1000,
    firmware: {
      wallMs: int(env, 'BINLENS_FIRMWARE_SECONDS', 600, 1, 86_400) * 1000,
      maxBytes: int(env, 'BINLENS_FIRMWARE_MAX_MB', 1024, 1, 1 << 20) * (1 << 20),
      maxRatio: int(env, 'BINLENS_FIRMWARE_MAX_RATIO', 20, 1, 10_000),
      maxFiles: int(env, 'BINLENS_FIRMWARE_MAX_FILES', 100_000, 1, 10_000_000),
      maxDepth: int(env, 'BINLENS_FIRMWARE_MAX_DEPTH', 10, 1, 64),
    },
  };
}
