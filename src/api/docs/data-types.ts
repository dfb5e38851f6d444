// Texts of the FunctionsDataTypes operations (/v2 and /v3): generating a function's data types (prototype, stack
// variables, the types it depends on), reading and editing them, an analysis's type table and signatures.
import { FUNCTION_HIDDEN, HIDDEN_IS_MISSING, OWNER_ONLY, V3_ERRORS, type OperationDoc } from './operation-doc.js';

/** How a client follows a generation (docs/decisions.md, "Data types"). */
const STATUSES = [
  'Each function has a generation `status`: `not_generated` (no request named it yet), `pending` (its job is',
  'queued), `running`, `completed` (`completed: true`) or `failed`. Poll',
  '`GET /v2/analyses/{analysis_id}/functions/{function_id}/data_types` (or the list) until `completed`; the',
  "analysis's log (`GET …/logs`, `…/events`) follows the job's progress.",
].join('\n');

/** What the data types look like on the wire. */
const SHAPE = [
  '`data_types.func_types` is the prototype in C: `header.type` the return type, `header.args` and `stack_vars`',
  'keyed by their offset in hex (`0x0`, `0x1` for arguments by position; stack offsets from the stack pointer on',
  'entry, e.g. `-0x18`), `type` the whole declaration. `func_deps` are the structures, enumerations, typedefs',
  "(from the analysis's type table, shared by its functions) and globals the function uses, each with its",
  '`artifact_type`. `data_types_version` counts changes; `last_change` is when a person last changed it (null:',
  'as generated).',
].join('\n');

const FUNCTION_IN_ANALYSIS =
  "A function that is not one of the analysis's answers 404, as does one the caller cannot see.";

/** A PUT body: a two-argument prototype and the structure it points to. */
const EDIT_EXAMPLE = {
  data_types_version: 1,
  data_types: {
    func_types: {
      addr: 69632,
      size: 6,
      name: 'sub_11000',
      type: 'int32_t sub_11000(int32_t count, struct stream *out)',
      header: {
        name: 'sub_11000',
        addr: 69632,
        type: 'int32_t',
        args: {
          '0x0': { offset: 0, name: 'count', type: 'int32_t', size: 4 },
          '0x1': { offset: 1, name: 'out', type: 'struct stream *', size: 8 },
        },
      },
      stack_vars: {},
    },
    func_deps: [
      {
        name: 'stream',
        size: 16,
        members: {
          '0x0': { name: 'fd', offset: 0, type: 'int32_t', size: 4 },
          '0x8': { name: 'buffer', offset: 8, type: 'char *', size: 8 },
        },
        artifact_type: 'Structure',
      },
    ],
  },
};

