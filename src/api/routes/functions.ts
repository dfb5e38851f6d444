import { Type } from '@sinclair/typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import {
  FunctionEnvelopes as E,
  FunctionStringsQuery,
  FunctionsListQuery,
  IdParam,
  PageQuery,
  StringsQuery,
  Tuning,
} from '../../contracts/index.js';
import type { FunctionBlocksService, FunctionsService } from '../../services/index.js';
import { ok, okPage } from '../envelope.js';
import { operation } from './schema.js';

const AnalysisId = IdParam('analysis_id');
const FunctionId = IdParam('function_id');
const core = ['FunctionsCore'];
const results = ['AnalysesResultsMetadata'];

export const functionsRoutes =
  (svc: FunctionsService, blocks: FunctionBlocksService): FastifyPluginAsyncTypebox =>
  async (app) => {
    app.get(
      '/v2/analyses/:analysis_id/functions',
      operation(results, 'getAnalysisFunctionsPaginated', E.list, [404], {
        params: AnalysisId,
        querystring: PageQuery,
      }),
      async (req) => okPage(await svc.list(req.caller, req.params.analysis_id, req.query.page, req.query.page_size)),
    );

    app.get(
      '/v2/analyses/:analysis_id/functions/list',
      operation(results, 'getFunctionsList', E.legacyList, [404], {
        deprecated: true,
        params: AnalysisId,
        querystring: FunctionsListQuery,
      }),
      async (req) => okPage(await svc.legacyList(req.caller, req.params.analysis_id, req.query)),
    );

    app.get(
      '/v2/analyses/:analysis_id/func_maps',
      operation(['AnalysesCore'], 'getAnalysisFunctionMap', E.maps, [404], { params: AnalysisId, querystring: Tuning }),
      async (req) => ok(await svc.maps(req.caller, req.params.analysis_id)),
    );

    app.get(
      '/v2/analyses/:analysis_id/functions/strings',
      operation(core, 'getAnalysisStrings', E.strings, [404], { params: AnalysisId, querystring: StringsQuery }),
      async (req) => okPage(await svc.strings(req.caller, req.params.analysis_id, req.query)),
    );

    app.get(
      '/v2/analyses/:analysis_id/functions/strings/status',
      operation(core, 'getAnalysisStringsStatus', E.stringsStatus, [404], { params: AnalysisId }),
      async (req) => ok(await svc.stringsStatus(req.caller, req.params.analysis_id)),
    );

    app.get(
      '/v2/analyses/:analysis_id/xrefs/:vaddr',
      operation(['AnalysesXRefs'], 'getXrefByVaddr', E.xrefs, [404], {
        params: Type.Object({ analysis_id: Type.Integer(), vaddr: Type.Integer() }),
      }),
      async (req) => ok(await svc.xrefs(req.caller, req.params.analysis_id, req.params.vaddr)),
    );

    app.get(
      '/v2/functions/callees_callers',
      operation(core, 'getFunctionCalleesCallersBulk', E.calleesCallersList, [404], {
        querystring: Type.Object({ function_ids: Type.Array(Type.Integer()) }),
      }),
      async (req) => ok(await svc.bulkCalleesCallers(req.caller, req.query.function_ids)),
    );

    app.get(
      '/v2/functions/:function_id',
      operation(core, 'getFunctionDetails', E.detail, [404], { params: FunctionId }),
      async (req) => ok(await svc.detail(req.caller, req.params.function_id)),
    );

    app.get(
      '/v2/functions/:function_id/callees_callers',
      operation(core, 'getFunctionCalleesCallers', E.calleesCallers, [404], { params: FunctionId }),
      async (req) => ok(await svc.calleesCallers(req.caller, req.params.function_id)),
    );

    app.get(
      '/v2/functions/:function_id/strings',
      operation(core, 'getFunctionStrings', E.functionStrings, [404], {
        params: FunctionId,
        querystring: FunctionStringsQuery,
      }),
      async (req) => okPage(await svc.functionStrings(req.caller, req.params.function_id, req.query)),
    );

    app.get(
      '/v2/functions/:function_id/blocks',
      operation(core, 'getFunctionBlocks', E.blocks, [404], { params: FunctionId }),
      async (req) => ok(await blocks.blocks(req.caller, req.params.function_id)),
    );
  };
