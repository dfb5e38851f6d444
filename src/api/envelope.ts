import type { AppError } from '../shared/errors.js';

export const ok = <T>(data: T, message = 'Success') => ({ status: true, data, message, errors: [], meta: {} });

/** A page of results: the payload plus `meta.pagination`. */
export const okPage = <T>(r: {
  data: T;
  page: { page_size: number; page_number: number; has_next_page: boolean };
}) => ({
  status: true,
  data: r.data,
  message: 'Success',
  errors: [],
  meta: { pagination: r.page },
});

export const fail = (err: AppError) => ({
  status: false,
  data: null,
  message: err.message,
  errors: err.wireCode === null ? [] : [{ code: err.wireCode, message: wireMessage(err) }],
  // The spec's "extra information": what failed and why, which the fixed messages cannot say.
  meta: err.detail === undefined ? {} : { detail: err.detail, ...(err.fields ? { fields: err.fields } : {}) },
});

/** The spec fixes the validation entry's text; other entries repeat the envelope message. */
const wireMessage = (err: AppError) => (err.key === 'validation' ? 'Invalid request parameters' : err.message);
