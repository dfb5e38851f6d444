// Function matching (nearest functions with filters) and unstripping (names from them): requests and the
// reference's bare (un-enveloped) responses, plus the durable job's payload.
import { Type, type Static } from '@sinclair/typebox';
import { Nullable } from './envelope.js';
import { enumOf } from './enums.js';

export const DEBUG_TYPES = ['USER', 'SYSTEM', 'EXTERNAL'] as const;

export const FunctionMatchingFilters = Type.Object({
  binary_ids: Type.Optional(Type.Array(Type.Integer())),
  collection_ids: Type.Optional(Type.Array(Type.Integer())),
  function_ids: Type.Optional(Type.Array(Type.Integer({ format: 'int64' }))),
  user_ids: Type.Optional(Type.Array(Type.Integer())),
  debug_types: Type.Optional(Type.Array(enumOf(DEBUG_TYPES))),
});

const matchingFields = (maxResults: number) => ({
  min_similarity: Type.Optional(Type.Number({ minimum: 0, maximum: 100, default: 90 })),
  filters: Type.Optional(Nullable(FunctionMatchingFilters)),
  results_per_function: Type.Optional(Type.Integer({ minimum: 1, maximum: maxResults, default: 1 })),
  page: Type.Optional(Type.Integer({ minimum: 1, default: 1 })),
  page_size: Type.Optional(Type.Integer({ minimum: 0, maximum: 1000, default: 0 })),
  status_only: Type.Optional(Type.Boolean({ default: false })),
  no_cache: Type.Optional(Type.Boolean({ default: false })),
  use_canonical_names: Type.Optional(Type.Boolean({ default: false })),
});

export const AnalysisFunctionMatchingRequest = Type.Object(matchingFields(30));

export const FunctionMatchingRequest = Type.Object({
  model_id: Type.Integer(),
  function_ids: Type.Array(Type.Integer({ format: 'int64' })),
  ...matchingFields(50),
});

export const MatchedFunction = Type.Object({
  function_id: Type.Integer({ format: 'int64' }),
  binary_id: Type.Integer(),
  function_name: Type.String(),
  function_vaddr: Type.Integer({ format: 'int64' }),
  mangled_name: Type.String(),
  debug: Type.Boolean(),
  binary_name: Type.String(),
  sha_256_hash: Type.String(),
  analysis_id: Type.Integer(),
  similarity: Type.Optional(Nullable(Type.Number())),
  confidence: Type.Optional(Nullable(Type.Number())),
});

export const NameConfidence = Type.Object({
  name: Type.String(),
  confidence: Type.Number({ minimum: 0, maximum: 100 }),
});

export const FunctionMatch = Type.Object({
  function_id: Type.Integer({ format: 'int64' }),
  matched_functions: Type.Array(MatchedFunction),
  confidences: Type.Optional(Nullable(Type.Array(NameConfidence))),
});

export const FunctionMatchingResponse = Type.Object({
  progress: Type.Optional(Type.Integer({ default: 0 })),
  status: Type.Optional(Nullable(Type.String())),
  total_time: Type.Optional(Nullable(Type.Integer())),
  error_message: Type.Optional(Nullable(Type.String())),
  current_page: Type.Optional(Nullable(Type.Integer())),
  total_pages: Type.Optional(Nullable(Type.Integer())),
  matches: Type.Optional(Nullable(Type.Array(FunctionMatch))),
  num_matches: Type.Optional(Nullable(Type.Integer())),
  num_debug_matches: Type.Optional(Nullable(Type.Integer())),
  updated_at: Type.Optional(Nullable(Type.String())),
});

export const AutoUnstripRequest = Type.Object({
  min_similarity: Type.Optional(Type.Number({ minimum: 0, maximum: 100, default: 90 })),
  apply: Type.Optional(Type.Boolean({ default: false })),
  confidence_threshold: Type.Optional(Type.Number({ minimum: 0, maximum: 100, default: 90 })),
  min_group_size: Type.Optional(Type.Integer({ minimum: 1, maximum: 20, default: 10 })),
  status_only: Type.Optional(Type.Boolean({ default: false })),
  no_cache: Type.Optional(Type.Boolean({ default: false })),
  use_canonical_names: Type.Optional(Type.Boolean({ default: false })),
});

export const AiUnstripRequest = Type.Object({
  apply: Type.Optional(Type.Boolean({ default: false })),
});

export const MatchedFunctionSuggestion = Type.Object({
  function_id: Type.Integer({ format: 'int64' }),
  function_vaddr: Type.Integer({ format: 'int64' }),
  suggested_name: Type.Optional(Nullable(Type.String())),
  suggested_demangled_name: Type.String(),
});

export const AutoUnstripResponse = Type.Object({
  progress: Type.Optional(Type.Integer({ default: 0 })),
  status: Type.Optional(Nullable(Type.String())),
  total_time: Type.Optional(Nullable(Type.Integer())),
  matches: Type.Optional(Nullable(Type.Array(MatchedFunctionSuggestion))),
  applied: Type.Optional(Nullable(Type.Boolean())),
  error_message: Type.Optional(Nullable(Type.String())),
});

export type FunctionMatchingResponseBody = Static<typeof FunctionMatchingResponse>;
export type AutoUnstripResponseBody = Static<typeof AutoUnstripResponse>;

/** Queue kind of matching and unstripping runs; the payload names the run (its row holds the request). */
export const SIMILARITY_RUN_JOB_KIND = 'similarity-run';
export interface SimilarityRunJobPayload {
  runId: number;
  /** Only write the names of the finished run. */
  apply?: boolean;
}

/**
 * What a run does: function matching, or naming with (ai) or without (auto) the call graph. Its life, as
 * the responses' `status` spells it: PENDING → RUNNING → COMPLETED, FAILED or CANCELLED.
 */
export type RunKind = 'matches' | 'auto_unstrip' | 'ai_unstrip';

/** A matching run's question, as the job reads it from the run's row (similarities 0..1). */
export interface MatchingRunRequest {
  /** Every function of this analysis, or the listed functions. */
  analysisId: number | null;
  functionIds: number[] | null;
  minSimilarity: number;
  resultsPerFunction: number;
  filters: {
    binaryIds?: number[];
    collectionIds?: number[];
    functionIds?: number[];
    userIds?: number[];
    debugTypes?: (typeof DEBUG_TYPES)[number][];
  };
}

/** An unstrip run's question (similarities and confidences 0..1). */
export interface UnstripRunRequest {
  minSimilarity: number;
  confidenceThreshold: number;
  minGroupSize: number;
  apply: boolean;
  useCanonicalNames: boolean;
}

export interface MatchingRunResult {
  matches: Static<typeof FunctionMatch>[];
  numDebugMatches: number;
  totalTimeMs: number;
}

/** One suggested name and why (kept in the name history when applied). */
export interface StoredSuggestion {
  functionId: number;
  vaddr: number;
  name: string;
  mangledName: string;
  confidence: number;
  evidence: {
    matched_function_id: number;
    matched_binary_id: number;
    matched_analysis_id: number;
    matched_name: string;
    similarity: number;
    confidence: number;
    agreeing_binaries: number;
    neighbours: number;
    agreeing_neighbours: number;
    contradicting_neighbours: number;
    pool_size: number;
    method: RunKind;
    alternatives: { name: string; confidence: number }[];
  };
}

export interface UnstripRunResult {
  suggestions: StoredSuggestion[];
  totalTimeMs: number;
}