export const dataTypesDocs = {
  generateFunctionDataTypesForAnalysis: {
    summary: "Generate data types for an analysis's functions",
    description: [
      'Asks for the data types of the listed functions of the analysis and answers at once (201): `queued` says',
      "whether a job is generating some of them, `reference` is that job's id, `data_types_list` each function's",
      'status. Generation recovers the types of every function of the analysis in one job (interprocedural',
      'recovery needs them all), so later requests for other functions of it are answered from what it found.',
      'Functions already `completed` are generated again only when the analysis was re-analysed since; `failed`',
      'ones are retried. Edits by the owner are never replaced by a generation (nor by a re-analysis).',
      `${STATUSES} 409 while the analysis is not \`Complete\`.`,
      `${FUNCTION_IN_ANALYSIS} Anyone who can see the analysis may ask: generation derives data and changes no`,
      "one's edits.",
    ].join('\n'),
    examples: { two: { summary: 'Two functions', value: { function_ids: [1201, 1202] } } },
  },
  listFunctionDataTypesForAnalysis: {
    summary: "List data types of an analysis's functions",
    description: [
      'Status, data types and version of each function listed in `function_ids` (repeat the parameter), or',
      'without it of every function a generation request named or the owner changed, by function id.',
      `\`total_data_types_count\` counts those with data types. ${SHAPE} ${HIDDEN_IS_MISSING}`,
    ].join('\n'),
  },
  getFunctionDataTypes: {
    summary: "Get a function's data types",
    description: [
      `The polling operation. ${STATUSES} Once there are data types they are here, with their version (also`,
      "while a new generation runs, and after one fails). When the latest generation failed, the envelope's",
      `\`message\` says why. ${SHAPE} ${FUNCTION_IN_ANALYSIS}`,
    ].join('\n'),
  },
  updateFunctionDataTypes: {
    summary: "Change a function's data types",
    description: [
      "Makes the body the function's data types, as a new version: send the `data_types_version` you read;",
      'when someone changed them since, the answer is 409 (read them again, re-apply your change). The version',
      'replaced is kept in the history (`…/data_types/history`) with who made it and when. Addresses are the',
      "function's own and its name stays (rename it with `POST /v2/functions/rename/{function_id}`); `type`, the",
      "declaration, is kept as sent. Structures, enumerations and typedefs in `func_deps` become the analysis's",
      'definitions of those types, for every function using them. Without `func_types` only the dependencies',
      'change. A later generation never replaces this version (its own result is kept beside it), nor does a',
      `re-analysis. ${OWNER_ONLY} ${FUNCTION_IN_ANALYSIS}`,
    ].join('\n'),
    examples: { prototype: { summary: 'Name the arguments, point at a structure', value: EDIT_EXAMPLE } },
  },
  getFunctionDataTypesHistory: {
    summary: "List the earlier versions of a function's data types",
    description: [
      "A Binlens extension: every version of the function's data types that an edit replaced, oldest first, with",
      'who made it (`changed_by`, null for a generation) and when, and who replaced it and when. The current',
      `version is \`GET …/data_types\`. ${SHAPE} ${FUNCTION_IN_ANALYSIS}`,
    ].join('\n'),
  },
  generateFunctionDataTypesForFunctions: {
    summary: 'Generate data types for functions of any analyses',
    description: [
      'As `POST /v2/analyses/{analysis_id}/functions/data_types` for functions of several analyses: each',
      `analysis gets its job; the answer is each function's status. ${STATUSES} 409 when one of the analyses is`,
      `not \`Complete\` (nothing is queued). ${FUNCTION_HIDDEN}`,
    ].join('\n'),
    examples: { two: { summary: 'Functions of two analyses', value: { function_ids: [1201, 3407] } } },
  },
  listFunctionDataTypesForFunctions: {
    summary: 'List data types of functions of any analyses',
    description: [
      'Status, data types and version of each function of `function_ids` (repeat the parameter), in that order;',
      `without it the list is empty. ${SHAPE} ${FUNCTION_HIDDEN}`,
    ].join('\n'),
  },
  v3ListAnalysisDataTypes: {
    summary: "List an analysis's data types (/v3)",
    description: [
      "The analysis's type table: one entry (`data_type_id`) per C spelling its functions' data types use",
      '(`struct stream`, `char *`, `int32_t`), filled by generation (`source_type` `SYSTEM`), and the types its',
      'owner defined (`USER`). Filter by `kind`, `namespace`, `source_type` (each repeatable) and `search` (part',
      'of the name); sort by `order_by` (`name`, the default, or `size`) and `order`; page with `offset` and',
      '`limit` (1–1000, default 100); `total_count` counts every entry that passes the filters. `definition` is',
      'per kind: `members` keyed by offset in hex (STRUCT, UNION) or name → value (ENUM), `type` (TYPEDEF,',
      `POINTER, FUNCTION_DEFINITION), \`type\` and \`count\` (ARRAY), \`type\` and \`bit_size\` (BITFIELD).`,
      `${HIDDEN_IS_MISSING} ${V3_ERRORS}`,
    ].join('\n'),
  },
  v3CreateAnalysisDataTypes: {
    summary: 'Define data types in an analysis (/v3)',
    description: [
      "Adds types to the analysis's table and answers them (201). A STRUCT, UNION or ENUM is named with its",
      'keyword, as C and signatures spell it (`stream` becomes `struct stream`); a definition has exactly the',
      'fields of its kind (see the list operation). 409 when a name is taken (nothing is added).',
      `${OWNER_ONLY} ${HIDDEN_IS_MISSING} ${V3_ERRORS}`,
    ].join('\n'),
    examples: {
      structure: {
        summary: 'A structure',
        value: {
          data_types: [
            {
              kind: 'STRUCT',
              name: 'stream',
              size: 16,
              definition: {
                members: {
                  '0x0': { name: 'fd', offset: 0, type: 'int32_t', size: 4 },
                  '0x8': { name: 'buffer', offset: 8, type: 'char *', size: 8 },
                },
              },
            },
          ],
        },
      },
    },
  },
  v3UpdateAnalysisDataTypes: {
    summary: "Redefine an analysis's data types (/v3)",
    description: [
      'Replaces each listed type (by `data_type_id`) with the entry given, as a `USER` type; every function using',
      'it sees the new definition. A type functions use keeps its name (409: their data types spell it), as does',
      `a name another type has (409); an id not in the table is 404. All or nothing. ${OWNER_ONLY} ${V3_ERRORS}`,
    ].join('\n'),
  },
  v3ListDataTypeFunctions: {
    summary: 'List the functions using a data type (/v3)',
    description: [
      "The analysis's functions whose data types use the type, by function id, `page_size` at a time (1–1000,",
      'default 100); pass `next_after_function_id` as `after_function_id` for the next page (absent on the last).',
      `A type not in the analysis's table is 404. ${HIDDEN_IS_MISSING} ${V3_ERRORS}`,
    ].join('\n'),
  },
  v3UpdateFunctionSignature: {
    summary: "Change a function's signature (/v3)",
    description: [
      "A new version of the function's data types with this prototype: `parameters` by `ordinal` (0, 1, … each",
      "once), each type a `data_type_id` of the analysis's table, `bit_length` its width; what a parameter leaves",
      'out it keeps from the current one at that ordinal, and a missing return type or convention stays;',
      '`parameters: null` keeps them all. `storage` is accepted and not stored (it follows from the convention).',
      `The version replaced goes to the history, as with the /v2 PUT. ${OWNER_ONLY} ${V3_ERRORS}`,
    ].join('\n'),
    examples: {
      two: {
        summary: 'Two parameters, by type id',
        value: {
          parameters: [
            { ordinal: 0, name: 'count', data_type_id: 7 },
            { ordinal: 1, name: 'out', data_type_id: 12 },
          ],
          return_data_type_id: 7,
        },
      },
    },
  },
  v3CopyFunctionSignatures: {
    summary: 'Copy function signatures (/v3)',
    description: [
      "Gives each target (a function of this analysis) the source's return type, parameters and convention —",
      'for instance from a similar function of another analysis found by matching. Targets keep their names and',
      "stack variables; the structures, unions, enumerations and typedefs the sources use join this analysis's",
      'table where it has no type of that name. Sources may be functions of any analysis the caller can see, and',
      'need data types (409 otherwise). Answers the new signatures and the types they use.',
      `${OWNER_ONLY} ${V3_ERRORS}`,
    ].join('\n'),
    examples: {
      one: {
        summary: 'From a matched function',
        value: { copies: [{ source_function_id: 3407, target_function_id: 1201 }] },
      },
    },
  },
  v3ListFunctionSignatures: {
    summary: 'Get signatures of many functions (/v3)',
    description: [
      '`function_ids` separated by commas (`1201,1202`; at most 10 000), of any analyses the caller can see: each',
      "function's signature (`has_signature: false` without data types) with its analysis, in that order; with",
      '`include_data_types=true` also the types they use, grouped by analysis.',
      `${FUNCTION_HIDDEN} ${V3_ERRORS}`,
    ].join('\n'),
  },
} satisfies Record<string, OperationDoc>;
