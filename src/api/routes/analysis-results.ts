import { Type } from '@sinclair/typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import {
  AnalysisEnvelopes as E,
  ApplicationHeaders,
  BaseResponse,
  IdParam,
  InsertAnalysisLogRequest,
  PutAnalysisStringsRequest,
  ReAnalysisForm,
  Tuning,
} from '../../contracts/index.js';
import type { AnalysesService, AnalysisResultsService } from '../../services/index.js';
import { ok } from '../envelope.js';
import { operation } from './schema.js';

const AnalysisId = IdParam('analysis_id');
const core = ['AnalysesCore'];

export const analysisResultsRoutes =
  (results: AnalysisResultsService, analyses: AnalysesService): FastifyPluginAsyncTypebox =>
  async (app) => {
    app.get(
      '/v2/analyses/:analysis_id/basic',
      operation(core, 'getAnalysisBasicInfo', E.basic, [404], { params: AnalysisId }),
      async (req) => ok(await results.basic(req.caller, req.params.analysis_id)),
    );

    app.get(
      '/v2/analyses/:analysis_id/status',
      operation(core, 'getAnalysisStatus', E.status, [404], { params: AnalysisId }),
      async (req) => ok(await results.status(req.caller, req.params.analysis_id)),
    );

    app.get(
      '/v2/analyses/:analysis_id/params',
      operation(core, 'getAnalysisParams', E.params, [404], { params: AnalysisId, querystring: Tuning }),
      async (req) => ok(await results.params(req.caller, req.params.analysis_id)),
    );

    app.get(
      '/v2/analyses/:analysis_id/logs',
      operation(core, 'getAnalysisLogs', E.logs, [404], { params: AnalysisId, querystring: Tuning }),
      async (req) => ok(await results.logs(req.caller, req.params.analysis_id)),
    );

    app.post(
      '/v2/analyses/:analysis_id/logs',
      operation(core, 'insertAnalysisLog', BaseResponse, [403, 404], {
        params: AnalysisId,
        querystring: Tuning,
        body: InsertAnalysisLogRequest,
        code: 201,
      }),
      async (req, reply) => {
        await results.insertLog(req.caller, req.params.analysis_id, req.body.log);
        return reply.status(201).send(ok(null, 'Log inserted'));
      },
    );

    app.post(
      '/v2/analyses/:analysis_id/requeue',
      operation(core, 'requeueAnalysis', E.created, [400, 403, 404], {
        params: AnalysisId,
        querystring: Tuning,
        headers: ApplicationHeaders,
        body: Type.Optional(ReAnalysisForm),
        code: 201,
      }),
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
      operation(core, 'putAnalysisStrings', BaseResponse, [403, 404, 409], {
        params: AnalysisId,
        body: PutAnalysisStringsRequest,
        code: 201,
      }),
      async (req, reply) => {
        await results.putStrings(req.caller, req.params.analysis_id, req.body.strings);
        return reply.status(201).send(ok(null, 'Strings added'));
      },
    );

    app.get(
      '/v2/analysis-stages/:analysis_id',
      operation(['AnalysisStages'], 'getAnalysisStages', E.stages, [404], { params: AnalysisId }),
      async (req) => ok(await results.stages(req.caller, req.params.analysis_id)),
    );
  };
