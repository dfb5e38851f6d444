import type { TSchema } from '@sinclair/typebox';
import { APIError, BaseResponse } from '../../contracts/index.js';
import { OPERATION_DOCS, RESPONSE_TEXT, type OperationDoc, type OperationId } from '../docs/index.js';

/** A response schema as published: its own description, else what its status means (@fastify/swagger's key). */
const described = (schema: TSchema, status: number): TSchema => ({
  ...schema,
  'x-response-description': schema.description ?? RESPONSE_TEXT[status] ?? `HTTP ${status}`,
});

/**
 * A route's options: its reference operation, the API key every operation takes, and its response map — the
 * success body under `code` (200 unless the spec says otherwise), `errorBody` under each error status and under
 * 422 (validation) always. The spec's type is kept so Fastify's type provider still types params, query and body.
 * The operation's summary, description and body examples come from api/docs, by operationId.
 */
export function operation<S extends object = Record<never, never>>(
  tags: string[],
  operationId: OperationId,
  success: TSchema,
  errorCodes: number[],
  spec?: S & { code?: number },
  errorBody: TSchema = BaseResponse,
) {
  const { code = 200, ...rest } = spec ?? ({} as S & { code?: number });
  const response: Record<number, TSchema> = { [code]: described(success, code) };
  for (const c of [...errorCodes, 422]) response[c] = described(errorBody, c);
  const doc: OperationDoc = OPERATION_DOCS[operationId];
  const schema = {
    ...(rest as Omit<S, 'code'>),
    summary: doc.summary,
    description: doc.description,
    operationId,
    tags,
    security: [{ APIKey: [] }],
    response,
  };
  // Named examples of the body, published beside its schema (@fastify/swagger's `x-examples`); validation
  // ignores the key.
  if (doc.examples && 'body' in schema)
    Object.assign(schema, { body: { ...(schema.body as TSchema), 'x-examples': doc.examples } });
  return { schema };
}

/** A /v3 operation: its error bodies are APIError (api/v3-errors.ts). */
export const v3Operation = <S extends object>(
  tags: string[],
  operationId: OperationId,
  success: TSchema,
  errorCodes: number[],
  spec?: S & { code?: number },
) => operation(tags, operationId, success, errorCodes, spec, APIError);
