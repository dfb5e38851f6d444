import type { FastifyInstance, FastifyError } from 'fastify';
import { AppError, errors, type FieldProblem } from '../../shared/errors.js';
import { fail } from '../envelope.js';
import { isV3, v3Error, validationFields } from '../v3-errors.js';

/**
 * Fastify's own error codes that mean "the request is malformed" (the contract calls those 422), with the
 * field to name and what to do; null keeps Fastify's message as the reason.
 */
const MALFORMED = new Map<string, FieldProblem | null>([
  ['FST_ERR_CTP_INVALID_JSON_BODY', null],
  ['FST_ERR_CTP_EMPTY_JSON_BODY', { field: 'body', reason: 'is empty: send a JSON object, or no content-type' }],
  [
    'FST_ERR_CTP_INVALID_MEDIA_TYPE',
    { field: 'headers.content-type', reason: 'is not accepted: send application/json (multipart/form-data to upload)' },
  ],
  ['FST_ERR_CTP_INVALID_CONTENT_LENGTH', { field: 'headers.content-length', reason: 'does not match the body' }],
  ['FST_INVALID_MULTIPART_CONTENT_TYPE', { field: 'headers.content-type', reason: 'must be multipart/form-data' }],
  // The upload form takes one file and a few fields: more parts than that is a malformed form.
  ['FST_FILES_LIMIT', { field: 'body.file', reason: 'came twice: upload one file per request' }],
  ['FST_FIELDS_LIMIT', { field: 'body', reason: 'has too many fields: send upload_file_type and the file' }],
  ['FST_PARTS_LIMIT', { field: 'body', reason: 'has too many parts: send upload_file_type and the file' }],
  ['FST_PROTO_VIOLATION', null],
]);

/**
 * The database's "waited too long" codes: SQLite's busy timeout (another process holds the write lock),
 * PostgreSQL's lock_timeout (55P03) and statement_timeout (57014). The request may well succeed again.
 */
const BUSY = new Set(['SQLITE_BUSY', 'SQLITE_BUSY_SNAPSHOT', '55P03', '57014']);

export function registerErrorHandling(app: FastifyInstance, maxUploadBytes: number, maxBodyBytes: number): void {
  app.setErrorHandler((err: FastifyError, request, reply) => {
    let appErr: AppError;
    if (err instanceof AppError) appErr = err;
    else if (err.validation || MALFORMED.has(err.code)) {
      appErr = errors
        .validation()
        .withFields(validationFields(err) ?? [MALFORMED.get(err.code) ?? { field: 'body', reason: err.message }]);
    } else if (err.code === 'FST_REQ_FILE_TOO_LARGE') appErr = errors.uploadTooLarge(maxUploadBytes);
    else if (err.code === 'FST_ERR_CTP_BODY_TOO_LARGE') appErr = errors.bodyTooLarge(maxBodyBytes);
    else if (BUSY.has(err.code)) {
      request.log.warn({ err }, 'database busy');
      appErr = errors.busy();
      void reply.header('retry-after', '1');
    } else {
      request.log.error({ err }, 'unhandled error');
      appErr = errors.internal();
    }
    if (appErr.status === 422) request.log.info({ fields: appErr.fields }, `invalid request: ${appErr.detail ?? ''}`);
    return reply.status(appErr.status).send(isV3(request) ? v3Error(appErr, request.id) : fail(appErr));
  });
  app.setNotFoundHandler((request, reply) => {
    const err = errors.routeNotFound(request.method, request.url.split('?')[0] ?? '');
    return reply.status(404).send(isV3(request) ? v3Error(err, request.id) : fail(err));
  });
}
