import type { AppError } from '../shared/errors.js';

export const ok = <T>(data: T, message = 'Success') => ({ status: true, data, message, errors: [], meta: {} });

export const fail = (err: AppError) => ({
  status: false,
  data: null,
  message: err.message,
  errors: err.wireCode === null ? [] : [{ code: err.wireCode, message: wireMessage(err) }],
  meta: {},
});

/** The spec fixes the validation entry's text; other entries repeat the envelope message. */
const wireMessage = (err: AppError) => (err.key === 'validation' ? 'Invalid request parameters' : err.message);
