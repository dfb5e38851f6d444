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
        if (!req.isMultipart()) throw errors.validation();
        const fields: Record<string, string> = {};
        let stored: StreamedUpload | null = null;
        try {
          for await (const part of req.parts()) {
            if (part.type === 'file') {
              // A file name is stored as text (bounded like every text field), and PostgreSQL text cannot
              // hold U+0000.
              const name = part.filename;
              if (part.fieldname !== 'file' || stored || name.includes('\0') || name.length > MAX_NAME) {
                part.file.resume();
                throw errors.validation();
              }
              stored = await svc.stream(part.file, part.filename || 'unnamed');
            } else {
              fields[part.fieldname] = String(part.value);
            }
          }
          const fileType = fields.upload_file_type ?? '';
          if (!stored || !isFileType(fileType)) throw errors.validation();
          return ok(await svc.record(req.caller, stored, fileType));
        } catch (err) {
          // A refused request (a second file, a bad field, a broken stream) keeps no blob it streamed in.
          if (stored) await svc.discard(stored);
          throw err;
        }
      },
    );
  };
