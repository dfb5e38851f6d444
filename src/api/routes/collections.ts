import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import {
  CollectionBinariesUpdateRequest,
  CollectionCreateRequest,
  CollectionEnvelopes as E,
  CollectionGetQuery,
  CollectionIdParam,
  CollectionsListQuery,
  CollectionTagsUpdateRequest,
  CollectionUpdateRequest,
} from '../../contracts/index.js';
import type { CollectionsV2Service } from '../../services/index.js';
import { ok, okPage } from '../envelope.js';
import { responses, security } from './schema.js';

const tags = ['Collections'];

export const collectionsRoutes =
  (svc: CollectionsV2Service): FastifyPluginAsyncTypebox =>
  async (app) => {
    app.get(
      '/v2/collections',
      {
        schema: {
          operationId: 'listCollections',
          tags,
          security,
          querystring: CollectionsListQuery,
          response: responses(200, E.list),
        },
      },
      async (req) => okPage(await svc.list(req.caller, req.query)),
    );

    app.post(
      '/v2/collections',
      {
        schema: {
          operationId: 'createCollection',
          tags,
          security,
          body: CollectionCreateRequest,
          response: responses(200, E.one, [404]),
        },
      },
      async (req) => ok(await svc.create(req.caller, req.body)),
    );

    app.get(
      '/v2/collections/:collection_id',
      {
        schema: {
          operationId: 'getCollection',
          tags,
          security,
          params: CollectionIdParam,
          querystring: CollectionGetQuery,
          response: responses(200, E.one, [404]),
        },
      },
      async (req) => okPage(await svc.get(req.caller, req.params.collection_id, req.query)),
    );

    app.patch(
      '/v2/collections/:collection_id',
      {
        schema: {
          operationId: 'updateCollection',
          tags,
          security,
          params: CollectionIdParam,
          body: CollectionUpdateRequest,
          response: responses(200, E.one, [403, 404]),
        },
      },
      async (req) => ok(await svc.update(req.caller, req.params.collection_id, req.body)),
    );

    app.delete(
      '/v2/collections/:collection_id',
      {
        schema: {
          operationId: 'deleteCollection',
          tags,
          security,
          params: CollectionIdParam,
          response: responses(200, E.deleted, [403, 404]),
        },
      },
      async (req) => ok(await svc.delete(req.caller, req.params.collection_id)),
    );

    app.patch(
      '/v2/collections/:collection_id/binaries',
      {
        schema: {
          operationId: 'updateCollectionBinaries',
          tags,
          security,
          params: CollectionIdParam,
          body: CollectionBinariesUpdateRequest,
          response: responses(200, E.binaries, [403, 404]),
        },
      },
      async (req) => ok(await svc.setBinaries(req.caller, req.params.collection_id, req.body.binaries)),
    );

    app.patch(
      '/v2/collections/:collection_id/tags',
      {
        schema: {
          operationId: 'updateCollectionTags',
          tags,
          security,
          params: CollectionIdParam,
          body: CollectionTagsUpdateRequest,
          response: responses(200, E.tags, [403, 404]),
        },
      },
      async (req) => ok(await svc.setTags(req.caller, req.params.collection_id, req.body.tags)),
    );
  };
