// Bounds on one analysis job. Named here because two layers need the names: config/ reads the settings
// from the environment, and jobs/ names the setting to raise in the failure it reports.

/** What one analysis may use and produce; a run past any of them ends in Error and is not retried. */
export interface AnalysisLimits {
  /** Wall-clock time from handing the sample to a worker thread to its result, ms. */
  timeoutMs: number;
  /** V8 heap (old + young generation) of an analysis thread, MiB. */
  maxMemoryMb: number;
  /** Functions one result may hold. */
  maxFunctions: number;
  /** Strings one result may hold. */
  maxStrings: number;
  /** Cross-references (calls + data references) one result may hold. */
  maxXrefs: number;
}

/** The environment variable that sets each limit. */
export const ANALYSIS_LIMIT_SETTINGS: Readonly<Record<keyof AnalysisLimits, string>> = {
  timeoutMs: 'BINLENS_ANALYSIS_TIMEOUT_MS',
  maxMemoryMb: 'BINLENS_ANALYSIS_MAX_MEMORY_MB',
  maxFunctions: 'BINLENS_ANALYSIS_MAX_FUNCTIONS',
  maxStrings: 'BINLENS_ANALYSIS_MAX_STRINGS',
  maxXrefs: 'BINLENS_ANALYSIS_MAX_XREFS',
};
