import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { IdParam } from '../../contracts/index.js';
import * as schemas from '../../contracts/v3-data-types.js';
import type { AnalysisDataTypesService, FunctionSignaturesService } from '../../services/index.js';
import { allErrorsValidatorCompiler } from '../validation.js';
import { v3Operation as operation } from './schema.js';

const AnalysisId = IdParam('analysis_id');
const tags = ['FunctionsDataTypes'];

/** The spec's /v3 data-type and signature operations; their errors are /v3 bodies (api/v3-errors.ts). */
export const v3DataTypesRoutes =
  (types: AnalysisDataTypesService, signatures: FunctionSignaturesService): FastifyPluginAsyncTypebox =>
  async (app) => {
    app.setValidatorCompiler(allErrorsValidatorCompiler);
    const table = '/v3/analyses/:analysis_id/data-types';

    app.get(
      table,
      operation(tags, 'v3ListAnalysisDataTypes', schemas.V3ListDataTypesOutput, [404], {
        params: AnalysisId,
        querystring: schemas.V3ListDataTypesQuery,
      }),
      async (req) => types.list(req.caller, req.params.analysis_id, req.query),
    );

    app.post(
      table,
      operation(tags, 'v3CreateAnalysisDataTypes', schemas.V3DataTypesOutput, [403, 404, 409], {
        params: AnalysisId,
        body: schemas.V3CreateDataTypesBody,
        code: 201,
      }),
      async (req, reply) => reply.status(201).send(await types.create(req.caller, req.params.analysis_id, req.body)),
    );

    app.put(
      table,
      operation(tags, 'v3UpdateAnalysisDataTypes', schemas.V3DataTypesOutput, [403, 404, 409], {
        params: AnalysisId,
        body: schemas.V3UpdateDataTypesBody,
      }),
      async (req) => types.update(req.caller, req.params.analysis_id, req.body),
    );

    app.get(
      `${table}/:data_type_id/functions`,
      operation(tags, 'v3ListDataTypeFunctions', schemas.V3DataTypeFunctions, [404], {
        params: schemas.V3DataTypeParams,
        querystring: schemas.V3DataTypeFunctionsQuery,
      }),
      async (req) => types.functions(req.caller, req.params.analysis_id, req.params.data_type_id, req.query),
    );

    app.put(
      '/v3/analyses/:analysis_id/functions/:function_id/signature',
      operation(tags, 'v3UpdateFunctionSignature', schemas.V3FunctionSignature, [403, 404], {
        params: schemas.V3FunctionParams,
        body: schemas.V3UpdateSignatureBody,
      }),
      async (req) => signatures.update(req.caller, req.params.analysis_id, req.params.function_id, req.body),
    );

    app.post(
      '/v3/analyses/:analysis_id/signatures/copy',
      operation(tags, 'v3CopyFunctionSignatures', schemas.V3CopySignaturesOutput, [403, 404, 409], {
        params: AnalysisId,
        body: schemas.V3CopySignaturesBody,
      }),
      async (req) => signatures.copy(req.caller, req.params.analysis_id, req.body),
    );

    app.get(
      '/v3/functions/signatures',
      operation(tags, 'v3ListFunctionSignatures', schemas.V3ListSignaturesOutput, [404], {
        querystring: schemas.V3ListSignaturesQuery,
      }),
      async (req) => signatures.list(req.caller, req.query),
    );
  };
