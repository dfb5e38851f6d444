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
import { responses, security } from './schema.js';

const AnalysisId = IdParam('analysis_id');
const FunctionId = IdParam('function_id');
const core = ['FunctionsCore'];
const results = ['AnalysesResultsMetadata'];

export const functionsRoutes =
  (svc: FunctionsService, blocks: FunctionBlocksService): FastifyPluginAsyncTypebox =>
  async (app) => {
    app.get(
      '/v2/analyses/:analysis_id/functions',
      {
        schema: {
          operationId: 'getAnalysisFunctionsPaginated',
          tags: results,
          security,
          params: AnalysisId,
          querystring: PageQuery,
          response: responses(200, E.list, [404]),
        },
      },
      async (req) => okPage(await svc.list(req.caller, req.params.analysis_id, req.query.page, req.query.page_size)),
    );

    app.get(
      '/v2/analyses/:analysis_id/functions/list',
      {
        schema: {
          operationId: 'getFunctionsList',
          tags: results,
          security,
          deprecated: true,
          params: AnalysisId,
          querystring: FunctionsListQuery,
          response: responses(200, E.legacyList, [404]),
        },
      },
      async (req) => okPage(await svc.legacyList(req.caller, req.params.analysis_id, req.query)),
    );

    app.get(
      '/v2/analyses/:analysis_id/func_maps',
      {
        schema: {
          operationId: 'getAnalysisFunctionMap',
          tags: ['AnalysesCore'],
          security,
          params: AnalysisId,
          querystring: Tuning,
          response: responses(200, E.maps, [404]),
        },
      },
      async (req) => ok(await svc.maps(req.caller, req.params.analysis_id)),
    );

    app.get(
      '/v2/analyses/:analysis_id/functions/strings',
      {
        schema: {
          operationId: 'getAnalysisStrings',
          tags: core,
          security,
          params: AnalysisId,
          querystring: StringsQuery,
          response: responses(200, E.strings, [404]),
        },
      },
      async (req) => okPage(await svc.strings(req.caller, req.params.analysis_id, req.query)),
    );

    app.get(
      '/v2/analyses/:analysis_id/functions/strings/status',
      {
        schema: {
          operationId: 'getAnalysisStringsStatus',
          tags: core,
          security,
          params: AnalysisId,
          response: responses(200, E.stringsStatus, [404]),
        },
      },
      async (req) => ok(await svc.stringsStatus(req.caller, req.params.analysis_id)),
    );

    app.get(
      '/v2/analyses/:analysis_id/xrefs/:vaddr',
      {
        schema: {
          operationId: 'getXrefByVaddr',
          tags: ['AnalysesXRefs'],
          security,
          params: Type.Object({ analysis_id: Type.Integer(), vaddr: Type.Integer() }),
          response: responses(200, E.xrefs, [404]),
        },
      },
      async (req) => ok(await svc.xrefs(req.caller, req.params.analysis_id, req.params.vaddr)),
    );

    app.get(
      '/v2/functions/callees_callers',
      {
        schema: {
          operationId: 'getFunctionCalleesCallersBulk',
          tags: core,
          security,
          querystring: Type.Object({ function_ids: Type.Array(Type.Integer()) }),
          response: responses(200, E.calleesCallersList, [404]),
        },
      },
      async (req) => ok(await svc.bulkCalleesCallers(req.caller, req.query.function_ids)),
    );

    app.get(
      '/v2/functions/:function_id',
      {
        schema: {
          operationId: 'getFunctionDetails',
          tags: core,
          security,
          params: FunctionId,
          response: responses(200, E.detail, [404]),
        },
      },
      async (req) => ok(await svc.detail(req.caller, req.params.function_id)),
    );

    app.get(
      '/v2/functions/:function_id/callees_callers',
      {
        schema: {
          operationId: 'getFunctionCalleesCallers',
          tags: core,
          security,
          params: FunctionId,
          response: responses(200, E.calleesCallers, [404]),
        },
      },
      async (req) => ok(await svc.calleesCallers(req.caller, req.params.function_id)),
    );

    app.get(
      '/v2/functions/:function_id/strings',
      {
        schema: {
          operationId: 'getFunctionStrings',
          tags: core,
          security,
          params: FunctionId,
          querystring: FunctionStringsQuery,
          response: responses(200, E.functionStrings, [404]),
        },
      },
      async (req) => okPage(await svc.functionStrings(req.caller, req.params.function_id, req.query)),
    );

    app.get(
      '/v2/functions/:function_id/blocks',
      {
        schema: {
          operationId: 'getFunctionBlocks',
          tags: core,
          security,
          params: FunctionId,
          response: responses(200, E.blocks, [404]),
        },
      },
      async (req) => ok(await blocks.blocks(req.caller, req.params.function_id)),
    );
  };
