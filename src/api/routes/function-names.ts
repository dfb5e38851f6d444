import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import {
  BaseResponse,
  FunctionNameEnvelopes as E,
  FunctionRename,
  FunctionsListRename,
  IdParam,
} from '../../contracts/index.js';
import type { FunctionNamesService } from '../../services/index.js';
import { ok } from '../envelope.js';
import { responses, security } from './schema.js';

const FunctionId = IdParam('function_id');
const tags = ['FunctionsRenamingHistory'];

export const functionNamesRoutes =
  (svc: FunctionNamesService): FastifyPluginAsyncTypebox =>
  async (app) => {
    app.post(
      '/v2/functions/rename/batch',
      {
        schema: {
          operationId: 'batchRenameFunction',
          tags,
          security,
          body: FunctionsListRename,
          response: responses(200, BaseResponse, [403, 404]),
        },
      },
      async (req) => ok(await svc.rename(req.caller, req.body.functions), 'Functions renamed'),
    );

    app.post(
      '/v2/functions/rename/:function_id',
      {
        schema: {
          operationId: 'renameFunctionId',
          tags,
          security,
          params: FunctionId,
          body: FunctionRename,
          response: responses(200, BaseResponse, [403, 404]),
        },
      },
      async (req) =>
        ok(await svc.rename(req.caller, [{ function_id: req.params.function_id, ...req.body }]), 'Function renamed'),
    );

    app.get(
      '/v2/functions/history/:function_id',
      {
        schema: {
          operationId: 'getFunctionNameHistory',
          tags,
          security,
          params: FunctionId,
          response: responses(200, E.history, [404]),
        },
      },
      async (req) => ok(await svc.history(req.caller, req.params.function_id)),
    );

    app.post(
      '/v2/functions/history/:function_id/:history_id',
      {
        schema: {
          operationId: 'revertFunctionName',
          tags,
          security,
          params: Type.Object({ function_id: Type.Integer(), history_id: Type.Integer() }),
          response: responses(200, BaseResponse, [403, 404]),
        },
      },
      async (req) =>
        ok(await svc.revert(req.caller, req.params.function_id, req.params.history_id), 'Function name reverted'),
    );
  };
