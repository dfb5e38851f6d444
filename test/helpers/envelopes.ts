import assert from 'node:assert/strict';
import type { LightMyRequestResponse } from 'fastify';

// Expected /v2 error bodies: the envelope with `status: false`, as the spec's error table gives them.

/** An error envelope whose one entry repeats the message (every coded error but validation). */
export const errorEnvelope = (message: string, code: string) => ({
  status: false,
  data: null,
  message,
  errors: [{ code, message }],
  meta: {},
});

/** The fixed part of every /v2 validation failure's 422 body (the spec's); `meta` says what failed. */
export const VALIDATION = {
  status: false,
  data: null,
  message: 'Request validation error',
  errors: [{ code: 'validation_error', message: 'Invalid request parameters' }],
};

interface ValidationMeta {
  detail: string;
  fields: { field: string; reason: string }[];
}

/**
 * A /v2 422 body: the spec's fixed envelope, and in `meta` each failing field with its reason and the same as
 * one `detail` line. With `field`, one of the failing fields is it or lies inside it (`querystring.limit`).
 */
export function assertValidation(body: unknown, message?: string, field?: string): ValidationMeta {
  const { meta, ...rest } = body as { meta: ValidationMeta };
  assert.deepEqual(rest, VALIDATION, message);
  assert.ok(meta.fields.length > 0, `${message ?? ''}: meta names no field`);
  for (const f of meta.fields) assert.ok(f.field && f.reason, `${message ?? ''}: ${JSON.stringify(f)}`);
  assert.equal(meta.detail, meta.fields.map((f) => `${f.field}: ${f.reason}`).join('; '), message);
  if (field !== undefined) {
    const named = meta.fields.some((f) => f.field === field || f.field.startsWith(`${field}.`));
    assert.ok(named, `${message ?? ''}: ${field} not among ${meta.detail}`);
  }
  return meta;
}

// Expected /v3 error bodies: `{error: {code, message, trace_id, detail?}}`.

/** The /v3 error body without its trace id, which is checked apart (a non-empty string per request). */
export function v3Error(r: LightMyRequestResponse) {
  const body = r.json() as { error: { trace_id: unknown } };
  assert.equal(typeof body.error.trace_id, 'string');
  assert.notEqual(body.error.trace_id, '');
  const { trace_id: _, ...rest } = body.error;
  return { status: r.statusCode, error: rest };
}

/** A /v3 422: VALIDATION_FAILED, `detail` naming every failing field. */
export const v3Invalid = (detail: string) => ({
  status: 422,
  error: { code: 'VALIDATION_FAILED', message: 'Request validation failed', detail },
});
