// One registry of coded errors: each has an HTTP status, a wire code and a message template.
// Errors are raised where they arise and mapped to the API envelope (or CLI exit code) at the edge.

export interface ErrorSpec<P extends unknown[]> {
  status: number;
  /** Value of `errors[].code` on the wire; null when the contract wants an empty `errors` array. */
  wireCode: string | null;
  message: (...params: P) => string;
}

/** One thing a request got wrong: the field (`body.tags`, `querystring.limit`, `file`) and why. */
export interface FieldProblem {
  field: string;
  reason: string;
}

export class AppError extends Error {
  /** What failed and why, for error bodies that carry it (the /v3 body's `detail`, the /v2 `meta.detail`). */
  detail: string | undefined;
  /** The same, field by field, when the failure is in the request's fields. */
  fields: FieldProblem[] | undefined;

  constructor(
    readonly key: string,
    readonly status: number,
    readonly wireCode: string | null,
    message: string,
  ) {
    super(message);
    this.name = 'AppError';
  }

  withDetail(detail: string): this {
    this.detail = detail;
    return this;
  }

  withFields(fields: FieldProblem[]): this {
    this.fields = fields;
    this.detail = fields.map((f) => `${f.field}: ${f.reason}`).join('; ');
    return this;
  }
}

type Factories<T extends Record<string, ErrorSpec<never[]>>> = {
  [K in keyof T]: T[K] extends ErrorSpec<infer P> ? (...params: P) => AppError : never;
};

export function defineErrors<T extends Record<string, ErrorSpec<never[]>>>(specs: T): Factories<T> & { specs: T } {
  const out: Record<string, unknown> = { specs };
  for (const [key, spec] of Object.entries(specs)) {
    out[key] = (...params: never[]) => new AppError(key, spec.status, spec.wireCode, spec.message(...params));
  }
  return out as Factories<T> & { specs: T };
}

const spec = <P extends unknown[]>(status: number, wireCode: string | null, message: (...p: P) => string) =>
  ({ status, wireCode, message }) as ErrorSpec<never[]> & ErrorSpec<P>;

export const errors = defineErrors({
  validation: spec(422, 'validation_error', () => 'Request validation error'),
  unauthorized: spec(
    401,
    '401',
    (why: string) => `${why}: send your API key in the Authorization header (binlens users create makes one)`,
  ),
  routeNotFound: spec(404, '404', (method: string, url: string) => `Route ${method} ${url} not found`),
  resourceNotFound: spec(404, '404', () => 'Resource not found'),
  analysisNotFound: spec(404, '404', (id: number) => `Analysis with ID ${id} could not be found`),
  functionNotFound: spec(404, '404', (id: number) => `Function with ID ${id} could not be found`),
  collectionNotFound: spec(404, '404', (id: number) => `Collection with ID ${id} could not be found`),
  binaryNotFound: spec(404, '404', (id: number) => `Binary with ID ${id} could not be found`),
  modelNotFound: spec(404, '404', (name: string) => `Model ${name} could not be found`),
  nameHistoryNotFound: spec(
    404,
    '404',
    (id: number, functionId: number) => `Name history entry ${id} of function ${functionId} could not be found`,
  ),
  someAnalysesNotFound: spec(404, '404', () => 'Not all analyses could be found'),
  forbidden: spec(403, '403', () => 'You do not have permission to access this resource'),
  noModel: spec(400, null, (why: string) => `No appropriate model could be found for this binary: ${why}`),
  commentCreateFailed: spec(400, null, () => 'Failed to create comment'),
  commentUpdateFailed: spec(400, null, () => 'Failed to update comment'),
  commentDeleteFailed: spec(400, null, () => 'Failed to delete comment'),
  resultNotReady: spec(
    409,
    '409',
    (id: number, status: string) => `Analysis ${id} is ${status}: its results are available once it is Complete`,
  ),
  notGenerated: spec(
    409,
    '409',
    (what: string, id: number, flag: string) =>
      `${what} of analysis ${id} were not generated: create an analysis of the binary (POST /v2/analyses) ` +
      `with analysis_config.${flag} set to true`,
  ),
  dynamicExecutionNotRequested: spec(
    409,
    '409',
    (id: number) =>
      `Analysis ${id} was not run in the sandbox: create an analysis of the binary (POST /v2/analyses) with ` +
      'analysis_config.sandbox_config.enabled set to true',
  ),
  dynamicExecutionNotReady: spec(409, '409', (id: number, status: string, why: string | null) =>
    status === 'ERROR'
      ? `The dynamic execution of analysis ${id} could not run: ${why ?? 'no reason recorded'}`
      : `The dynamic execution of analysis ${id} is ${status}: its results are there once its status is SUCCESS`,
  ),
  noVulnerabilityData: spec(
    409,
    '409',
    () =>
      'The vulnerability database is empty, so nothing can be checked: an administrator loads OSV records with ' +
      '`binlens vulns import <dir>`',
  ),
  stringExists: spec(409, '409', (vaddr: number) => `A string already exists at vaddr ${vaddr}`),
  dataTypesVersionConflict: spec(
    409,
    '409',
    (functionId: number, sent: number, current: number) =>
      `The data types of function ${functionId} are at version ${current}, not ${sent}: someone changed them ` +
      'since you read them; read them again (GET …/data_types), re-apply your change and send that data_types_version',
  ),
  noDataTypes: spec(
    409,
    '409',
    (functionId: number) =>
      `Function ${functionId} has no data types to copy: generate them first ` +
      '(POST /v2/analyses/{analysis_id}/functions/data_types)',
  ),
  noDecompilation: spec(
    409,
    '409',
    (functionId: number) =>
      `Function ${functionId} has no current decompilation to take types from: decompile it first ` +
      '(POST /v2/functions/{function_id}/ai-decompilation) and wait for success',
  ),
  dataTypeExists: spec(409, '409', (name: string) => `A data type named ${name} already exists in this analysis`),
  dataTypeInUse: spec(
    409,
    '409',
    (name: string, functions: number) =>
      `Data type ${name} is used by ${functions} function(s), whose data types spell it by name: it cannot be renamed`,
  ),
  dataTypeNotFound: spec(
    404,
    '404',
    (id: number, analysisId: number) => `Data type with ID ${id} could not be found in analysis ${analysisId}`,
  ),
  uploadTooLarge: spec(413, '413', (max: number) => `File exceeds the maximum upload size of ${max} bytes`),
  bodyTooLarge: spec(
    413,
    '413',
    (max: number) => `Request body exceeds ${max} bytes, the limit for JSON requests; files go through POST /v2/upload`,
  ),
  noActiveRun: spec(404, 'NO_ACTIVE_RUN', (what: string) => `No Active Run: no ${what} is running for this analysis`),
  busy: spec(503, '503', () => 'The database is busy: retry the request in a moment'),
  internal: spec(500, '500', () => 'Internal server error'),
});

export type ErrorKey = keyof typeof errors.specs;
