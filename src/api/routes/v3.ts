import { Type } from '@sinclair/typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import {
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
import { v3Operation as operation } from './schema.js';

const window = (q: { limit?: number; offset?: number }) => ({ offset: q.offset ?? 0, limit: q.limit ?? 10 });

/** The spec's /v3 collection and search operations; their errors are /v3 bodies (api/v3-errors.ts). */
export const v3Routes =
  (collections: CollectionsV3Service, search: SearchService): FastifyPluginAsyncTypebox =>
  async (app) => {
    app.setValidatorCompiler(allErrorsValidatorCompiler);
    const tags = ['Collections'];

    app.get(
      '/v3/collections',
      operation(tags, 'v3ListCollections', V3.collections, [], { querystring: V3CollectionsQuery }),
      async (req) => collections.list(req.caller, req.query),
    );

    app.post(
      '/v3/collections',
      operation(tags, 'v3CreateCollection', V3CreateCollectionOutput, [404], {
        body: V3CreateCollectionBody,
        code: 201,
      }),
      async (req, reply) => reply.status(201).send(await collections.create(req.caller, req.body)),
    );

    app.patch(
      '/v3/collections/:collection_id',
      operation(tags, 'v3PatchCollection', V3PatchCollectionOutput, [403, 404], {
        params: V3CollectionIdParam,
        body: V3PatchCollectionBody,
      }),
      async (req) => collections.patch(req.caller, req.params.collection_id, req.body),
    );

    app.patch(
      '/v3/collections/:collection_id/binaries',
      operation(tags, 'v3PatchCollectionBinaries', V3BinariesOutput, [403, 404], {
        params: V3CollectionIdParam,
        body: V3PatchBinariesBody,
      }),
      async (req) => collections.replaceBinaries(req.caller, req.params.collection_id, req.body.binaries),
    );

    app.post(
      '/v3/collections/:collection_id/binaries',
      operation(tags, 'v3AddCollectionBinaries', Type.Null({ description: 'Added' }), [403, 404], {
        params: V3CollectionIdParam,
        body: V3AddBinariesBody,
        code: 204,
      }),
      async (req, reply) => {
        await collections.addBinaries(req.caller, req.params.collection_id, req.body.binaries);
        return reply.status(204).send();
      },
    );

    app.get(
      '/v3/binaries',
      operation(['Binaries'], 'v3SearchBinaries', V3.binaries, [], { querystring: V3SearchBinariesQuery }),
      async (req) => v3Page(await search.binariesV3(req.caller, req.query, window(req.query))),
    );

    app.get(
      '/v3/functions',
      operation(['FunctionsCore'], 'v3SearchFunctions', V3.functions, [], { querystring: V3SearchFunctionsQuery }),
      async (req) => v3Page(await search.functions(req.caller, req.query, window(req.query))),
    );

    app.get(
      '/v3/tags',
      operation(['AnalysesCore'], 'v3SearchTags', V3.tags, [], { querystring: V3SearchTagsQuery }),
      async (req) => v3Page(await search.tags(req.caller, req.query.partial_name, window(req.query))),
    );
  };
