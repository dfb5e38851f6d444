// The words of the published API description, in one place: a summary and a description of every operation
// (and request-body examples for the main ones), keyed by operationId; the document's introduction and its
// groups; the /docs page's branding. Routes reach their texts through `operation()` (routes/schema.ts),
// whose operationId is an `OperationId`: a route without texts here does not compile, and the contract
// test fails on any published operation without a summary or a description. Imports nothing.
import { aiDecompilationDocs } from './ai-decompilation.js';
import { analysesDocs } from './analyses.js';
import { collectionsDocs } from './collections.js';
import { dataTypesDocs } from './data-types.js';
import { dynamicExecutionDocs } from './dynamic-execution.js';
import { firmwareDocs } from './firmware.js';
import { functionsDocs } from './functions.js';
import type { OperationDoc } from './operation-doc.js';
import { platformDocs } from './platform.js';
import { resultsDocs } from './results.js';

export { DOCS_UI } from './branding.js';
export { API_INFO, API_TAGS } from './overview.js';
export type { BodyExample, OperationDoc } from './operation-doc.js';

export const OPERATION_DOCS = {
  ...analysesDocs,
  ...resultsDocs,
  ...dynamicExecutionDocs,
  ...firmwareDocs,
  ...functionsDocs,
  ...collectionsDocs,
  ...dataTypesDocs,
  ...aiDecompilationDocs,
  ...platformDocs,
} satisfies Record<string, OperationDoc>;

export type OperationId = keyof typeof OPERATION_DOCS;

/** What each response status means, shown beside it in /docs (the schema says the shape). */
export const RESPONSE_TEXT: Record<number, string> = {
  200: 'OK',
  201: 'Created',
  204: 'Done, no body',
  400: 'Refused: `message` says why',
  403: "The caller can see the resource but is not its owner (or the comment's author)",
  404: 'Not found, or not visible to the caller',
  409: 'Not possible yet or any more: `message` says why and what to do',
  413: 'The file is larger than the server accepts (`max_file_size_bytes` in `GET /v2/config`)',
  422: 'Invalid request: the error names the failing field and why (`meta.fields`, `meta.detail`; /v3: `error.detail`)',
};
