import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import {
  AiUnstripRequest,
  AnalysisFunctionMatchingRequest,
  AutoUnstripRequest,
  AutoUnstripResponse,
  FunctionMatchingRequest,
  FunctionMatchingResponse,
  IdParam,
} from '../../contracts/index.js';
import type { FunctionMatchingService, UnstripService } from '../../services/index.js';
import { responses, security } from './schema.js';

const AnalysisId = IdParam('analysis_id');
const tags = ['FunctionsCore'];

const UNSTRIP = [
  {
    kind: 'auto_unstrip',
    start: 'auto-unstrip',
    startId: 'autoUnstrip',
    body: AutoUnstripRequest,
    cancel: 'unstrip/cancel',
    cancelId: 'cancelAutoUnstrip',
  },
  {
    kind: 'ai_unstrip',
    start: 'ai-unstrip',
    startId: 'aiUnstrip',
    body: AiUnstripRequest,
    cancel: 'ai-unstrip/cancel',
    cancelId: 'cancelAiUnstrip',
  },
] as const;

/** Matching, auto-unstrip and ai-unstrip: bare (un-enveloped) responses, as the reference has them. */
export const functionMatchingRoutes =
  (matching: FunctionMatchingService, unstrip: UnstripService): FastifyPluginAsyncTypebox =>
  async (app) => {
    app.post(
      '/v2/analyses/:analysis_id/functions/matches',
      {
        schema: {
          operationId: 'analysisFunctionMatching',
          tags,
          security,
          params: AnalysisId,
          body: AnalysisFunctionMatchingRequest,
          response: responses(200, FunctionMatchingResponse, [404]),
        },
      },
      (req) => matching.forAnalysis(req.caller, req.params.analysis_id, req.body),
    );

    app.post(
      '/v2/functions/matches',
      {
        schema: {
          operationId: 'batchFunctionMatching',
          tags,
          security,
          body: FunctionMatchingRequest,
          response: responses(200, FunctionMatchingResponse, [404]),
        },
      },
      (req) => matching.forFunctions(req.caller, req.body),
    );

    for (const u of UNSTRIP) {
      app.post(
        `/v2/analyses/:analysis_id/functions/${u.start}`,
        {
          schema: {
            operationId: u.startId,
            tags,
            security,
            params: AnalysisId,
            body: u.body,
            response: responses(200, AutoUnstripResponse, [403, 404]),
          },
        },
        (req) =>
          u.kind === 'auto_unstrip'
            ? unstrip.auto(req.caller, req.params.analysis_id, req.body)
            : unstrip.ai(req.caller, req.params.analysis_id, req.body),
      );

      app.delete(
        `/v2/analyses/:analysis_id/functions/${u.cancel}`,
        {
          schema: {
            operationId: u.cancelId,
            tags,
            security,
            params: AnalysisId,
            response: responses(200, AutoUnstripResponse, [403, 404]),
          },
        },
        (req) => unstrip.cancel(req.caller, req.params.analysis_id, u.kind),
      );
    }
  };
