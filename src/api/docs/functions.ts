// Texts of the FunctionsCore and FunctionsRenamingHistory operations: one function's details, its call
// graph, strings and blocks; finding similar functions; naming stripped ones.
import { FUNCTION_HIDDEN, HIDDEN_IS_MISSING, NOT_READY, OWNER_ONLY, type OperationDoc } from './operation-doc.js';

/**
 * Matching and unstripping are durable runs (docs/decisions.md, "Function matching and unstripping"): how a
 * client follows one.
 */
const RUNS = [
  'A request starts a run, or reports the one already started: repeat it to follow the run (`status`',
  '`PENDING`, `RUNNING`, then `COMPLETED`, `FAILED` or `CANCELLED`; `progress` 0–100). The response is the',
  'bare body, without the envelope, as in the reference; errors use the envelope. Similarities and',
  'confidences are percentages.',
].join('\n');

/** Both unstrip kinds write a finished run's names the same way. */
const APPLY = { summary: 'Write the names of the finished run', value: { apply: true } };

const CANCEL = (what: string, start: string) =>
  [
    `Cancels the analysis's pending or running ${what} and answers its state. With none pending or running the`,
    `answer is 404 with code \`NO_ACTIVE_RUN\`; \`POST …/${start}\` starts one again. ${OWNER_ONLY}`,
  ].join('\n');

