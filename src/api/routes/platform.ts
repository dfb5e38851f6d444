import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { MODEL_NAMES, PlatformEnvelopes as E } from '../../contracts/index.js';
import type { UsersService } from '../../services/index.js';
import { ok } from '../envelope.js';
import { responses, security } from './schema.js';

export const platformRoutes =
  (users: UsersService, maxUploadBytes: number): FastifyPluginAsyncTypebox =>
  async (app) => {
    app.get(
      '/v2/models',
      { schema: { operationId: 'getModels', tags: ['Models'], security, response: responses(200, E.models) } },
      async () => ok({ models: [...MODEL_NAMES] }),
    );

    app.get(
      '/v2/config',
      { schema: { operationId: 'getConfig', tags: ['Config'], security, response: responses(200, E.config) } },
      async () =>
        ok({
          dashboard_url: '',
          max_file_size_bytes: maxUploadBytes,
          ai_decompiler_unsupported_languages: [],
          ai_decompiler_supported_models: [],
        }),
    );

    app.get(
      '/v2/users/me',
      {
        schema: {
          operationId: 'getRequesterUserInfo',
          tags: ['AuthenticationUsers'],
          security,
          response: responses(200, E.me),
        },
      },
      async (req) => ok(await users.me(req.caller)),
    );
  };
