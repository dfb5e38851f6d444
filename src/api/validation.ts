import { Ajv, type Options } from 'ajv';
import addFormatsModule from 'ajv-formats';
import type { FastifySchemaCompiler } from 'fastify';

// ajv-formats is CommonJS; its default export arrives wrapped under ESM interop.
const addFormats = addFormatsModule as unknown as typeof addFormatsModule.default;

function createAjv(coerceTypes: Options['coerceTypes'], allErrors: boolean): Ajv {
  const ajv = new Ajv({ coerceTypes, useDefaults: true, allErrors, strict: false });
  addFormats(ajv);
  for (const f of ['int64', 'bigint', 'binary']) ajv.addFormat(f, true);
  return ajv;
}

/**
 * Longest text and longest list a request field may carry, by property name; every other string is bounded to
 * DEFAULT_MAX_LENGTH characters and every other list to DEFAULT_MAX_ITEMS items. Unbounded, one 15 MB analysis
 * name made every user's public list 15.7 MB; list sizes past a database's bound-parameter limit answered 500
 * at sizes that differed by database. These bounds are the same on both.
 */
const DEFAULT_MAX_LENGTH = 1024;
const DEFAULT_MAX_ITEMS = 1000;
const MAX_LENGTH: Record<string, number> = {
  content: 65_536, // a comment
  value: 65_536, // a string added to an analysis
  log: 16_384,
  description: 16_384,
  command_line_args: 4096,
  // Symbol names: C++ and Rust mangled names run to a few thousand characters.
  name: 4096,
  mangled_name: 4096,
  new_name: 4096,
  new_mangled_name: 4096,
  // C declarations and type spellings (data types): prototypes with many parameters run past 1 KiB.
  type: 4096,
  // /v3 signatures take function ids as one comma-separated text: 10 000 ids of up to 10 digits.
  function_ids: 110_000,
};
const MAX_ITEMS: Record<string, number> = {
  // A disassembler plugin sends every function it knows; the 16 MiB body limit bounds it first.
  function_boundaries: 500_000,
  strings: 10_000,
  function_ids: 10_000,
  functions: 10_000,
  binaries: 10_000,
  binary_ids: 10_000,
  tags: 100,
};

/** The bounds of one request field, for messages and tests. */
export const fieldBounds = (name: string) => ({
  maxLength: MAX_LENGTH[name] ?? DEFAULT_MAX_LENGTH,
  maxItems: MAX_ITEMS[name] ?? DEFAULT_MAX_ITEMS,
});

/**
 * Bounds what a request may carry to what both databases store alike. Integers arrive as JS numbers and are
 * kept in BIGINT columns: past ±2^53 they lose precision (past 2^63 PostgreSQL refuses them with a 500), so
 * every integer is bounded to the safe range. PostgreSQL text cannot hold U+0000 (SQLite can), so no string
 * may contain it. Texts and lists are bounded as above. In `closed` schemas (JSON bodies) an object takes no
 * keys it does not declare, unless it says otherwise. Applied to a copy: the published OpenAPI document keeps
 * the contract's schemas as they are.
 */
function storable(schema: unknown, closed: boolean, field = ''): unknown {
  if (Array.isArray(schema)) return schema.map((s) => storable(s, closed, field));
  if (schema === null || typeof schema !== 'object') return schema;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(schema)) {
    if (k === 'properties' && v !== null && typeof v === 'object')
      out[k] = Object.fromEntries(Object.entries(v).map(([name, sub]) => [name, storable(sub, closed, name)]));
    else out[k] = storable(v, closed, field);
  }
  // A misspelt key in a JSON body was silently dropped (and its default used instead): it is an error.
  if (closed && out.properties !== undefined) out.additionalProperties ??= false;
  const types = Array.isArray(out.type) ? out.type : [out.type];
  const bounds = fieldBounds(field);
  if (types.includes('integer')) {
    out.minimum ??= Number.MIN_SAFE_INTEGER;
    out.maximum ??= Number.MAX_SAFE_INTEGER;
  }
  if (types.includes('string')) {
    out.pattern ??= '^[^\\u0000]*$';
    out.maxLength ??= bounds.maxLength;
  }
  if (types.includes('array')) out.maxItems ??= bounds.maxItems;
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
  return ({ schema, httpPart }) => {
    if (httpPart === 'body') return body.compile(storable(schema, true) as object) as ValidateFn;
    return decimalIntegers(schema, url.compile(storable(schema, false) as object) as ValidateFn);
  };
}

type ValidateFn = ReturnType<FastifySchemaCompiler<unknown>> & { errors?: unknown };

const DECIMAL = /^-?\d+$/;
const isInteger = (s: unknown): boolean => {
  const t = (s as { type?: unknown } | null)?.type;
  return t === 'integer' || (Array.isArray(t) && t.includes('integer'));
};

/**
 * Ids and other integers in paths, query strings and headers are decimal digits only: coercion alone reads
 * `0x10` as 16 and `1e3` as 1000, so one resource had many spellings (and caches and logs disagreed).
 */
function decimalIntegers(schema: unknown, validate: ValidateFn): ValidateFn {
  const props = (schema as { properties?: Record<string, { type?: unknown; items?: unknown }> }).properties ?? {};
  const fields = Object.entries(props)
    .filter(([, s]) => isInteger(s) || isInteger(s.items))
    .map(([name]) => name);
  if (fields.length === 0) return validate;
  const checked = ((data: Record<string, unknown> | undefined) => {
    for (const field of fields) {
      const raw = data?.[field];
      for (const v of Array.isArray(raw) ? raw : [raw]) {
        if (typeof v === 'string' && !DECIMAL.test(v)) {
          const params = { pattern: DECIMAL.source };
          checked.errors = [
            {
              instancePath: `/${field}`,
              schemaPath: '#/decimal',
              keyword: 'decimal',
              params,
              message: 'must be decimal digits',
            },
          ];
          return false;
        }
      }
    }
    const valid = validate(data);
    checked.errors = validate.errors;
    return valid;
  }) as ValidateFn;
  return checked;
}

/** For bodies the route parses itself (multipart streams): documented in the schema, not validated. */
export const skipBodyValidation: FastifySchemaCompiler<unknown> = () => () => true;

export const validatorCompiler = createValidatorCompiler();

/** For /v3 routes, whose error `detail` names every failing field, not only the first. */
export const allErrorsValidatorCompiler = createValidatorCompiler(true);
