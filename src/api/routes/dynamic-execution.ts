import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { DynamicEventsQuery, DynamicExecutionEnvelopes as E, IdParam } from '../../contracts/index.js';
import type { DynamicExecutionService } from '../../services/index.js';
import { ok } from '../envelope.js';
import { operation } from './schema.js';

const AnalysisId = IdParam('analysis_id');
const DumpParams = Type.Composite([AnalysisId, Type.Object({ dump_name: Type.String() })]);
/** Hidden or missing (404); not asked for, pending or failed (409 with the reason). */
const NOT_THERE = [404, 409];
const TAGS = ['AnalysesDynamicExecution'];

export const dynamicExecutionRoutes =
  (svc: DynamicExecutionService): FastifyPluginAsyncTypebox =>
  async (app) => {
    const base = '/v2/analyses/:analysis_id/dynamic-execution';
    app.get(
      `${base}/status`,
      operation(TAGS, 'getDynamicExecutionStatus', E.status, NOT_THERE, { params: AnalysisId }),
      async (req) => ok(await svc.status(req.caller, req.params.analysis_id)),
    );
    app.get(
      `${base}/network-overview`,
      operation(TAGS, 'getNetworkOverview', E.networkOverview, NOT_THERE, { params: AnalysisId }),
      async (req) => ok(await svc.networkOverview(req.caller, req.params.analysis_id)),
    );
    app.get(
      `${base}/process-dumps`,
      operation(TAGS, 'getProcessDumps', E.processDumps, NOT_THERE, { params: AnalysisId }),
      async (req) => ok(await svc.processDumps(req.caller, req.params.analysis_id)),
    );
    app.get(
      `${base}/process-dumps/:dump_name`,
      operation(TAGS, 'getProcessDump', Type.Unknown(), NOT_THERE, { params: DumpParams }),
      async (req, reply) =>
        reply
          .type('application/octet-stream')
          .header('content-disposition', `attachment; filename="${req.params.dump_name.replace(/[^\w.-]/g, '_')}"`)
          .send(await svc.processDump(req.caller, req.params.analysis_id, req.params.dump_name)),
    );
    app.get(
      `${base}/process-registry`,
      operation(TAGS, 'getProcessRegistry', E.processRegistry, NOT_THERE, { params: AnalysisId }),
      async (req) => ok(await svc.processRegistry(req.caller, req.params.analysis_id)),
    );
    app.get(
      `${base}/process-tree`,
      operation(TAGS, 'getProcessTree', E.processTree, NOT_THERE, { params: AnalysisId }),
      async (req) => ok(await svc.processTree(req.caller, req.params.analysis_id)),
    );
    app.get(
      `${base}/events`,
      operation(TAGS, 'getDynamicExecutionEvents', E.events, NOT_THERE, {
        params: AnalysisId,
        querystring: DynamicEventsQuery,
      }),
      async (req) => ok(await svc.events(req.caller, req.params.analysis_id, req.query)),
    );
    app.get(`${base}/ttps`, operation(TAGS, 'getTtps', E.ttps, NOT_THERE, { params: AnalysisId }), async (req) =>
      ok(await svc.ttps(req.caller, req.params.analysis_id)),
    );
  };
