import { Ajv, type Options } from 'ajv';
import addFormatsModule from 'ajv-formats';
import type { FastifySchemaCompiler } from 'fastify';

// ajv-formats is CommonJS; its default export arrives wrapped under ESM interop.
const addFormats = addFormatsModule as unknown as typeof addFormatsModule.default;

function createAjv(coerceTypes: Options['coerceTypes'], allErrors: boolean): Ajv {
  const ajv = new Ajv({ coerceTypes, useDefaults: true, removeAdditional: true, allErrors, strict: false });
  addFormats(ajv);
  for (const f of ['int64', 'bigint', 'binary']) ajv.addFormat(f, true);
  return ajv;
}

/**
 * Bounds what a request may carry to what both databases store alike. Integers arrive as JS numbers and are
 * kept in BIGINT columns: past ±2^53 they lose precision (past 2^63 PostgreSQL refuses them with a 500), so
 * every integer is bounded to the safe range. PostgreSQL text cannot hold U+0000 (SQLite can), so no string
 * may contain it. Applied to a copy: the published OpenAPI document keeps the contract's schemas as they are.
 */
function storable(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(storable);
  if (schema === null || typeof schema !== 'object') return schema;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(schema)) out[k] = storable(v);
  if (out.type === 'integer') {
    out.minimum ??= Number.MIN_SAFE_INTEGER;
    out.maximum ??= Number.MAX_SAFE_INTEGER;
  }
  if (out.type === 'string') out.pattern ??= '^[^\\u0000]*$';
  return out;
}

/**
 * Request validation as Fastify does it by default for the URL and headers (coerce query strings and lone
 * values into arrays, apply defaults), plus the contract's integer formats (int64, bigint) and multipart's
 * `binary`. JSON bodies are typed already, so they are not coerced: `"tags": [1]` or `"filename": null` is
 * a validation error, as in the reference, not the strings "1" and "".
 */
function createValidatorCompiler(allErrors = false): FastifySchemaCompiler<unknown> {
  const url = createAjv('array', allErrors);
  const body = createAjv(false, allErrors);
  return ({ schema, httpPart }) =>
    (httpPart === 'body' ? body : url).compile(storable(schema) as object) as ReturnType<
      FastifySchemaCompiler<unknown>
    >;
}

/** For bodies the route parses itself (multipart streams): documented in the schema, not validated. */
export const skipBodyValidation: FastifySchemaCompiler<unknown> = () => () => true;

export const validatorCompiler = createValidatorCompiler();

/** For /v3 routes, whose error `detail` names every failing field, not only the first. */
export const allErrorsValidatorCompiler = createValidatorCompiler(true);
