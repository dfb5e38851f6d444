import { Type } from '@sinclair/typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import {
  AnalysisEnvelopes as E,
  BaseResponse,
  IdParam,
  InsertAnalysisLogRequest,
  PutAnalysisStringsRequest,
  ReAnalysisForm,
  Tuning,
} from '../../contracts/index.js';
import type { AnalysesService, AnalysisResultsService } from '../../services/index.js';
import { ok } from '../envelope.js';
import { responses, security } from './schema.js';

const AnalysisId = IdParam('analysis_id');
const core = ['AnalysesCore'];

export const analysisResultsRoutes =
  (results: AnalysisResultsService, analyses: AnalysesService): FastifyPluginAsyncTypebox =>
  async (app) => {
    app.get(
      '/v2/analyses/:analysis_id/basic',
      {
        schema: {
          operationId: 'getAnalysisBasicInfo',
          tags: core,
          security,
          params: AnalysisId,
          response: responses(200, E.basic, [404]),
        },
      },
      async (req) => ok(await results.basic(req.caller, req.params.analysis_id)),
    );

    app.get(
      '/v2/analyses/:analysis_id/status',
      {
        schema: {
          operationId: 'getAnalysisStatus',
          tags: core,
          security,
          params: AnalysisId,
          response: responses(200, E.status, [404]),
        },
      },
      async (req) => ok(await results.status(req.caller, req.params.analysis_id)),
    );

    app.get(
      '/v2/analyses/:analysis_id/params',
      {
        schema: {
          operationId: 'getAnalysisParams',
          tags: core,
          security,
          params: AnalysisId,
          querystring: Tuning,
          response: responses(200, E.params, [404]),
        },
      },
      async (req) => ok(await results.params(req.caller, req.params.analysis_id)),
    );

    app.get(
      '/v2/analyses/:analysis_id/logs',
      {
        schema: {
          operationId: 'getAnalysisLogs',
          tags: core,
          security,
          params: AnalysisId,
          querystring: Tuning,
          response: responses(200, E.logs, [404]),
        },
      },
      async (req) => ok(await results.logs(req.caller, req.params.analysis_id)),
    );

    app.post(
      '/v2/analyses/:analysis_id/logs',
      {
        schema: {
          operationId: 'insertAnalysisLog',
          tags: core,
          security,
          params: AnalysisId,
          querystring: Tuning,
          body: InsertAnalysisLogRequest,
          response: responses(201, BaseResponse, [403, 404]),
        },
      },
      async (req, reply) => {
        await results.insertLog(req.caller, req.params.analysis_id, req.body.log);
        return reply.status(201).send(ok(null, 'Log inserted'));
      },
    );

    app.post(
      '/v2/analyses/:analysis_id/requeue',
      {
        schema: {
          operationId: 'requeueAnalysis',
          tags: core,
          security,
          params: AnalysisId,
          querystring: Tuning,
          headers: Type.Object({
            'x-service-application': Type.Optional(Type.String()),
            'x-reveng-application': Type.Optional(Type.String()),
          }),
          body: Type.Optional(ReAnalysisForm),
          response: responses(201, E.created, [400, 403, 404]),
        },
      },
      async (req, reply) =>
        reply
          .status(201)
          .send(
            ok(
              await analyses.requeue(req.caller, req.params.analysis_id, req.body ?? {}, req.query.max_retry_attempts),
            ),
          ),
    );

    app.put(
      '/v2/analyses/:analysis_id/strings',
      {
        schema: {
          operationId: 'putAnalysisStrings',
          tags: core,
          security,
          params: AnalysisId,
          body: PutAnalysisStringsRequest,
          response: responses(201, BaseResponse, [403, 404, 409]),
        },
      },
      async (req, reply) => {
        await results.putStrings(req.caller, req.params.analysis_id, req.body.strings);
        return reply.status(201).send(ok(null, 'Strings added'));
      },
    );

    app.get(
      '/v2/analysis-stages/:analysis_id',
      {
        schema: {
          operationId: 'getAnalysisStages',
          tags: ['AnalysisStages'],
          security,
          params: AnalysisId,
          response: responses(200, E.stages, [404]),
        },
      },
      async (req) => ok(await results.stages(req.caller, req.params.analysis_id)),
    );
  };
