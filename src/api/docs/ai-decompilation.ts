// Texts of the FunctionsAIDecompilation operations: a function's decompilation requested, followed and read
// (plain C and the placeholder form with its maps), comments on its lines, each user's rating, the whole-analysis
// request (a Binlens extension) and accepting the types it suggests (/v3).
import { FUNCTION_HIDDEN, HIDDEN_IS_MISSING, OWNER_ONLY, V3_ERRORS, type OperationDoc } from './operation-doc.js';

/** How a client follows a decompilation (docs/decisions.md, "AI decompilation"). */
const FLOW = [
  "A function's decompilation is `uninitialised` until a POST asks for it, then `pending` while the job (one",
  'per analysis, in the analysis workers) runs, then `success` or `error`. The result is kept until a function of',
  'the analysis is renamed (names appear in the C), its data types are edited or the analysis is re-analysed:',
  'then it reads `uninitialised` again and the next POST makes it anew.',
].join('\n');

const SHAPE = [
  '`decompilation` is the C as it reads; `raw_decompilation` the same C with placeholder tokens — functions',
  '(`<DISASM_FUNCTION_n>`, also library functions, with `is_external`), string literals (`<DISASM_STRING_n>`),',
  'locals and parameters (`<VAR_n>`), labels (`<GO_TO_LABEL_n>`), data (`<GLOBAL_VARIABLE_n>`), structure tags',
  '(`<CUSTOM_TYPE_n>`) and other names and literals (`<UNMATCHED_FUNCTION_n>`, `<UNMATCHED_STRING_n>`) —',
  'each resolved by `function_mapping_full` (`function_mapping` is its function map): replacing every token by',
  'its mapped spelling gives `decompilation` exactly. `summary` describes what the function calls, the strings',
  'and notable constants it uses, the capabilities matched in it and its callers and callees.',
  '`predicted_function_name` is the best name the latest auto-/ai-unstrip runs suggest for it, with',
  '`predicted_function_name_confidence` (a Binlens extension). `line_addresses` (a Binlens extension) gives,',
  'for each line of `decompilation`, the addresses of the instructions it came from (a condition its compare',
  'and branch, a `return` its `ret`; braces and declarations none): the web interface keeps C and disassembly',
  "in step with it. Null when `decompilation` is a language model's rewrite.",
].join('\n');

/** What the optional language model adds (docs/decisions.md, "AI refinement"). */
const MODEL = [
  'With a language model configured (`BINLENS_LLM_*`; off by default), a decompilation asked for by this',
  "per-function request also gets, in the worker: `ai_summary`, the model's description, and `raw_ai_summary`,",
  "the same with the function's names as the placeholder tokens of `raw_decompilation`; its rewrite of the",
  'function, served as `decompilation` (with `raw_decompilation` and the maps made from it) only when it compiles',
  "in the function's own unit and its tokens spell it back, else the decompiler's C with the variable names the",
  'model suggested applied through the maps; and, when no unstrip run names the function, its suggested name',
  'as `predicted_function_name` with a null confidence. A model that fails or is slow never fails the',
  "request: the decompiler's C is served. `ai_refinement` (a Binlens extension; null when the model was not",
  'asked) names the model, says whether `decompilation` is its rewrite and lists why any use of it gave',
  "nothing (also in the analysis's log). Without a model, `ai_summary` and `raw_ai_summary` are null.",
].join('\n');

const COMMENTS = 'Anyone who can see the function may comment; only the author may edit or delete (403).';

