import { Type } from '@sinclair/typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import {
  AnalysisBulkAddTagsRequest,
  AnalysisCreateRequest,
  AnalysisEnvelopes as E,
  AnalysisUpdateRequest,
  AnalysisUpdateTagsRequest,
  BulkDeleteAnalysesRequest,
  Envelope,
  IdParam,
  ListAnalysesQuery,
  Tuning,
} from '../../contracts/index.js';
import type { AnalysesService } from '../../services/index.js';
import { ok } from '../envelope.js';
import { responses, security } from './schema.js';

const AnalysisId = IdParam('analysis_id');
const tag = ['AnalysesCore'];
const AppHeaders = Type.Object({
  'x-service-application': Type.Optional(Type.String()),
  'x-reveng-application': Type.Optional(Type.String()),
});

export const analysesRoutes =
  (svc: AnalysesService): FastifyPluginAsyncTypebox =>
  async (app) => {
    app.post(
      '/v2/analyses',
      {
        schema: {
          operationId: 'createAnalysis',
          tags: tag,
          security,
          querystring: Tuning,
          headers: AppHeaders,
          body: AnalysisCreateRequest,
          response: responses(201, E.create, [400, 404]),
        },
      },
      async (req, reply) =>
        reply.status(201).send(ok(await svc.create(req.caller, req.body, req.query.max_retry_attempts))),
    );

    app.patch(
      '/v2/analyses/delete',
      {
        schema: {
          operationId: 'bulkDeleteAnalyses',
          tags: tag,
          security,
          querystring: Tuning,
          body: BulkDeleteAnalysesRequest,
          response: responses(200, E.dict, [403, 404]),
        },
      },
      async (req) => ok(await svc.bulkDelete(req.caller, req.body.analysis_ids), 'Analyses deleted'),
    );

    app.get(
      '/v2/analyses/list',
      {
        schema: {
          operationId: 'listAnalyses',
          tags: tag,
          security,
          querystring: ListAnalysesQuery,
          response: responses(200, E.recent),
        },
      },
      async (req) => ok(await svc.list(req.caller, req.query)),
    );

    app.get(
      '/v2/analyses/lookup/:binary_id',
      {
        schema: {
          operationId: 'lookupBinaryId',
          tags: tag,
          security,
          params: IdParam('binary_id'),
          response: responses(
            200,
            Envelope(Type.Object({ analysis_id: Type.Integer(), binary_id: Type.Integer() })),
            [404],
          ),
        },
      },
      async (req) => ok(await svc.lookup(req.caller, req.params.binary_id)),
    );

    app.patch(
      '/v2/analyses/tags/add',
      {
        schema: {
          operationId: 'bulkAddAnalysisTags',
          tags: tag,
          security,
          querystring: Tuning,
          body: AnalysisBulkAddTagsRequest,
          response: responses(200, E.bulkTags),
        },
      },
      async (req) => ok(await svc.bulkAddTags(req.caller, req.body.analysis_ids, req.body.tags)),
    );

    app.patch(
      '/v2/analyses/:analysis_id',
      {
        schema: {
          operationId: 'updateAnalysis',
          tags: tag,
          security,
          params: AnalysisId,
          querystring: Tuning,
          body: AnalysisUpdateRequest,
          response: responses(200, E.detail, [403, 404]),
        },
      },
      async (req) => ok(await svc.update(req.caller, req.params.analysis_id, req.body)),
    );

    app.delete(
      '/v2/analyses/:analysis_id',
      {
        schema: {
          operationId: 'deleteAnalysis',
          tags: tag,
          security,
          params: AnalysisId,
          querystring: Tuning,
          response: responses(200, E.dict, [403, 404]),
        },
      },
      async (req) => ok(await svc.delete(req.caller, req.params.analysis_id), 'Analysis deleted'),
    );

    app.patch(
      '/v2/analyses/:analysis_id/tags',
      {
        schema: {
          operationId: 'updateAnalysisTags',
          tags: tag,
          security,
          params: AnalysisId,
          querystring: Tuning,
          body: AnalysisUpdateTagsRequest,
          response: responses(200, E.updateTags, [403, 404]),
        },
      },
      async (req) => ok(await svc.replaceTags(req.caller, req.params.analysis_id, req.body.tags)),
    );

    app.get(
      '/v2/analyses/:analysis_id/tags',
      {
        schema: {
          operationId: 'getTags',
          tags: ['AnalysesResultsMetadata'],
          security,
          params: AnalysisId,
          response: responses(200, E.tags, [404]),
        },
      },
      async (req) => ok(await svc.tags(req.caller, req.params.analysis_id)),
    );
  };
