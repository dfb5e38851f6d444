import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { UPLOAD_FILE_TYPES, UploadBody, UploadEnvelope, UploadQuery } from '../../contracts/index.js';
import { errors } from '../../shared/errors.js';
import type { StreamedUpload, UploadsService } from '../../services/index.js';
import { ok } from '../envelope.js';
import { fieldBounds, skipBodyValidation, validatorCompiler } from '../validation.js';
import { operation } from './schema.js';

const MAX_NAME = fieldBounds('filename').maxLength;

const isFileType = (v: string): v is (typeof UPLOAD_FILE_TYPES)[number] =>
  (UPLOAD_FILE_TYPES as readonly string[]).includes(v);

/** The form's text fields (UploadBody's, but the file); any other is a misspelling the client should hear about. */
const TEXT_FIELDS = new Set(Object.keys(UploadBody.properties).filter((f) => f !== 'file'));

const invalid = (field: string, reason: string) => errors.validation().withFields([{ field, reason }]);

/**
 * POST /v2/upload: the file part is streamed straight into the blob store (hashed on the way), so memory
 * does not grow with its size. Fields may come before or after the file; they are checked at the end.
 */
export const uploadRoutes =
  (svc: UploadsService): FastifyPluginAsyncTypebox =>
  async (app) => {
    app.post(
      '/v2/upload',
      {
        ...operation(['AnalysesCore'], 'uploadFile', UploadEnvelope, [413], {
          consumes: ['multipart/form-data'],
          querystring: UploadQuery,
          body: UploadBody,
        }),
        validatorCompiler: (ctx) => (ctx.httpPart === 'body' ? skipBodyValidation(ctx) : validatorCompiler(ctx)),
      },
      async (req) => {
        if (!req.isMultipart())
          throw invalid('body', 'must be multipart/form-data with a `file` part and an `upload_file_type` field');
        const fields: Record<string, string> = {};
        let stored: StreamedUpload | null = null;
        try {
          for await (const part of req.parts()) {
            if (part.type === 'file') {
              // A file name is stored as text (bounded like every text field), and PostgreSQL text cannot
              // hold U+0000.
              const name = part.filename;
              const problem =
                part.fieldname !== 'file'
                  ? invalid(`body.${part.fieldname}`, 'is not a file field of this request: send the sample as `file`')
                  : stored
                    ? invalid('body.file', 'came twice: upload one file per request')
                    : name.includes('\0') || name.length > MAX_NAME
                      ? invalid('body.file', `needs a file name without NUL of at most ${MAX_NAME} characters`)
                      : null;
              if (problem) {
                part.file.resume();
                throw problem;
              }
              stored = await svc.stream(part.file, part.filename || 'unnamed');
            } else {
              fields[part.fieldname] = String(part.value);
            }
          }
          const unknown = Object.keys(fields).find((f) => !TEXT_FIELDS.has(f));
          if (unknown !== undefined)
            throw invalid(`body.${unknown}`, 'is not a field of this request: check its spelling');
          if (!stored) throw invalid('body.file', 'is required: send the sample as a file part named `file`');
          const type = fields.upload_file_type ?? '';
          const types = UPLOAD_FILE_TYPES.join(', ');
          if (!isFileType(type))
            throw invalid('body.upload_file_type', type ? `must be one of ${types}` : `is required: one of ${types}`);
          return ok(await svc.record(req.caller, stored, type));
        } catch (err) {
          // A refused request (a second file, a bad field, a broken stream) keeps no blob it streamed in.
          if (stored) await svc.discard(stored);
          throw err;
        }
      },
    );
  };
