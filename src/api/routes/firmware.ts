import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import {
  FirmwareEnvelopes as E,
  FirmwareFileParams,
  FirmwareParams,
  FirmwareQuery,
  FirmwareUploadBody,
} from '../../contracts/index.js';
import type { FirmwareService, UploadsService } from '../../services/index.js';
import { ok } from '../envelope.js';
import { withFileForm } from '../file-form.js';
import { skipBodyValidation, validatorCompiler } from '../validation.js';
import { operation } from './schema.js';

const TEXT_FIELDS = new Set(['password']);

export const firmwareRoutes =
  (svc: FirmwareService, uploads: UploadsService): FastifyPluginAsyncTypebox =>
  async (app) => {
    app.post(
      '/v2/firmware',
      {
        ...operation(['Firmware'], 'uploadFirmware', E.created, [413], {
          code: 201,
          consumes: ['multipart/form-data'],
          querystring: FirmwareQuery,
          body: FirmwareUploadBody,
        }),
        validatorCompiler: (ctx) => (ctx.httpPart === 'body' ? skipBodyValidation(ctx) : validatorCompiler(ctx)),
      },
      async (req, reply) =>
        withFileForm(
          req,
          uploads,
          TEXT_FIELDS,
          'a `file` part (the image) and an optional `password`',
          async (file, f) => reply.code(201).send(ok(await svc.create(req.caller, file, f.password ?? null))),
        ),
    );

    app.get(
      '/v2/firmware/get-binaries/:task_id',
      operation(['Firmware'], 'getBinariesForFirmwareTask', E.task, [404], { params: FirmwareParams }),
      async (req) => ok(await svc.task(req.caller, req.params.task_id)),
    );

    app.get(
      '/v2/firmware/:task_id/files/:sha256',
      operation(['Firmware'], 'getFirmwareFile', Type.Unknown(), [404], { params: FirmwareFileParams }),
      async (req, reply) =>
        reply
          .type('application/octet-stream')
          .header('content-disposition', `attachment; filename="${req.params.sha256.toLowerCase()}"`)
          .send(await svc.file(req.caller, req.params.task_id, req.params.sha256)),
    );
  };
