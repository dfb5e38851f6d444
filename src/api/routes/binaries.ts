import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { BinaryEnvelopes as E, IdParam, Tuning } from '../../contracts/index.js';
import type { BinariesService } from '../../services/index.js';
import { ok } from '../envelope.js';
import { responses, security } from './schema.js';

const BinaryId = IdParam('binary_id');

export const binariesRoutes =
  (svc: BinariesService): FastifyPluginAsyncTypebox =>
  async (app) => {
    app.get(
      '/v2/binaries/:binary_id/details',
      {
        schema: {
          operationId: 'getBinaryDetails',
          tags: ['Binaries'],
          security,
          params: BinaryId,
          querystring: Tuning,
          response: responses(200, E.details, [404]),
        },
      },
      async (req) => ok(await svc.details(req.caller, req.params.binary_id)),
    );

    app.get(
      '/v2/binaries/:binary_id/externals',
      {
        schema: {
          operationId: 'getBinaryExternals',
          tags: ['Binaries'],
          security,
          params: BinaryId,
          querystring: Tuning,
          response: responses(200, E.externals, [404]),
        },
      },
      async (req) => ok(await svc.externals(req.caller, req.params.binary_id)),
    );
  };
