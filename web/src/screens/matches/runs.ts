// Matching and unstrip runs of one analysis. Their endpoints answer bare bodies (no envelope) and are
// followed by repeating the POST: `status_only` reads a run without starting one, so the screen polls with
// it while a run is PENDING or RUNNING. ai-unstrip has no `status_only` (its request holds only `apply`);
// repeating its POST reports the run already made rather than starting another, so it is only repeated
// once this analysis has had one started from here (remembered in the browser).
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { api, errorOf } from '../../api/client';
import type { paths } from '../../api/schema';

type MatchingOp = paths['/v2/analyses/{analysis_id}/functions/matches']['post'];
type MatchingBody = MatchingOp['requestBody']['content']['application/json'];
export type MatchingAnswer = MatchingOp['responses'][200]['content']['application/json'];
export type QueryMatch = NonNullable<MatchingAnswer['matches']>[number];
export type MatchedFunction = QueryMatch['matched_functions'][number];
export type UnstripAnswer =
  paths['/v2/analyses/{analysis_id}/functions/auto-unstrip']['post']['responses'][200]['content']['application/json'];
export type Suggestion = NonNullable<UnstripAnswer['matches']>[number];
export type UnstripKind = 'auto' | 'ai';

const POLL_MS = 1500;

export const isActive = (status: string | null | undefined) => status === 'PENDING' || status === 'RUNNING';

/** What a matching run asks; similarities and confidences in percent, as the API takes them. */
export interface MatchSettings {
  minSimilarity: number;
  resultsPerFunction: number;
  collectionIds: number[];
  binaryIds: number[];
  /** Candidates named by symbols or debug information only. */
  symbolsOnly: boolean;
}

/** auto-unstrip's own parameters; its min similarity is matching's. */
export interface UnstripSettings {
  confidenceThreshold: number;
  minGroupSize: number;
}

export const DEFAULT_MATCH_SETTINGS: MatchSettings = {
  minSimilarity: 90,
  resultsPerFunction: 5,
  collectionIds: [],
  binaryIds: [],
  symbolsOnly: false,
};

/** A run to start: ai-unstrip takes none of it (its thresholds are fixed, a finished run is reused). */
export type UnstripAsk = UnstripSettings & { minSimilarity: number; fresh: boolean };

export const DEFAULT_UNSTRIP_SETTINGS: UnstripSettings = { confidenceThreshold: 90, minGroupSize: 10 };

interface Remembered {
  matching?: MatchSettings;
  aiUnstrip?: boolean;
}

const storageKey = (analysisId: number) => `binlens.matches.${analysisId}`;

function remembered(analysisId: number): Remembered {
  try {
    return JSON.parse(localStorage.getItem(storageKey(analysisId)) ?? '{}') as Remembered;
  } catch {
    return {};
  }
}

function remember(analysisId: number, change: Remembered): void {
  localStorage.setItem(storageKey(analysisId), JSON.stringify({ ...remembered(analysisId), ...change }));
}

/** The body of an answer that has no envelope, or the envelope's error. */
async function bare<T>(call: Promise<{ data?: T; error?: unknown; response: Response }>): Promise<T> {
  const { data, error, response } = await call;
  if (data !== undefined && response.ok) return data;
  throw errorOf(error, response.status);
}

function matchingBody(s: MatchSettings): MatchingBody {
  const filters: NonNullable<MatchingBody['filters']> = {};
  if (s.collectionIds.length) filters.collection_ids = s.collectionIds;
  if (s.binaryIds.length) filters.binary_ids = s.binaryIds;
  if (s.symbolsOnly) filters.debug_types = ['SYSTEM'];
  return { min_similarity: s.minSimilarity, results_per_function: s.resultsPerFunction, filters };
}

const postMatching = (analysisId: number, s: MatchSettings, flags: { status_only?: boolean; no_cache?: boolean }) =>
  bare(
    api.POST('/v2/analyses/{analysis_id}/functions/matches', {
      params: { path: { analysis_id: analysisId } },
      body: { ...matchingBody(s), ...flags },
    }),
  );

/**
 * The analysis's matching run for the settings last asked from here (the defaults at first), followed while
 * it runs; `start` asks anew (a finished run with the same settings answers at once unless `fresh`).
 */
export function useMatchingRun(analysisId: number) {
  const client = useQueryClient();
  const [asked, setAsked] = useState<MatchSettings>(() => remembered(analysisId).matching ?? DEFAULT_MATCH_SETTINGS);
  const key = (s: MatchSettings) => ['matches', 'matching', analysisId, s];
  const status = useQuery({
    queryKey: key(asked),
    queryFn: () => postMatching(analysisId, asked, { status_only: true }),
    refetchInterval: (q) => (isActive(q.state.data?.status) ? POLL_MS : false),
  });
  const start = useMutation({
    mutationFn: ({ settings, fresh }: { settings: MatchSettings; fresh: boolean }) =>
      postMatching(analysisId, settings, { no_cache: fresh }),
    onSuccess: (answer, { settings }) => {
      client.setQueryData(key(settings), answer);
      remember(analysisId, { matching: settings });
      setAsked(settings);
    },
  });
  return { asked, status, start };
}

/** auto-unstrip or ai-unstrip of the analysis: its latest run, followed while it runs, and start/cancel. */
export function useUnstripRun(analysisId: number, kind: UnstripKind) {
  const client = useQueryClient();
  const [known, setKnown] = useState(() => kind === 'auto' || remembered(analysisId).aiUnstrip === true);
  const key = ['matches', 'unstrip', analysisId, kind];
  const path = { params: { path: { analysis_id: analysisId } } };
  // Without an ask, auto-unstrip only reports its latest run.
  const post = (ask: UnstripAsk | null) =>
    kind === 'auto'
      ? bare(
          api.POST('/v2/analyses/{analysis_id}/functions/auto-unstrip', {
            ...path,
            body: ask
              ? {
                  min_similarity: ask.minSimilarity,
                  confidence_threshold: ask.confidenceThreshold,
                  min_group_size: ask.minGroupSize,
                  no_cache: ask.fresh,
                }
              : { status_only: true },
          }),
        )
      : bare(api.POST('/v2/analyses/{analysis_id}/functions/ai-unstrip', { ...path, body: {} }));
  const status = useQuery({
    queryKey: key,
    queryFn: () => post(null),
    enabled: known,
    refetchInterval: (q) => (isActive(q.state.data?.status) ? POLL_MS : false),
  });
  const settle = (answer: UnstripAnswer) => client.setQueryData(key, answer);
  const start = useMutation({
    mutationFn: (ask: UnstripAsk) => post(ask),
    onSuccess: (answer) => {
      if (kind === 'ai') remember(analysisId, { aiUnstrip: true });
      setKnown(true);
      settle(answer);
    },
  });
  const cancel = useMutation({
    mutationFn: () =>
      bare(
        kind === 'auto'
          ? api.DELETE('/v2/analyses/{analysis_id}/functions/unstrip/cancel', path)
          : api.DELETE('/v2/analyses/{analysis_id}/functions/ai-unstrip/cancel', path),
      ),
    onSuccess: settle,
  });
  return { status, start, cancel };
}