export const functionsDocs = {
  getAnalysisStrings: {
    summary: "List an analysis's strings",
    description: [
      'The strings found (and added), each with the functions that use it and its source, and',
      '`total_strings`. `search` matches the value, `function_search` the names of the functions using it;',
      'sorted by `order_by` (`value` or `length`) and `sort_order`. Paged by `page` and `page_size` (default',
      `100); \`meta.pagination\` says whether another page follows. ${HIDDEN_IS_MISSING}`,
    ].join('\n'),
  },
  getAnalysisStringsStatus: {
    summary: "Get the state of an analysis's string extraction",
    description: [
      'Strings are extracted during the analysis, so this follows its status: `PENDING` (queued), `RUNNING`,',
      `\`COMPLETED\`, \`FAILED\` (analysis in \`Error\`), \`UNINITIALISED\` otherwise. ${HIDDEN_IS_MISSING}`,
    ].join('\n'),
  },
  getFunctionCalleesCallersBulk: {
    summary: 'Get the callees and callers of several functions',
    description: [
      'As `GET /v2/functions/{function_id}/callees_callers` for each of `function_ids` (repeat the',
      `parameter; at most 1000 distinct), in that order. ${FUNCTION_HIDDEN}`,
    ].join('\n'),
  },
  getFunctionDetails: {
    summary: 'Get a function',
    description: [
      'Name, mangled name, address and size of the function, with its analysis, binary, SHA-256, debug hash',
      `and whether debug information named it. ${FUNCTION_HIDDEN}`,
    ].join('\n'),
  },
  getFunctionCalleesCallers: {
    summary: "Get a function's callees and callers",
    description: [
      'The functions it calls (imports among them, `is_external`) and the functions that call it, each once,',
      `with name, function id and address in hex, and the analysis's base address. ${FUNCTION_HIDDEN}`,
    ].join('\n'),
  },
  getFunctionStrings: {
    summary: 'List the strings a function uses',
    description: [
      'Strings the function references, with address and source, and `total_strings`; `search` matches the',
      `value. Paged by \`page\` and \`page_size\` (default 100). ${FUNCTION_HIDDEN}`,
    ].join('\n'),
  },
  getFunctionBlocks: {
    summary: "Get a function's basic blocks and assembly",
    description: [
      "The function's basic blocks with their assembly, rendered from the stored sample on request",
      '(`0x<addr>: <mnemonic> <operands>`, with ` ; <name>` where a call or jump reaches a named function or',
      "import), each block's first and last address (inclusive) and its successors with the kind of edge",
      '(`fallthrough`, `unconditional`, `true`/`false` for the sides of a conditional branch, `switch`). At',
      'most 100 000 instructions are rendered. `local_variables` and `params` are empty: Binlens recovers no',
      `types yet. ${FUNCTION_HIDDEN}`,
    ].join('\n'),
  },
  getFunctionCapabilities: {
    summary: 'List the capabilities found in a function',
    description: [
      'The capability rules the function matched. They exist only for analyses created with',
      `\`analysis_config.generate_capabilities\` (409 otherwise). ${NOT_READY} ${FUNCTION_HIDDEN}`,
    ].join('\n'),
  },
  analysisFunctionMatching: {
    summary: "Find functions similar to an analysis's functions",
    description: [
      'For each function of the analysis, its nearest functions among those the caller may see (own, team',
      'and public analyses), never from the analysis itself, each with `similarity` and `confidence`, and the',
      'likeliest names with their `confidences`.',
      '',
      RUNS,
      '',
      '- `min_similarity` (default 90) and `results_per_function` (1–30, default 1) shape the answer;',
      '  `filters` keep candidates of some `binary_ids`, `collection_ids`, `function_ids`, `user_ids` or',
      '  `debug_types` (`SYSTEM`: named from symbols or debug information).',
      '- `page` and `page_size` page a finished result (`page_size` 0, the default: everything at once).',
      '- `status_only` never starts a run; `no_cache` starts a new one; `use_canonical_names` gives',
      '  source-level names (clone suffixes and decorations removed).',
      '',
      HIDDEN_IS_MISSING,
    ].join('\n'),
    examples: {
      defaults: { summary: 'Best match of every function, 90% similar or more', value: {} },
      wider: {
        summary: 'Three candidates from 80%, 50 functions a page',
        value: { min_similarity: 80, results_per_function: 3, page: 1, page_size: 50 },
      },
      collection: {
        summary: 'Only functions named from symbols in one collection',
        value: { filters: { collection_ids: [3], debug_types: ['SYSTEM'] }, use_canonical_names: true },
      },
      poll: { summary: 'Follow the run without starting one', value: { status_only: true } },
    },
  },
  batchFunctionMatching: {
    summary: 'Find functions similar to chosen functions',
    description: [
      'As the analysis form, for the functions in `function_ids` (1 to 10 000) of any analyses the caller may',
      'see; candidates never come from those analyses. `model_id` is required by the contract;',
      '`results_per_function` goes up to 50.',
      '',
      RUNS,
      '',
      FUNCTION_HIDDEN,
    ].join('\n'),
    examples: {
      two: {
        summary: 'Five candidates for two functions',
        value: { model_id: 2, function_ids: [1001, 1002], results_per_function: 5 },
      },
    },
  },
  autoUnstrip: {
    summary: 'Name stripped functions from similar ones',
    description: [
      "Suggests names for the analysis's placeholder-named functions (`sub_…`) from their nearest named",
      'functions: only reference binaries that are the best candidate of at least `min_group_size` functions',
      '(1–20, default 10) count, candidates need `min_similarity` (default 90) and names `confidence_threshold`',
      '(default 90).',
      '',
      RUNS,
      '',
      "With `apply` a finished run's names are written once (into the name history, with their evidence); a",
      'function renamed since keeps its new name. `status_only`, `no_cache` and `use_canonical_names` as for',
      `matching. ${OWNER_ONLY}`,
    ].join('\n'),
    examples: {
      preview: { summary: 'Suggest names with the defaults', value: {} },
      apply: APPLY,
      looser: {
        summary: 'Accept smaller groups and lower confidence',
        value: { min_group_size: 3, confidence_threshold: 80 },
      },
    },
  },
  cancelAutoUnstrip: {
    summary: 'Cancel an auto-unstrip',
    description: CANCEL('auto-unstrip', 'auto-unstrip'),
  },
  aiUnstrip: {
    summary: 'Name stripped functions from similarity and the call graph',
    description: [
      "Like auto-unstrip, but a suggestion must also agree with the function's neighbours: callees, callers",
      "and the functions beside it in address order must match the candidate's neighbours in its binary.",
      "Names are then handed out best first, each reference function once. Binlens's ai-unstrip is this",
      'structural matcher, not a language model; its thresholds are fixed (candidates from 50% similarity,',
      'names from 90% confidence), so the request has only `apply`.',
      '',
      RUNS,
      '',
      `\`apply\` writes a finished run's names once, as for auto-unstrip. ${OWNER_ONLY}`,
    ].join('\n'),
    examples: { preview: { summary: 'Suggest names', value: {} }, apply: APPLY },
  },
  cancelAiUnstrip: {
    summary: 'Cancel an ai-unstrip',
    description: CANCEL('ai-unstrip', 'ai-unstrip'),
  },
  v3SearchFunctions: {
    summary: 'Search functions (/v3)',
    description: [
      'Functions whose name contains `partial_name` (case-insensitive), optionally of one `model_name`, among',
      'the analyses the caller can see. Paged by `limit` (1–100, default 10) and `offset`; the body is',
      '`{results, page_number, page_size, has_next_page}`. Errors are /v3 bodies.',
    ].join('\n'),
  },
  batchRenameFunction: {
    summary: 'Rename several functions',
    description: [
      'Renames every listed function or none (at most 10 000): 404 when any is missing or not visible, 403',
      'when any belongs to an analysis the caller does not own, 422 for a blank name or one with control',
      "characters. Each change is kept in the function's name history.",
    ].join('\n'),
    examples: {
      two: {
        summary: 'Two functions',
        value: {
          functions: [
            { function_id: 1001, new_name: 'decrypt_config', new_mangled_name: 'decrypt_config' },
            { function_id: 1002, new_name: 'Beacon::send()', new_mangled_name: '_ZN6Beacon4sendEv' },
          ],
        },
      },
    },
  },
  renameFunctionId: {
    summary: 'Rename a function',
    description: [
      'Gives the function a new name and mangled name (the same text for C), kept in its name history.',
      `A blank name or one with control characters answers 422. ${OWNER_ONLY} ${FUNCTION_HIDDEN}`,
    ].join('\n'),
    examples: {
      c: { summary: 'A C function', value: { new_name: 'decrypt_config', new_mangled_name: 'decrypt_config' } },
      cpp: {
        summary: 'A C++ method',
        value: { new_name: 'Beacon::send()', new_mangled_name: '_ZN6Beacon4sendEv' },
      },
    },
  },
  getFunctionNameHistory: {
    summary: "List a function's names over time",
    description: [
      'Every name the function has had, newest first (at most 1000): who made the change, the name and',
      "mangled name, its `source_type` (`SYSTEM` for the binary's own names, `USER`, `AUTO_UNSTRIP`,",
      '`AI_UNSTRIP`, `EXTERNAL`) and when.',
      FUNCTION_HIDDEN,
    ].join('\n'),
  },
  revertFunctionName: {
    summary: 'Go back to an earlier name',
    description: [
      'Gives the function the name of one of its history entries again, as a new entry by the caller: the',
      "history only grows. An id that is not one of this function's entries answers 404.",
      `${OWNER_ONLY} ${FUNCTION_HIDDEN}`,
    ].join('\n'),
  },
} satisfies Record<string, OperationDoc>;
