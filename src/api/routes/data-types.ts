import { Type } from '@sinclair/typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import {
  DataTypesEnvelopes as E,
  FunctionDataTypesParams,
  FunctionIdsFilter,
  IdParam,
  UpdateFunctionDataTypes,
} from '../../contracts/index.js';
import type { DataTypesService } from '../../services/index.js';
import { ok } from '../envelope.js';
import { operation } from './schema.js';

const AnalysisId = IdParam('analysis_id');
const OneFunction = Type.Object({ analysis_id: Type.Integer(), function_id: Type.Integer() });
const tags = ['FunctionsDataTypes'];

/**
 * Function data types (/v2): generate → poll → read, and the owner's edits. `/v2/functions/data_types` is a
 * static path, so the router prefers it to `/v2/functions/{function_id}`.
 */
export const dataTypesRoutes =
  (svc: DataTypesService): FastifyPluginAsyncTypebox =>
  async (app) => {
    const forAnalysis = '/v2/analyses/:analysis_id/functions/data_types';
    const forFunction = '/v2/analyses/:analysis_id/functions/:function_id/data_types';

    app.post(
      forAnalysis,
      operation(tags, 'generateFunctionDataTypesForAnalysis', E.generate, [404, 409], {
        params: AnalysisId,
        body: FunctionDataTypesParams,
        code: 201,
      }),
      async (req, reply) =>
        reply.status(201).send(ok(await svc.generate(req.caller, req.params.analysis_id, req.body.function_ids))),
    );

    app.get(
      forAnalysis,
      operation(tags, 'listFunctionDataTypesForAnalysis', E.list, [404], {
        params: AnalysisId,
        querystring: FunctionIdsFilter,
      }),
      async (req) => ok(await svc.list(req.caller, req.params.analysis_id, req.query.function_ids)),
    );

    app.get(
      forFunction,
      operation(tags, 'getFunctionDataTypes', E.one, [404], { params: OneFunction }),
      async (req) => {
        const { data, message } = await svc.get(req.caller, req.params.analysis_id, req.params.function_id);
        return ok(data, message);
      },
    );

    app.put(
      forFunction,
      operation(tags, 'updateFunctionDataTypes', E.one, [403, 404, 409], {
        params: OneFunction,
        body: UpdateFunctionDataTypes,
      }),
      async (req) => ok(await svc.update(req.caller, req.params.analysis_id, req.params.function_id, req.body)),
    );

    app.get(
      `${forFunction}/history`,
      operation(tags, 'getFunctionDataTypesHistory', E.history, [404], { params: OneFunction }),
      async (req) => ok(await svc.history(req.caller, req.params.analysis_id, req.params.function_id)),
    );

    app.post(
      '/v2/functions/data_types',
      operation(tags, 'generateFunctionDataTypesForFunctions', E.statuses, [404, 409], {
        body: FunctionDataTypesParams,
        code: 201,
      }),
      async (req, reply) => reply.status(201).send(ok(await svc.generateMany(req.caller, req.body.function_ids))),
    );

    app.get(
      '/v2/functions/data_types',
      operation(tags, 'listFunctionDataTypesForFunctions', E.list, [404], { querystring: FunctionIdsFilter }),
      async (req) => ok(await svc.listMany(req.caller, req.query.function_ids)),
    );
  };
