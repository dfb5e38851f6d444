import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { BinaryEnvelopes as E, IdParam, Tuning } from '../../contracts/index.js';
import type { BinariesService } from '../../services/index.js';
import { ok } from '../envelope.js';
import { operation } from './schema.js';

const BinaryId = IdParam('binary_id');

export const binariesRoutes =
  (svc: BinariesService): FastifyPluginAsyncTypebox =>
  async (app) => {
    app.get(
      '/v2/binaries/:binary_id/details',
      operation(['Binaries'], 'getBinaryDetails', E.details, [404], { params: BinaryId, querystring: Tuning }),
      async (req) => ok(await svc.details(req.caller, req.params.binary_id)),
    );

    app.get(
      '/v2/binaries/:binary_id/externals',
      operation(['Binaries'], 'getBinaryExternals', E.externals, [404], { params: BinaryId, querystring: Tuning }),
      async (req) => ok(await svc.externals(req.caller, req.params.binary_id)),
    );
  };
