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
import { responses, security } from './schema.js';

const tags = ['Search'];

/** A page of search results in the envelope: `{data: {results}, meta: {pagination}}`. */
const results = <T>(p: { items: T[]; page: Parameters<typeof okPage>[0]['page'] }) =>
  okPage({ data: { results: p.items }, page: p.page });

export const searchRoutes =
  (svc: SearchService): FastifyPluginAsyncTypebox =>
  async (app) => {
    app.get(
      '/v2/search/functions',
      {
        schema: {
          operationId: 'searchFunctions',
          tags,
          security,
          querystring: SearchFunctionsQuery,
          response: responses(200, E.functions),
        },
      },
      async (req) =>
        results(await svc.functions(req.caller, req.query, pageWindow(req.query.page, req.query.page_size))),
    );

    app.get(
      '/v2/search/binaries',
      {
        schema: {
          operationId: 'searchBinaries',
          tags,
          security,
          querystring: SearchBinariesQuery,
          response: responses(200, E.binaries),
        },
      },
      async (req) =>
        results(await svc.binaries(req.caller, req.query, pageWindow(req.query.page, req.query.page_size))),
    );

    app.get(
      '/v2/search/collections',
      {
        schema: {
          operationId: 'searchCollections',
          tags,
          security,
          querystring: SearchCollectionsQuery,
          response: responses(200, E.collections, [404]),
        },
      },
      async (req) =>
        results(await svc.collectionsV2(req.caller, req.query, pageWindow(req.query.page, req.query.page_size))),
    );

    app.get(
      '/v2/search/tags',
      {
        schema: {
          operationId: 'searchTags',
          tags,
          security,
          querystring: SearchTagsQuery,
          response: responses(200, E.tags),
        },
      },
      async (req) =>
        results(await svc.tags(req.caller, req.query.partial_name, pageWindow(req.query.page, req.query.page_size))),
    );
  };
