// AI decompilation on the wire (/v2 FunctionsAIDecompilation), shaped as the reference's: a task per function
// (POST, then GET its result or status), the C with placeholder tokens and the maps resolving them
// (FunctionMappingFull), comments on lines of it and each user's rating (docs/decisions.md, "AI decompilation").
import { Type, type Static } from '@sinclair/typebox';
import { Envelope, Nullable } from './envelope.js';
import { Enum } from './enums.js';
import { V3DataType } from './v3-data-types.js';

export const InverseFunctionMapItem = Type.Object({
  name: Type.String(),
  addr: Nullable(Type.Union([Type.Integer(), Type.String()])),
  is_external: Type.Optional(Type.Boolean({ default: false })),
});
export const InverseStringMapItem = Type.Object({
  string: Type.String({ description: 'The literal as C spells it between its quotes.' }),
  addr: Nullable(Type.Integer()),
});
export const InverseValue = Type.Object({ value: Type.String() });

const Values = Type.Record(Type.String(), InverseValue);

export const FunctionMappingFull = Type.Object({
  inverse_string_map: Type.Record(Type.String(), InverseStringMapItem),
  inverse_function_map: Type.Record(Type.String(), InverseFunctionMapItem),
  unmatched_functions: Values,
  unmatched_custom_types: Values,
  unmatched_strings: Values,
  unmatched_vars: Values,
  unmatched_go_to_labels: Values,
  unmatched_custom_function_pointers: Values,
  unmatched_variadic_lists: Values,
  unmatched_enums: Values,
  unmatched_global_vars: Values,
  fields: Type.Record(Type.String(), Values),
  unmatched_external_vars: Type.Optional(Values),
});
export type FunctionMapping = Static<typeof FunctionMappingFull>;

/** Binlens: what the optional language model added to a function's decompilation (issue 12, item 3). */
export const AiRefinementReport = Type.Object({
  model: Type.String({ description: 'The model asked: the endpoint and model name, or the GGUF file.' }),
  refined: Type.Boolean({
    description:
      "decompilation is the model's rewrite, which compiled in the function's unit; false: the decompiler's C.",
  }),
  problems: Type.Array(Type.String(), {
    description:
      'Why a use of the model gave nothing: no answer in time, an error status, a rewrite that did not compile, ….',
  }),
});

export const AiDecompilationTaskStatus = Enum(['uninitialised', 'error', 'pending', 'success'] as const);

export const GetAiDecompilationTask = Type.Object({
  status: AiDecompilationTaskStatus,
  decompilation: Nullable(Type.String({ description: 'The C as it reads, for display.' })),
  raw_decompilation: Nullable(
    Type.String({ description: 'The C with placeholder tokens, each resolved by function_mapping_full.' }),
  ),
  function_mapping: Nullable(Type.Record(Type.String(), InverseFunctionMapItem)),
  function_mapping_full: Nullable(FunctionMappingFull),
  summary: Type.Optional(Nullable(Type.String())),
  ai_summary: Type.Optional(Nullable(Type.String())),
  raw_ai_summary: Type.Optional(Nullable(Type.String())),
  predicted_function_name: Type.Optional(Nullable(Type.String())),
  predicted_function_name_confidence: Type.Optional(
    Nullable(Type.Number({ description: 'Binlens: the confidence of predicted_function_name (0..1).' })),
  ),
  error_message: Type.Optional(Nullable(Type.String({ description: 'Binlens: why the decompilation failed.' }))),
  ai_refinement: Type.Optional(Nullable(AiRefinementReport)),
  line_addresses: Type.Optional(
    Nullable(
      Type.Array(Type.Array(Type.Integer()), {
        description:
          'Binlens: for each line of decompilation (split at its newlines, in order), the addresses of the ' +
          'instructions it came from, ascending (none for braces, declarations and blank lines); null when ' +
          "decompilation is a language model's rewrite or the decompilation predates this field.",
      }),
    ),
  ),
});

