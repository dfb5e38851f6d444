import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import {
  AnalysisOverviewEnvelope,
  CapabilityEnvelopes as E,
  CycloneDxDocument,
  IdParam,
} from '../../contracts/index.js';
import type { UnderstandingService } from '../../services/index.js';
import { ok } from '../envelope.js';
import { operation } from './schema.js';

const AnalysisId = IdParam('analysis_id');
const PdfBytes = Type.Unsafe<Buffer>({ type: 'string', format: 'binary', description: 'The report, application/pdf' });
const FunctionId = IdParam('function_id');
/** Not yet Complete, or not generated (analysis_config): 409 with the reason. */
const NOT_THERE = [404, 409];

export const understandingRoutes =
  (svc: UnderstandingService): FastifyPluginAsyncTypebox =>
  async (app) => {
    app.get(
      '/v2/analyses/:analysis_id/capabilities',
      operation(['AnalysesResultsMetadata'], 'getCapabilities', E.capabilities, NOT_THERE, { params: AnalysisId }),
      async (req) => ok(await svc.capabilities(req.caller, req.params.analysis_id)),
    );

    app.get(
      '/v2/functions/:function_id/capabilities',
      operation(['FunctionsCore'], 'getFunctionCapabilities', E.functionCapabilities, NOT_THERE, {
        params: FunctionId,
      }),
      async (req) => ok(await svc.functionCapabilities(req.caller, req.params.function_id)),
    );

    app.get(
      '/v2/analyses/:analysis_id/sbom',
      operation(['AnalysesResultsMetadata'], 'getSbom', E.sbom, NOT_THERE, { params: AnalysisId }),
      async (req) => ok(await svc.sbom(req.caller, req.params.analysis_id)),
    );

    app.get(
      '/v2/analyses/:analysis_id/sbom/cyclonedx',
      operation(['AnalysesResultsMetadata'], 'getSbomCycloneDx', CycloneDxDocument, NOT_THERE, { params: AnalysisId }),
      async (req, reply) => {
        const doc = await svc.cycloneDx(req.caller, req.params.analysis_id);
        return reply.type('application/vnd.cyclonedx+json; version=1.5').send(doc);
      },
    );

    app.get(
      '/v2/analyses/:analysis_id/vulnerabilities',
      operation(['AnalysesResultsMetadata'], 'getVulnerabilities', E.vulnerabilities, NOT_THERE, {
        params: AnalysisId,
      }),
      async (req) => ok(await svc.vulnerabilities(req.caller, req.params.analysis_id)),
    );

    app.get(
      '/v2/analyses/:analysis_id/overview',
      operation(['AnalysesResultsMetadata'], 'getAnalysisOverview', AnalysisOverviewEnvelope, NOT_THERE, {
        params: AnalysisId,
      }),
      async (req) => ok(await svc.overview(req.caller, req.params.analysis_id)),
    );

    app.get(
      '/v2/analyses/:analysis_id/pdf',
      // application/pdf bytes: Fastify sends a Buffer as it is, without the serializer.
      operation(['AnalysesResultsMetadata'], 'getPdf', PdfBytes, NOT_THERE, { params: AnalysisId }),
      async (req, reply) => {
        const { filename, bytes } = await svc.pdf(req.caller, req.params.analysis_id);
        return reply
          .type('application/pdf')
          .header('content-disposition', `attachment; filename="${filename}"`)
          .send(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength));
      },
    );
  };
