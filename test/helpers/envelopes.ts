/** The spec's 422 body, the same for every /v2 operation. */
export const VALIDATION = {
  status: false,
  data: null,
  message: 'Request validation error',
  errors: [{ code: 'validation_error', message: 'Invalid request parameters' }],
  meta: {},
};
