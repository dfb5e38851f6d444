// What an analysis was created with, as the store keeps it (analyses.config, JSON text): one type, written
// and read here only, so services and jobs never cast the text themselves.
import { createHash } from 'node:crypto';
import type { Static } from '@sinclair/typebox';
import type { AnalysisCreateRequest } from './analyses.js';
import type { ClientBoundaries } from './jobs.js';

type Create = Static<typeof AnalysisCreateRequest>;

export interface StoredAnalysisConfig {
  analysis_config: NonNullable<Create['analysis_config']>;
  binary_config: NonNullable<Create['binary_config']> | null;
  symbols: Create['symbols'] | null;
  auto_run_agents: { triage: boolean };
  /** SHA-256 of the plugin's function boundaries, as the list's `function_boundaries_hash`. */
  function_boundaries_hash: string;
}

/** SHA-256 of the plugin's function boundaries (start, end, name of each, in request order). */
export function boundariesHash(symbols: Create['symbols'] | null): string {
  const b = (symbols?.function_boundaries ?? []).map((f) => [f.start_address, f.end_address, f.mangled_name]);
  return createHash('sha256').update(JSON.stringify(b)).digest('hex');
}

/** The settings of an analysis the service starts itself (of a child binary): a create request's defaults. */
export const defaultAnalysisConfig = (): StoredAnalysisConfig => ({
  analysis_config: {},
  binary_config: null,
  symbols: null,
  auto_run_agents: { triage: false },
  function_boundaries_hash: boundariesHash(null),
});

export const encodeAnalysisConfig = (config: StoredAnalysisConfig): string => JSON.stringify(config);

/**
 * The stored config with every field present: rows written before a field existed, and rows the store's own
 * tests write, read as the defaults a create request without it would have stored.
 */
export function decodeAnalysisConfig(text: string): StoredAnalysisConfig {
  const raw = JSON.parse(text) as Partial<StoredAnalysisConfig> | null;
  return {
    analysis_config: raw?.analysis_config ?? {},
    binary_config: raw?.binary_config ?? null,
    symbols: raw?.symbols ?? null,
    auto_run_agents: { triage: raw?.auto_run_agents?.triage ?? false },
    function_boundaries_hash: raw?.function_boundaries_hash ?? '',
  };
}

/** The plugin's boundaries the analysis uses (those not excluded with `include_in_analysis: false`). */
export function clientBoundaries(config: StoredAnalysisConfig): ClientBoundaries {
  const symbols = config.symbols;
  if (!symbols) return null;
  const functions = (symbols.function_boundaries ?? [])
    .filter((f) => f.include_in_analysis !== false && f.end_address > f.start_address)
    .map((f) => ({ start: f.start_address, end: f.end_address, name: f.mangled_name }));
  return { baseAddress: symbols.base_address, functions };
}
