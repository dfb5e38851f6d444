/** A named request-body example, published as an OpenAPI Example Object (Swagger UI offers them in a list). */
export interface BodyExample {
  summary: string;
  value: unknown;
}

/** What /docs and /openapi.json say about one operation. */
export interface OperationDoc {
  /** A short imperative line: the operation's title in /docs. */
  summary: string;
  /** Markdown: what it returns or does, who may call it, the errors worth knowing, paging, Binlens extensions. */
  description: string;
  /** Request-body examples by name; each must pass the operation's own body validation (the contract test checks). */
  examples?: Record<string, BodyExample>;
}

// Sentences many operations share, kept in one place so they read the same everywhere.

/** Visibility (docs/decisions.md, "Visibility"): what the caller may not see does not exist for them. */
export const HIDDEN_IS_MISSING = 'An analysis the caller cannot see answers 404, as if it did not exist.';
export const FUNCTION_HIDDEN =
  'A function of an analysis the caller cannot see answers 404, like one that does not exist.';
export const OWNER_ONLY = 'Owner only: anyone else who can see the analysis gets 403.';
/** Capabilities, SBOM, vulnerabilities and the PDF (UnderstandingService). */
export const NOT_READY = '409 while the analysis is not `Complete` (also after `Error`): the message gives its status.';
export const V3_ERRORS =
  'Errors are /v3 bodies, `{error: {code, message, trace_id, detail}}`; a 422 names every failing field in `detail`.';

/** An example SHA-256, the same in every example so they read as one story. */
export const EXAMPLE_SHA256 = '9b1f2a5f5c0e4d3b8a7c6e5d4f3a2b1c0d9e8f7a6b5c4d3e2f1a0b9c8d7e6f5a';
