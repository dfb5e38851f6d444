import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { MODEL_NAMES, PlatformEnvelopes as E } from '../../contracts/index.js';
import type { UsersService } from '../../services/index.js';
import { ok } from '../envelope.js';
import { operation } from './schema.js';

export const platformRoutes =
  (users: UsersService, maxUploadBytes: number): FastifyPluginAsyncTypebox =>
  async (app) => {
    app.get('/v2/models', operation(['Models'], 'getModels', E.models, []), async () =>
      ok({ models: [...MODEL_NAMES] }),
    );

    app.get('/v2/config', operation(['Config'], 'getConfig', E.config, []), async () =>
      ok({
        dashboard_url: '',
        max_file_size_bytes: maxUploadBytes,
        ai_decompiler_unsupported_languages: [],
        ai_decompiler_supported_models: [],
      }),
    );

    app.get('/v2/users/me', operation(['AuthenticationUsers'], 'getRequesterUserInfo', E.me, []), async (req) =>
      ok(await users.me(req.caller)),
    );
  };
