// The document's introduction (OpenAPI `info`) and its groups (top-level `tags`): what a newcomer reads first
// at /docs.

/** The reference's tags that Binlens publishes, in the reference's order, with what each group holds. */
export const API_TAGS = [
  { name: 'AnalysesComments', description: 'Comments on an analysis: anyone who can see it may comment.' },
  {
    name: 'AnalysesCore',
    description: 'Upload a sample, analyse it, follow the analysis, and change or delete it.',
  },
  {
    name: 'AnalysesDynamicExecution',
    description: 'What the sample did when run in the emulator: processes, network, behaviours with ATT&CK.',
  },
  {
    name: 'AnalysesResultsMetadata',
    description: 'What an analysis found: functions, tags, capabilities, SBOM, vulnerabilities, the PDF report.',
  },
  { name: 'AnalysesXRefs', description: 'Cross-references at an address.' },
  { name: 'AnalysisStages', description: "An analysis's stages as they start and finish, with progress." },
  { name: 'AuthenticationUsers', description: 'The account behind the API key.' },
  {
    name: 'Binaries',
    description: 'File facts about uploaded binaries, the binaries found inside them, and binary search (/v3).',
  },
  { name: 'Collections', description: 'Named sets of binaries, /v2 and /v3; matching filters may use them.' },
  { name: 'Config', description: 'Server settings clients read.' },
  {
    name: 'Firmware',
    description: 'Firmware images unpacked recursively and safely; the executables inside analysed as child binaries.',
  },
  {
    name: 'FunctionsAIDecompilation',
    description:
      "Functions' decompilation to C (asynchronously), with placeholders mapping its names and literals; " +
      'comments on its lines and ratings.',
  },
  {
    name: 'FunctionsCore',
    description:
      'One function: details, call graph, strings, blocks, capabilities. Similar functions and naming ' +
      'stripped ones (matching, auto-unstrip, ai-unstrip). Function search (/v3).',
  },
  {
    name: 'FunctionsDataTypes',
    description:
      "Functions' data types: generate them (asynchronously), read and edit them, with versions and history; " +
      "an analysis's type table and function signatures (/v3).",
  },
  { name: 'FunctionsRenamingHistory', description: 'Rename functions; every name a function has had.' },
  { name: 'Models', description: 'The models an analysis may run with.' },
  { name: 'Search', description: 'Find functions, binaries, collections and tags by name (/v2).' },
];

const DESCRIPTION = `
Binlens is an open, self-hostable binary-analysis service. It speaks the HTTP API of the reference
binary-analysis service (v3.67.0), so the reference's SDKs and disassembler plugins work against it unchanged.

## Authentication

Every operation needs an API key in the \`Authorization\` header, as it is (no \`Bearer\`):
\`Authorization: bl_…\`. An administrator makes keys with \`binlens users create <name> [--team NAME] [--admin]\`;
the first start of the server prints the \`admin\` user's key. On this page, press **Authorize** and paste
the key. A missing or unknown key answers 401, saying which.

## A first analysis

1. \`POST /v2/upload\` the file (form fields \`file\` and \`upload_file_type=BINARY\`): the answer has its \`sha_256_hash\`.
2. \`POST /v2/analyses\` with \`filename\` and that \`sha_256_hash\`; add \`analysis_config\` for capabilities, SBOM
   and vulnerabilities. The answer has the \`analysis_id\`.
3. Poll \`GET /v2/analyses/{analysis_id}/status\` until \`Complete\` (or \`Error\`: \`GET …/logs\` says why).
4. Read the results: \`…/functions\`, \`…/capabilities\`, \`…/tags\`, \`…/sbom\`, \`…/pdf\`; name stripped functions
   with \`POST …/functions/auto-unstrip\`; ask for data types with \`POST …/functions/data_types\` and poll
   \`GET …/functions/{function_id}/data_types\` until \`completed\`.

## Who sees what

An analysis is \`PRIVATE\` (its owner and the owner's team) or \`PUBLIC\` (everyone). One the caller cannot see
answers 404, as if it did not exist. Changing an analysis (update, delete, tags, logs, strings, requeue,
renames, unstripping, data-type edits) is for its owner: anyone else who can see it gets 403. Collections have
their own scopes (\`PRIVATE\`, \`TEAM\`, \`PUBLIC\`, \`PROTECTED\`).

## Responses and errors

\`/v2\` answers in an envelope, \`{status, data, message, errors, meta}\`; paged lists carry
\`meta.pagination\`. Function matching and unstripping answer bare bodies, as the reference does; \`/v3\`
answers bare bodies and its errors are \`{error: {code, message, trace_id, detail}}\`. A \`/v2\` error has
\`status: false\`, the reference's fixed \`message\` and \`errors: [{code, message}]\`. Statuses: 400 (no model
fits the binary; a comment operation failed), 401 (no valid key), 403 (not the owner), 404 (missing or not
visible), 409 (results not ready or not generated, a string already at an address), 413 (file over the
upload limit), 422 (invalid request), 503 (database busy: retry after \`Retry-After\`).

## Binlens extensions

Optional additions, so clients that ignore unknown fields see the reference's shapes:

- \`meta.detail\` on errors says what failed; on a 422, \`meta.fields\` names the failing field and why;
- \`progress\` (percent done) on \`GET …/status\` and on each event of \`GET /v2/analysis-stages/{analysis_id}\`;
- \`GET /v2/analyses/{analysis_id}/sbom/cyclonedx\`: the SBOM as a CycloneDX 1.5 document;
- \`GET /v2/analyses/{analysis_id}/events\`: the analysis's progress as server-sent events, as it happens;
- capability tags with a maliciousness \`score\` and their \`functions\` in \`GET …/tags\`;
- \`embedding\` on each function of the deprecated \`GET …/functions/list\`;
- \`GET /v2/analyses/{analysis_id}/functions/{function_id}/data_types/history\`: earlier versions of a function's
  data types;
- five more models (32-bit ARM, MIPS32, macOS) in \`GET /v2/models\`.

## Compatibility parameters

Many operations take the query parameters \`endpoint_url\`, \`local_cache_dir\`, \`local_cache_max_size_mb\`,
\`customer_samples_bucket\`, \`firmware_samples_bucket\` and \`max_retry_attempts\`: server settings that leaked
into the reference's SDKs. Binlens accepts them so those clients work, and ignores them (the operator
configures storage), except \`max_retry_attempts\`, which on create and requeue bounds the job's retries.
The \`X-RevEng-Application\` and \`X-Service-Application\` headers are accepted and ignored too.

The reference's dynamic-execution, AI-decompilation, firmware and external-source operations are not served,
so they are not listed here.
`.trim();

export const API_INFO = {
  title: 'Binlens API',
  // The wire contract's version: clients compare it with the reference's.
  version: '3.67.0',
  description: DESCRIPTION,
};
