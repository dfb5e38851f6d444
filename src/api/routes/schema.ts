import type { TSchema } from '@sinclair/typebox';
import { BaseResponse } from '../../contracts/index.js';

/** The response map of a route: its success envelope plus the reference's error statuses (BaseResponse). */
export function responses(code: number, success: TSchema, errorCodes: number[] = []) {
  const out: Record<number, TSchema> = { [code]: success };
  for (const c of [...errorCodes, 422]) out[c] = BaseResponse;
  return out;
}

export const security = [{ APIKey: [] }];
