import type { FastifyError, FastifyRequest } from 'fastify';
import type { AppError } from '../shared/errors.js';

/** The /v3 error codes (the reference's ErrorBody.code) of the statuses the registry uses. */
const V3_CODES: Record<number, string> = {
  400: 'BAD_REQUEST',
  401: 'UNAUTHORIZED',
  403: 'FORBIDDEN',
  404: 'NOT_FOUND',
  409: 'CONFLICT',
  413: 'REQUEST_ENTITY_TOO_LARGE',
  422: 'VALIDATION_FAILED',
  500: 'INTERNAL_ERROR',
};

/** A request's path as the router reads it (percent-decoded), for requests no route matched. */
function decodedPath(url: string): string {
  try {
    return decodeURIComponent(url.split('?')[0] ?? '');
  } catch {
    return url;
  }
}

/** /v3 routes (and unknown paths under /v3/) answer errors in the /v3 body; everything else keeps the envelope. */
export const isV3 = (request: FastifyRequest) =>
  (request.routeOptions.url ?? decodedPath(request.url)).startsWith('/v3/');

/** `{error: {code, message, trace_id, detail?}}`; the trace id is the request id the log lines carry. */
export function v3Error(err: AppError, traceId: string) {
  const validation = err.status === 422;
  return {
    error: {
      code: V3_CODES[err.status] ?? 'INTERNAL_ERROR',
      message: validation ? 'Request validation failed' : err.message,
      trace_id: traceId,
      ...(err.detail === undefined ? {} : { detail: err.detail }),
    },
  };
}

/** Names every field Ajv rejected, as `querystring.limit: must be <= 50`, for the /v3 `detail`. */
export function validationDetail(err: FastifyError): string | undefined {
  if (!err.validation) return undefined;
  return err.validation
    .map((v) => {
      const missing = (v.params as { missingProperty?: string }).missingProperty;
      const path = [err.validationContext, ...v.instancePath.split('/').slice(1), missing].filter(Boolean).join('.');
      return missing ? `${path}: is required` : `${path}: ${v.message ?? 'is invalid'}`;
    })
    .join('; ');
}
