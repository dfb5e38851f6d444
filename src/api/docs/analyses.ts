// Texts of the AnalysesCore, AnalysisStages and AnalysesComments operations: a sample's way from upload to a
// finished analysis, and what its owner may change on it.
import { EXAMPLE_SHA256, HIDDEN_IS_MISSING, OWNER_ONLY, type OperationDoc } from './operation-doc.js';

export const analysesDocs = {
  uploadFile: {
    summary: 'Upload a file to analyse',
    description: [
      'Stores a sample and answers its `sha_256_hash`, which `POST /v2/analyses` then names. The body is a',
      'multipart form: the file as `file` and its kind as `upload_file_type` (`BINARY` for a sample to analyse,',
      "`DEBUG` for a debug file whose symbols name a stripped binary's functions through `debug_hash`).",
      '',
      '```sh',
      'curl -H "Authorization: $KEY" -F upload_file_type=BINARY -F file=@/bin/ls $BINLENS/v2/upload',
      '```',
      '',
      'The file is streamed to storage and identified (format, architecture) on the way, so create can refuse',
      'a binary no model analyses at once. Content is stored once per SHA-256; uploading the same bytes again',
      "is accepted. A file over the server's limit (`max_file_size_bytes` in `GET /v2/config`) answers 413;",
      'a form without `file`, with a misspelt field or a bad `upload_file_type` answers 422 naming it.',
      '`force_overwrite` and `packed_password` are accepted and ignored: Binlens unpacks nothing.',
    ].join('\n'),
    examples: {
      binary: { summary: 'A sample to analyse (send the file as `file`)', value: { upload_file_type: 'BINARY' } },
      debug: { summary: 'A debug file with symbols, for `debug_hash`', value: { upload_file_type: 'DEBUG' } },
    },
  },
  createAnalysis: {
    summary: 'Analyse an uploaded file',
    description: [
      'Queues an analysis of a file the caller uploaded (`sha_256_hash` from `POST /v2/upload`) and answers',
      '201 with its `analysis_id` and `binary_id`; follow it with `GET /v2/analyses/{analysis_id}/status`.',
      '',
      "- `analysis_scope`: `PRIVATE` (default: the owner and the owner's team) or `PUBLIC` (everyone).",
      '- `analysis_config`: `generate_capabilities`, `generate_sbom` and `generate_cves` (which implies the',
      '  SBOM) make the capabilities, SBOM and vulnerabilities; without them those results answer 409.',
      '  `sandbox_config.enabled` also runs the sample in the emulator (its `command_line_args` as arguments;',
      '  Linux x86-64 and AArch64 ELF today): the dynamic-execution views. The third-party switches are stored',
      '  and do nothing: Binlens makes no outside calls.',
      '- `binary_config` (`isa`, `platform`, `file_format`): for raw blobs (firmware, shellcode); `isa` `arm`',
      '  is AArch64. `symbols`: a base address and function boundaries from a disassembler.',
      '- `debug_hash`: the hash of a file you uploaded with symbols (an ELF with a symbol table, usually sent',
      "  as `DEBUG`) that name the stripped binary's functions; the log says when it could not be used.",
      '',
      'A hash the caller never uploaded answers 404 (`meta.detail` names it). No model for the binary answers',
      '400 saying what was detected (see `GET /v2/models`). `max_retry_attempts` bounds how often a failing',
      'job is retried (0–10, default 5); the other tuning parameters and the application headers are accepted',
      'and ignored.',
    ].join('\n'),
    examples: {
      minimal: {
        summary: 'Functions, strings and names only',
        value: { filename: 'ls', sha_256_hash: EXAMPLE_SHA256 },
      },
      results: {
        summary: 'With capabilities, SBOM and vulnerabilities, public and tagged',
        value: {
          filename: 'dropper.exe',
          sha_256_hash: EXAMPLE_SHA256,
          analysis_scope: 'PUBLIC',
          tags: [{ name: 'campaign-7' }],
          analysis_config: { generate_capabilities: true, generate_sbom: true, generate_cves: true },
        },
      },
      raw: {
        summary: 'A raw AArch64 firmware image loaded at 0x80000',
        value: {
          filename: 'firmware.bin',
          sha_256_hash: EXAMPLE_SHA256,
          binary_config: { isa: 'arm', platform: 'linux', file_format: 'blob' },
          symbols: { base_address: 524288 },
        },
      },
    },
  },
  listAnalyses: {
    summary: 'List analyses',
    description: [
      "Analyses of the chosen workspaces, newest first by default: `personal` (default: the caller's own),",
      "`team` (the caller's team members') and `public` (every `PUBLIC` one); several combine as a union.",
      'Filters: `status`, `model_name`, `usernames`, `sha256_hash`, and `search_term` (part of the name or',
      'hash). Paged by `limit` (5–50, default 20) and `offset`; sorted by `order_by` (`created`, `name`,',
      '`size`) and `order`.',
    ].join('\n'),
  },
  lookupBinaryId: {
    summary: 'Find the analysis of a binary',
    description: [
      'Answers the `analysis_id` that goes with a `binary_id` (each analysis has its own binary id, as',
      'collections and searches list them). A binary of an analysis the caller cannot see answers 404.',
    ].join('\n'),
  },
  bulkDeleteAnalyses: {
    summary: 'Delete several analyses',
    description: [
      'Deletes every listed analysis with its results, or none: 404 when any is missing or not visible to',
      "the caller, 403 when any is someone else's. Deleted analyses leave the collections they were in.",
    ].join('\n'),
    examples: { two: { summary: 'Two analyses of the caller', value: { analysis_ids: [12, 13] } } },
  },
  bulkAddAnalysisTags: {
    summary: 'Tag several analyses',
    description: [
      'Adds the tags to each listed analysis the caller owns (tags it has already are kept) and answers one',
      "result per analysis: added, or the error for that one (missing, not visible, not the caller's). The",
      'request as a whole succeeds.',
    ].join('\n'),
    examples: { campaign: { summary: 'Tag two analyses', value: { analysis_ids: [12, 13], tags: ['campaign-7'] } } },
  },
  updateAnalysis: {
    summary: 'Rename an analysis or change its scope',
    description: [
      `Changes \`binary_name\` and/or \`analysis_scope\` (null or absent leaves a field as it is) and answers the`,
      `analysis's details. ${OWNER_ONLY} ${HIDDEN_IS_MISSING}`,
    ].join('\n'),
    examples: {
      both: {
        summary: 'Rename and make it visible to everyone',
        value: { binary_name: 'dropper (unpacked).exe', analysis_scope: 'PUBLIC' },
      },
      rename: { summary: 'Rename only', value: { binary_name: 'dropper (unpacked).exe' } },
    },
  },
  deleteAnalysis: {
    summary: 'Delete an analysis',
    description: [
      'Deletes the analysis, its functions, strings, results and comments; its binary leaves every',
      `collection. ${OWNER_ONLY} ${HIDDEN_IS_MISSING}`,
    ].join('\n'),
  },
  updateAnalysisTags: {
    summary: "Replace an analysis's tags",
    description: [
      "Replaces the analysis's own tags with the list (an empty list removes them) and answers the tags it",
      `now has. Capability tags (see \`GET …/tags\`) are not touched. ${OWNER_ONLY}`,
    ].join('\n'),
    examples: { replace: { summary: 'Two tags', value: { tags: ['campaign-7', 'triaged'] } } },
  },
  getAnalysisBasicInfo: {
    summary: "Get an analysis's basic information",
    description: [
      'Name, size, SHA-256, binary id, model, owner, scope, creation time, base address, whether it has debug',
      `information and how many functions were found (0 until it is \`Complete\`). ${HIDDEN_IS_MISSING}`,
    ].join('\n'),
  },
  getAnalysisStatus: {
    summary: "Get an analysis's status",
    description: [
      'The status: `Uploaded`, `Queued`, `Processing`, then `Complete` or `Error` (`GET …/logs` says why).',
      'Poll it after create or requeue; results are there once it is `Complete`.',
      '',
      '**Binlens extension:** `progress`, the percent done (100 when `Complete`), absent until the engine',
      `first reports. ${HIDDEN_IS_MISSING}`,
    ].join('\n'),
  },
  getAnalysisParams: {
    summary: 'Get the parameters an analysis ran with',
    description: [
      'Model, architecture, format, binary type, whether it is dynamically linked, size and `debug_hash`:',
      `as detected at upload, then as the analysis found them. ${HIDDEN_IS_MISSING}`,
    ].join('\n'),
  },
  getAnalysisLogs: {
    summary: "Read an analysis's log",
    description: [
      "The analysis's log as one text, a line per event, each starting with its time: the stages as they",
      'run (`Recovering functions (8%)`), what was used or skipped, and on `Error` the reason, naming the',
      `server setting that would raise a limit it hit. ${HIDDEN_IS_MISSING}`,
    ].join('\n'),
  },
  insertAnalysisLog: {
    summary: "Add a line to an analysis's log",
    description: `Appends \`log\` (1 to 16 384 characters) to the analysis's log and answers 201. ${OWNER_ONLY}`,
    examples: { note: { summary: 'A note of the caller', value: { log: 'Unpacked with upx -d before upload' } } },
  },
  requeueAnalysis: {
    summary: 'Analyse again',
    description: [
      'Runs the analysis again on the same sample and settings: its previous results are dropped and any',
      'running job ends. Answers 201; poll the status as after create. `model_name` picks another model (400',
      'when it is not one), `tags` are added, `priority` orders the job in the shared queue (clamped to',
      '−100..0, up to 100 for an administrator). `max_retry_attempts` bounds retries as on create;',
      `\`command_line_args\`, \`essential\` and \`no_cache\` are accepted and ignored. ${OWNER_ONLY}`,
      HIDDEN_IS_MISSING,
    ].join('\n'),
    examples: {
      again: { summary: 'The same model', value: {} },
      model: {
        summary: 'Another model, behind other jobs',
        value: { model_name: 'binnet-0.7-x86-64-linux', priority: -10 },
      },
    },
  },
  putAnalysisStrings: {
    summary: 'Add strings to an analysis',
    description: [
      'Adds strings at virtual addresses, with their source (`USER`, `AI_AGENT`, `SYSTEM`), and answers 201.',
      'The batch is refused with 409, nothing added, when a string already exists at any of the addresses.',
      OWNER_ONLY,
    ].join('\n'),
    examples: {
      decoded: {
        summary: 'A string decoded by hand',
        value: { strings: [{ value: 'cdn.example.net', vaddr: 4210688, source: 'USER' }] },
      },
    },
  },
  getAnalysisFunctionMap: {
    summary: "Map an analysis's function ids, addresses and names",
    description: [
      "Three maps over the analysis's functions: `function_map` (function id → address),",
      '`inverse_function_map` (address → function id) and `name_map` (address → name). Keys are decimal',
      `strings. ${HIDDEN_IS_MISSING}`,
    ].join('\n'),
  },
  v3SearchTags: {
    summary: 'Search tags (/v3)',
    description: [
      'Tags whose name contains `partial_name` (required; case-insensitive), in use on an analysis or a',
      'collection the caller can see, by name. Paged by `limit` (1–100, default 10) and `offset`; the body',
      'is `{results, page_number, page_size, has_next_page}`. Errors are /v3 bodies.',
    ].join('\n'),
  },
  getAnalysisStages: {
    summary: "Follow an analysis's stages",
    description: [
      'The stage events so far, oldest first: each `stage` (`ANALYSIS`: loading and function recovery,',
      '`INFERENCE`: instructions and function vectors, `POST_PROCESSING`: capabilities and SBOM) with its',
      '`status` (`QUEUED`, `STARTED`, `FINISHED`, `ERROR`) and time. A failure is an `ERROR` of the stage',
      'that was running.',
      '',
      `**Binlens extension:** \`progress\` on each event, the analysis's percent done then. ${HIDDEN_IS_MISSING}`,
    ].join('\n'),
  },
  streamAnalysisEvents: {
    summary: "Follow an analysis's progress as server-sent events",
    description: [
      '**Binlens extension.** What polling `GET …/status`, `GET /v2/analysis-stages/{analysis_id}` and',
      '`GET …/logs` would show, as it happens, on one `text/event-stream`: the events so far, then each new',
      'one in the order it was written — `stage` (as the stages list), `log` (`{timestamp, line}`, e.g.',
      '`Recovering functions (8%)`) and `status` when it changes — with `: keep-alive` comments when quiet.',
      'The stream ends once the analysis is `Complete` or in `Error`.',
      '',
      '```sh',
      'curl -N -H "Authorization: $KEY" $BINLENS/v2/analyses/1/events',
      '```',
      '',
      HIDDEN_IS_MISSING,
    ].join('\n'),
  },
  getAnalysisComments: {
    summary: 'List comments on an analysis',
    description: `Every comment on the analysis, with author id and times. ${HIDDEN_IS_MISSING}`,
  },
  createAnalysisComment: {
    summary: 'Comment on an analysis',
    description: [
      'Anyone who can see the analysis may comment; answers 201 with the comment. Empty (blank) content or',
      `more than 10 000 characters answers 400. ${HIDDEN_IS_MISSING}`,
    ].join('\n'),
    examples: {
      note: { summary: 'A finding', value: { content: 'The function at 0x401a30 decrypts the configuration.' } },
    },
  },
  updateAnalysisComment: {
    summary: 'Edit a comment',
    description: [
      "Replaces the comment's content. Author only: anyone else gets 403. A comment that does not exist, or",
      'blank or over-long content, answers 400.',
    ].join('\n'),
    examples: { edit: { summary: 'New wording', value: { content: 'It decrypts the configuration with RC4.' } } },
  },
  deleteAnalysisComment: {
    summary: 'Delete a comment',
    description: 'Deletes the comment. Author only: anyone else gets 403. A comment that does not exist answers 400.',
  },
} satisfies Record<string, OperationDoc>;
