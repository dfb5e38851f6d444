import { Ajv } from 'ajv';
import addFormatsModule from 'ajv-formats';
import type { FastifySchemaCompiler } from 'fastify';

// ajv-formats is CommonJS; its default export arrives wrapped under ESM interop.
const addFormats = addFormatsModule as unknown as typeof addFormatsModule.default;

/**
 * Request validation as Fastify does it by default (coerce query strings and lone values into arrays,
 * apply defaults), plus the contract's integer formats (int64, bigint) and multipart's `binary`.
 */
function createValidatorCompiler(): FastifySchemaCompiler<unknown> {
  const ajv = new Ajv({
    coerceTypes: 'array',
    useDefaults: true,
    removeAdditional: true,
    allErrors: false,
    strict: false,
  });
  addFormats(ajv);
  for (const f of ['int64', 'bigint', 'binary']) ajv.addFormat(f, true);
  return ({ schema }) => ajv.compile(schema as object) as ReturnType<FastifySchemaCompiler<unknown>>;
}

/** For bodies the route parses itself (multipart streams): documented in the schema, not validated. */
export const skipBodyValidation: FastifySchemaCompiler<unknown> = () => () => true;

export const validatorCompiler = createValidatorCompiler();
