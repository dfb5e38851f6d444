import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { BinaryEnvelopes as E, IdParam, Tuning } from '../../contracts/index.js';
import type { BinariesService, RelatedBinariesService } from '../../services/index.js';
import { ok } from '../envelope.js';
import { operation } from './schema.js';

const BinaryId = IdParam('binary_id');

export const binariesRoutes =
  (svc: BinariesService, related: RelatedBinariesService): FastifyPluginAsyncTypebox =>
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

    app.get(
      '/v2/binaries/:binary_id/related',
      operation(['Binaries'], 'getRelatedBinaries', E.related, [404], { params: BinaryId, querystring: Tuning }),
      async (req) => ok(await related.related(req.caller, req.params.binary_id)),
    );

    app.get(
      '/v2/binaries/:binary_id/related/status',
      operation(['Binaries'], 'getBinaryRelatedStatus', E.relatedStatus, [404], {
        params: BinaryId,
        querystring: Tuning,
      }),
      async (req) => ok(await related.status(req.caller, req.params.binary_id)),
    );
  };
