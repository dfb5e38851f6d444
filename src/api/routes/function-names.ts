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
import { operation } from './schema.js';

const FunctionId = IdParam('function_id');
const tags = ['FunctionsRenamingHistory'];

export const functionNamesRoutes =
  (svc: FunctionNamesService): FastifyPluginAsyncTypebox =>
  async (app) => {
    app.post(
      '/v2/functions/rename/batch',
      operation(tags, 'batchRenameFunction', BaseResponse, [403, 404], { body: FunctionsListRename }),
      async (req) => ok(await svc.rename(req.caller, req.body.functions), 'Functions renamed'),
    );

    app.post(
      '/v2/functions/rename/:function_id',
      operation(tags, 'renameFunctionId', BaseResponse, [403, 404], { params: FunctionId, body: FunctionRename }),
      async (req) =>
        ok(await svc.rename(req.caller, [{ function_id: req.params.function_id, ...req.body }]), 'Function renamed'),
    );

    app.get(
      '/v2/functions/history/:function_id',
      operation(tags, 'getFunctionNameHistory', E.history, [404], { params: FunctionId }),
      async (req) => ok(await svc.history(req.caller, req.params.function_id)),
    );

    app.post(
      '/v2/functions/history/:function_id/:history_id',
      operation(tags, 'revertFunctionName', BaseResponse, [403, 404], {
        params: Type.Object({ function_id: Type.Integer(), history_id: Type.Integer() }),
      }),
      async (req) =>
        ok(await svc.revert(req.caller, req.params.function_id, req.params.history_id), 'Function name reverted'),
    );
  };
