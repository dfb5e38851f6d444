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

    app.post(
      '/v2/analyses/:analysis_id/functions/auto-unstrip',
      {
        schema: {
          operationId: 'autoUnstrip',
          tags,
          security,
          params: AnalysisId,
          body: AutoUnstripRequest,
          response: responses(200, AutoUnstripResponse, [403, 404]),
        },
      },
      (req) => unstrip.auto(req.caller, req.params.analysis_id, req.body),
    );

    app.delete(
      '/v2/analyses/:analysis_id/functions/unstrip/cancel',
      {
        schema: {
          operationId: 'cancelAutoUnstrip',
          tags,
          security,
          params: AnalysisId,
          response: responses(200, AutoUnstripResponse, [403, 404]),
        },
      },
      (req) => unstrip.cancel(req.caller, req.params.analysis_id, 'auto_unstrip'),
    );

    app.post(
      '/v2/analyses/:analysis_id/functions/ai-unstrip',
      {
        schema: {
          operationId: 'aiUnstrip',
          tags,
          security,
          params: AnalysisId,
          body: AiUnstripRequest,
          response: responses(200, AutoUnstripResponse, [403, 404]),
        },
      },
      (req) => unstrip.ai(req.caller, req.params.analysis_id, req.body),
    );

    app.delete(
      '/v2/analyses/:analysis_id/functions/ai-unstrip/cancel',
      {
        schema: {
          operationId: 'cancelAiUnstrip',
          tags,
          security,
          params: AnalysisId,
          response: responses(200, AutoUnstripResponse, [403, 404]),
        },
      },
      (req) => unstrip.cancel(req.caller, req.params.analysis_id, 'ai_unstrip'),
    );
  };
