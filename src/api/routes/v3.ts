import type { TSchema } from '@sinclair/typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import {
  APIError,
  V3,
  V3AddBinariesBody,
  V3BinariesOutput,
  V3CollectionIdParam,
  V3CollectionsQuery,
  V3CreateCollectionBody,
  V3CreateCollectionOutput,
  V3PatchBinariesBody,
  V3PatchCollectionBody,
  V3PatchCollectionOutput,
  V3SearchBinariesQuery,
  V3SearchFunctionsQuery,
  V3SearchTagsQuery,
} from '../../contracts/index.js';
import { v3Page, type CollectionsV3Service, type SearchService } from '../../services/index.js';
import { allErrorsValidatorCompiler } from '../validation.js';

const security = [{ APIKey: [] }];

/** A /v3 response map: the success body, and the APIError body for each error status (422 always). */
function responses(code: number, success: TSchema | null, errorCodes: number[] = []) {
  const out: Record<number, TSchema> = success === null ? {} : { [code]: success };
  for (const c of [...errorCodes, 422]) out[c] = APIError;
  return out;
}

const window = (q: { limit?: number; offset?: number }) => ({ offset: q.offset ?? 0, limit: q.limit ?? 10 });

/** The spec's /v3 collection and search operations; their errors are /v3 bodies (api/v3-errors.ts). */
export const v3Routes =
  (collections: CollectionsV3Service, search: SearchService): FastifyPluginAsyncTypebox =>
  async (app) => {
    app.setValidatorCompiler(allErrorsValidatorCompiler);
    const tags = ['Collections'];

    app.get(
      '/v3/collections',
      {
        schema: {
          operationId: 'v3ListCollections',
          tags,
          security,
          querystring: V3CollectionsQuery,
          response: responses(200, V3.collections),
        },
      },
      async (req) => collections.list(req.caller, req.query),
    );

    app.post(
      '/v3/collections',
      {
        schema: {
          operationId: 'v3CreateCollection',
          tags,
          security,
          body: V3CreateCollectionBody,
          response: responses(201, V3CreateCollectionOutput, [404]),
        },
      },
      async (req, reply) => reply.status(201).send(await collections.create(req.caller, req.body)),
    );

    app.patch(
      '/v3/collections/:collection_id',
      {
        schema: {
          operationId: 'v3PatchCollection',
          tags,
          security,
          params: V3CollectionIdParam,
          body: V3PatchCollectionBody,
          response: responses(200, V3PatchCollectionOutput, [403, 404]),
        },
      },
      async (req) => collections.patch(req.caller, req.params.collection_id, req.body),
    );

    app.patch(
      '/v3/collections/:collection_id/binaries',
      {
        schema: {
          operationId: 'v3PatchCollectionBinaries',
          tags,
          security,
          params: V3CollectionIdParam,
          body: V3PatchBinariesBody,
          response: responses(200, V3BinariesOutput, [403, 404]),
        },
      },
      async (req) => collections.replaceBinaries(req.caller, req.params.collection_id, req.body.binaries),
    );

    app.post(
      '/v3/collections/:collection_id/binaries',
      {
        schema: {
          operationId: 'v3AddCollectionBinaries',
          tags,
          security,
          params: V3CollectionIdParam,
          body: V3AddBinariesBody,
          response: { 204: { type: 'null', description: 'Added' }, ...responses(204, null, [403, 404]) },
        },
      },
      async (req, reply) => {
        await collections.addBinaries(req.caller, req.params.collection_id, req.body.binaries);
        return reply.status(204).send();
      },
    );

    app.get(
      '/v3/binaries',
      {
        schema: {
          operationId: 'v3SearchBinaries',
          tags: ['Binaries'],
          security,
          querystring: V3SearchBinariesQuery,
          response: responses(200, V3.binaries),
        },
      },
      async (req) => v3Page(await search.binariesV3(req.caller, req.query, window(req.query))),
    );

    app.get(
      '/v3/functions',
      {
        schema: {
          operationId: 'v3SearchFunctions',
          tags: ['FunctionsCore'],
          security,
          querystring: V3SearchFunctionsQuery,
          response: responses(200, V3.functions),
        },
      },
      async (req) => v3Page(await search.functions(req.caller, req.query, window(req.query))),
    );

    app.get(
      '/v3/tags',
      {
        schema: {
          operationId: 'v3SearchTags',
          tags: ['AnalysesCore'],
          security,
          querystring: V3SearchTagsQuery,
          response: responses(200, V3.tags),
        },
      },
      async (req) => v3Page(await search.tags(req.caller, req.query.partial_name, window(req.query))),
    );
  };
