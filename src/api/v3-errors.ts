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

type ValidationError = NonNullable<FastifyError['validation']>[number];

/**
 * Whether an Ajv error only restates one a nullable field's other branch explains: `must be null` and `must match a
 * schema in anyOf` beside an error inside the value (`body.copies.0.target_function_id is required`).
 */
function restates(v: ValidationError, all: ValidationError[]): boolean {
  const wrapper = v.keyword === 'anyOf' || (v.keyword === 'type' && (v.params as { type?: unknown }).type === 'null');
  return (
    wrapper &&
    all.some(
      (o) =>
        o !== v &&
        o.keyword !== 'anyOf' &&
        !(o.keyword === 'type' && (o.params as { type?: unknown }).type === 'null') &&
        (o.instancePath === v.instancePath || o.instancePath.startsWith(`${v.instancePath}/`)),
    )
  );
}

/** Every field Ajv rejected and why: `querystring.limit` must be <= 50, `body.tags` is required, … */
export function validationFields(err: FastifyError): FieldProblem[] | undefined {
  if (!err.validation) return undefined;
  const all = err.validation;
  return all
    .filter((v) => !restates(v, all))
    .map((v) => {
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