export const FunctionTaskResponse = Type.Object({
  status: Type.Optional(Enum(['UNINITIALISED', 'PENDING', 'RUNNING', 'COMPLETED', 'FAILED'] as const)),
  error_message: Type.Optional(Nullable(Type.String())),
});

export const AiDecompilationRating = Enum(['POSITIVE', 'NEGATIVE', 'NEUTRAL'] as const);
export const AiDecompilationRatingBody = Type.Object({
  rating: AiDecompilationRating,
  reason: Nullable(Type.String()),
});

export const DecompilationCommentContext = Type.Object({
  start_line: Nullable(Type.Integer()),
  end_line: Nullable(Type.Integer()),
});
export const FunctionCommentCreateRequest = Type.Object({
  content: Type.String(),
  context: Type.Optional(DecompilationCommentContext),
});

/** Binlens: the whole-analysis request's answer — how many functions were queued, of how many. */
export const AnalysisDecompilationRequest = Type.Object({
  queued: Type.Integer({ description: 'Functions queued now (the others have a current result or one under way).' }),
  total: Type.Integer({ description: 'Functions of the analysis.' }),
});

export const AiDecompilationEnvelopes = {
  task: Envelope(Nullable(GetAiDecompilationTask)),
  status: Envelope(Nullable(FunctionTaskResponse)),
  rating: Envelope(Nullable(AiDecompilationRatingBody)),
  analysis: Envelope(Nullable(AnalysisDecompilationRequest)),
};

/**
 * /v3 POST …/ai-decompilation/type-suggestions/accept: the suggestions to accept by key — `return` and `arg_0`,
 * `arg_1`, … for the return and parameter types the decompilation declared.
 */
export const AcceptTypeSuggestionsBody = Type.Object({
  keys: Type.Array(Type.String({ pattern: '^(return|arg_(0|[1-9][0-9]{0,2}))$' }), { minItems: 1, maxItems: 256 }),
});
export const AcceptTypeSuggestionsOutput = Type.Object({
  accepted: Type.Array(
    Type.Object({
      created: Type.Boolean({ description: "The type was new to the analysis's type table." }),
      data_type_id: Type.Integer({ format: 'int64' }),
      key: Type.String(),
      skipped_members: Type.Integer({ format: 'int64', description: 'Always 0: the suggestions have no members.' }),
    }),
  ),
  data_types: Type.Array(V3DataType),
});

/** Queue kind of decompilation. */
export const DECOMPILE_JOB_KIND = 'decompile';

/** A decompile job: the analysis, and its debug file resolved as for its analysis job (AnalysisJobPayload). */
export interface DecompileJobPayload {
  analysisId: number;
  debugSha256: string | null;
}

/** What the store keeps of one function's decompilation (function_decompilations.result). */
export interface StoredDecompilation {
  /** The C as it reads. */
  text: string;
  /** The C with placeholder tokens, and what each stands for. */
  placeholders: string;
  mapping: FunctionMapping;
  summary: string;
  /** The return and parameter types its definition declares: its type suggestions. */
  prototype: { returns: TypeSuggestion; params: TypeSuggestion[] };
  /**
   * For each line of `text`, the addresses of the instructions it came from (DecompiledFunction.lines);
   * absent when `text` is the model's rewrite, and in results stored before the field existed.
   */
  lines?: number[][];
  /** What the language model added, when the function was asked for with one configured. */
  model?: StoredModelRefinement;
}

/** The model's part of a stored decompilation; `text` and `placeholders` are its rewrite when `refined`. */
export interface StoredModelRefinement {
  description: string;
  /** The model's summary, and the same with the names the mapping covers as its placeholder tokens. */
  summary: string | null;
  rawSummary: string | null;
  /** The name it suggests for the function, if any. */
  functionName: string | null;
  refined: boolean;
  problems: string[];
}

/** A C type as the decompilation spells it, with its width in bytes. */
export interface TypeSuggestion {
  type: string;
  size: number;
}
