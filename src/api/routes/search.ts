import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import {
  SearchBinariesQuery,
  SearchCollectionsQuery,
  SearchEnvelopes as E,
  SearchFunctionsQuery,
  SearchTagsQuery,
} from '../../contracts/index.js';
import { pageWindow, type SearchService } from '../../services/index.js';
import { okPage } from '../envelope.js';
import { operation } from './schema.js';

const tags = ['Search'];

/** A page of search results in the envelope: `{data: {results}, meta: {pagination}}`. */
const results = <T>(p: { items: T[]; page: Parameters<typeof okPage>[0]['page'] }) =>
  okPage({ data: { results: p.items }, page: p.page });

export const searchRoutes =
  (svc: SearchService): FastifyPluginAsyncTypebox =>
  async (app) => {
    app.get(
      '/v2/search/functions',
      operation(tags, 'searchFunctions', E.functions, [], { querystring: SearchFunctionsQuery }),
      async (req) =>
        results(await svc.functions(req.caller, req.query, pageWindow(req.query.page, req.query.page_size))),
    );

    app.get(
      '/v2/search/binaries',
      operation(tags, 'searchBinaries', E.binaries, [], { querystring: SearchBinariesQuery }),
      async (req) =>
        results(await svc.binaries(req.caller, req.query, pageWindow(req.query.page, req.query.page_size))),
    );

    app.get(
      '/v2/search/collections',
      operation(tags, 'searchCollections', E.collections, [404], { querystring: SearchCollectionsQuery }),
      async (req) =>
        results(await svc.collectionsV2(req.caller, req.query, pageWindow(req.query.page, req.query.page_size))),
    );

    app.get(
      '/v2/search/tags',
      operation(tags, 'searchTags', E.tags, [], { querystring: SearchTagsQuery }),
      async (req) =>
        results(await svc.tags(req.caller, req.query.partial_name, pageWindow(req.query.page, req.query.page_size))),
    );
  };
