import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { UPLOAD_FILE_TYPES, UploadBody, UploadEnvelope, UploadQuery } from '../../contracts/index.js';
import type { UploadsService } from '../../services/index.js';
import { ok } from '../envelope.js';
import { withFileForm, invalidField } from '../file-form.js';
import { skipBodyValidation, validatorCompiler } from '../validation.js';
import { operation } from './schema.js';

const isFileType = (v: string): v is (typeof UPLOAD_FILE_TYPES)[number] =>
  (UPLOAD_FILE_TYPES as readonly string[]).includes(v);

/** The form's text fields (UploadBody's, but the file); any other is a misspelling the client should hear about. */
const TEXT_FIELDS = new Set(Object.keys(UploadBody.properties).filter((f) => f !== 'file'));

/** POST /v2/upload: the file part streamed straight into the blob store (api/file-form.ts). */
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
      async (req) =>
        withFileForm(req, svc, TEXT_FIELDS, 'a `file` part and an `upload_file_type` field', async (stored, fields) => {
          const type = fields.upload_file_type ?? '';
          const types = UPLOAD_FILE_TYPES.join(', ');
          if (!isFileType(type))
            throw invalidField(
              'body.upload_file_type',
              type ? `must be one of ${types}` : `is required: one of ${types}`,
            );
          return ok(await svc.record(req.caller, stored, type));
        }),
    );
  };
