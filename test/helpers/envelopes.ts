// Expected /v2 error bodies: the envelope with `status: false`, as the spec's error table gives them.

/** An error envelope whose one entry repeats the message (every coded error but validation). */
export const errorEnvelope = (message: string, code: string) => ({
  status: false,
  data: null,
  message,
  errors: [{ code, message }],
  meta: {},
});

/** The fixed 422 body of every /v2 validation failure. */
export const VALIDATION = {
  status: false,
  data: null,
  message: 'Request validation error',
  errors: [{ code: 'validation_error', message: 'Invalid request parameters' }],
  meta: {},
};
