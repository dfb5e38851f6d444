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
import { operation } from './schema.js';

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
      operation(tags, 'analysisFunctionMatching', FunctionMatchingResponse, [404], {
        params: AnalysisId,
        body: AnalysisFunctionMatchingRequest,
      }),
      (req) => matching.forAnalysis(req.caller, req.params.analysis_id, req.body),
    );

    app.post(
      '/v2/functions/matches',
      operation(tags, 'batchFunctionMatching', FunctionMatchingResponse, [404], { body: FunctionMatchingRequest }),
      (req) => matching.forFunctions(req.caller, req.body),
    );

    for (const u of UNSTRIP) {
      app.post(
        `/v2/analyses/:analysis_id/functions/${u.start}`,
        operation(tags, u.startId, AutoUnstripResponse, [403, 404], { params: AnalysisId, body: u.body }),
        (req) =>
          u.kind === 'auto_unstrip'
            ? unstrip.auto(req.caller, req.params.analysis_id, req.body)
            : unstrip.ai(req.caller, req.params.analysis_id, req.body),
      );

      app.delete(
        `/v2/analyses/:analysis_id/functions/${u.cancel}`,
        operation(tags, u.cancelId, AutoUnstripResponse, [403, 404], { params: AnalysisId }),
        (req) => unstrip.cancel(req.caller, req.params.analysis_id, u.kind),
      );
    }
  };