export const aiDecompilationDocs = {
  createAiDecompilationTask: {
    summary: "Start a function's decompilation",
    description: [
      "Queues the function's decompilation unless it has a current one or one under way; `data.status` says",
      'which. 409 while the analysis is not `Complete`. With a language model configured, a current one made',
      'without it (by the whole-analysis request) is made again with it.',
      '',
      FLOW,
      '',
      MODEL,
      '',
      FUNCTION_HIDDEN,
    ].join('\n'),
  },
  getAiDecompilationTaskResult: {
    summary: "Get a function's decompilation",
    description: [
      'The status and, once it is `success`, the decompilation. After `error`, `error_message` (a Binlens',
      'extension) says why. `summarise` and `generate_inline_comments` are accepted and change nothing.',
      '',
      SHAPE,
      '',
      MODEL,
      '',
      FUNCTION_HIDDEN,
    ].join('\n'),
  },
  getAiDecompilationTaskStatus: {
    summary: "Get a function's decompilation status",
    description: [
      '`UNINITIALISED`, `PENDING`, `COMPLETED` or `FAILED` (with `error_message`).',
      '',
      FLOW,
      '',
      FUNCTION_HIDDEN,
    ].join('\n'),
  },
  getAiDecompilationComments: {
    summary: "List the comments on a function's decompilation",
    description: `Oldest first, each with the lines it is about (\`context\`). ${FUNCTION_HIDDEN}`,
  },
  createAiDecompilationComment: {
    summary: "Comment on a function's decompilation",
    description: [
      '`context` gives the lines (`start_line`, `end_line`) the comment is about. An empty or over-long comment',
      `is refused (400). ${COMMENTS} ${FUNCTION_HIDDEN}`,
    ].join('\n'),
    examples: {
      lines: {
        summary: 'On lines 3 to 5',
        value: { content: 'Copies the key before hashing it', context: { start_line: 3, end_line: 5 } },
      },
    },
  },
  updateAiDecompilationComment: {
    summary: 'Edit a decompilation comment',
    description: `${COMMENTS} ${FUNCTION_HIDDEN}`,
  },
  deleteAiDecompilationComment: {
    summary: 'Delete a decompilation comment',
    description: `${COMMENTS} ${FUNCTION_HIDDEN}`,
  },
  getAiDecompilationRating: {
    summary: "Get your rating of a function's decompilation",
    description: `The caller's own rating, or null. ${FUNCTION_HIDDEN}`,
  },
  upsertAiDecompilationRating: {
    summary: "Rate a function's decompilation",
    description: `One rating per user and function: a new one replaces the caller's earlier one. ${FUNCTION_HIDDEN}`,
    examples: { positive: { summary: 'Readable', value: { rating: 'POSITIVE', reason: 'The loop reads as written' } } },
  },
  decompileAnalysisFunctions: {
    summary: "Decompile all of an analysis's functions",
    description: [
      'A Binlens extension: queues every function of the analysis without a current decompilation or one under',
      'way, in the background; `queued` says how many of `total`. Each then answers',
      '`GET /v2/functions/{function_id}/ai-decompilation`. Needs only sight of the analysis (decompiling derives',
      'data, like generating data types); 409 while it is not `Complete`. The language model, when one is',
      'configured, is not asked (a call per function of a whole binary would take hours): a per-function request',
      'adds its part to the functions it names.',
      '',
      HIDDEN_IS_MISSING,
    ].join('\n'),
  },
  v3AcceptAiDecompilationTypeSuggestions: {
    summary: 'Accept the types a decompilation suggests (/v3)',
    description: [
      "The suggestions are the types the function's current decompilation declares: `return` for its return",
      'type and `arg_0`, `arg_1`, … for its parameters. Accepting them makes them the function’s data types — a',
      'new version, the one replaced kept in the history, as a signature change makes; parameters it does not',
      'name keep their types, and one the data types lacked is added. Each accepted key answers the type-table',
      'entry of its type (`created`: the entry is new); `data_types` lists every entry the function now uses.',
      '`skipped_members` is always 0 (the suggestions are whole types, not structure members). The change makes',
      'the decompilation stale, as every data-type edit does. 409 without a current decompilation.',
      `${OWNER_ONLY} ${V3_ERRORS}`,
    ].join('\n'),
    examples: { prototype: { summary: 'Return and first parameter types', value: { keys: ['return', 'arg_0'] } } },
  },
} satisfies Record<string, OperationDoc>;
