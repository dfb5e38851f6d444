import { Type } from '@sinclair/typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import {
  AnalysisBulkAddTagsRequest,
  ApplicationHeaders,
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
import { operation } from './schema.js';

const AnalysisId = IdParam('analysis_id');
const tag = ['AnalysesCore'];

export const analysesRoutes =
  (svc: AnalysesService): FastifyPluginAsyncTypebox =>
  async (app) => {
    app.post(
      '/v2/analyses',
      operation(tag, 'createAnalysis', E.create, [400, 404], {
        querystring: Tuning,
        headers: ApplicationHeaders,
        body: AnalysisCreateRequest,
        code: 201,
      }),
      async (req, reply) =>
        reply.status(201).send(ok(await svc.create(req.caller, req.body, req.query.max_retry_attempts))),
    );

    app.patch(
      '/v2/analyses/delete',
      operation(tag, 'bulkDeleteAnalyses', E.dict, [403, 404], {
        querystring: Tuning,
        body: BulkDeleteAnalysesRequest,
      }),
      async (req) => ok(await svc.bulkDelete(req.caller, req.body.analysis_ids), 'Analyses deleted'),
    );

    app.get(
      '/v2/analyses/list',
      operation(tag, 'listAnalyses', E.recent, [], { querystring: ListAnalysesQuery }),
      async (req) => ok(await svc.list(req.caller, req.query)),
    );

    app.get(
      '/v2/analyses/lookup/:binary_id',
      operation(
        tag,
        'lookupBinaryId',
        Envelope(Type.Object({ analysis_id: Type.Integer(), binary_id: Type.Integer() })),
        [404],
        { params: IdParam('binary_id') },
      ),
      async (req) => ok(await svc.lookup(req.caller, req.params.binary_id)),
    );

    app.patch(
      '/v2/analyses/tags/add',
      operation(tag, 'bulkAddAnalysisTags', E.bulkTags, [], { querystring: Tuning, body: AnalysisBulkAddTagsRequest }),
      async (req) => ok(await svc.bulkAddTags(req.caller, req.body.analysis_ids, req.body.tags)),
    );

    app.patch(
      '/v2/analyses/:analysis_id',
      operation(tag, 'updateAnalysis', E.detail, [403, 404], {
        params: AnalysisId,
        querystring: Tuning,
        body: AnalysisUpdateRequest,
      }),
      async (req) => ok(await svc.update(req.caller, req.params.analysis_id, req.body)),
    );

    app.delete(
      '/v2/analyses/:analysis_id',
      operation(tag, 'deleteAnalysis', E.dict, [403, 404], { params: AnalysisId, querystring: Tuning }),
      async (req) => ok(await svc.delete(req.caller, req.params.analysis_id), 'Analysis deleted'),
    );

    app.patch(
      '/v2/analyses/:analysis_id/tags',
      operation(tag, 'updateAnalysisTags', E.updateTags, [403, 404], {
        params: AnalysisId,
        querystring: Tuning,
        body: AnalysisUpdateTagsRequest,
      }),
      async (req) => ok(await svc.replaceTags(req.caller, req.params.analysis_id, req.body.tags)),
    );

    app.get(
      '/v2/analyses/:analysis_id/tags',
      operation(['AnalysesResultsMetadata'], 'getTags', E.tags, [404], { params: AnalysisId }),
      async (req) => ok(await svc.tags(req.caller, req.params.analysis_id)),
    );
  };
