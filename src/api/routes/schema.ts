import type { TSchema } from '@sinclair/typebox';
import { BaseResponse } from '../../contracts/index.js';

/**
 * A route's options: its reference operation, the API key every operation takes, and its response map — the
 * success body under `code` (200 unless the spec says otherwise), `errorBody` under each error status and under
 * 422 (validation) always. The spec's type is kept so Fastify's type provider still types params, query and body.
 */
export function operation<S extends object = Record<never, never>>(
  tags: string[],
  operationId: string,
  success: TSchema,
  errorCodes: number[],
  spec?: S & { code?: number },
  errorBody: TSchema = BaseResponse,
) {
  const { code = 200, ...rest } = spec ?? ({} as S & { code?: number });
  const response: Record<number, TSchema> = { [code]: success };
  for (const c of [...errorCodes, 422]) response[c] = errorBody;
  return { schema: { ...(rest as Omit<S, 'code'>), operationId, tags, security: [{ APIKey: [] }], response } };
}
