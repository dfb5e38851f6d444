import type { FastifyError, FastifyRequest } from 'fastify';
import type { AppError, FieldProblem } from '../shared/errors.js';

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

/** Every field Ajv rejected and why: `querystring.limit` must be <= 50, `body.tags` is required, … */
export function validationFields(err: FastifyError): FieldProblem[] | undefined {
  if (!err.validation) return undefined;
  return err.validation.map((v) => {
    const { missingProperty, additionalProperty } = v.params as {
      missingProperty?: string;
      additionalProperty?: string;
    };
    const name = missingProperty ?? additionalProperty;
    const field = [err.validationContext, ...v.instancePath.split('/').slice(1), name].filter(Boolean).join('.');
    if (missingProperty) return { field, reason: 'is required' };
    if (additionalProperty) return { field, reason: 'is not a field of this request: check its spelling' };
    return { field, reason: v.message ?? 'is invalid' };
  });
}
