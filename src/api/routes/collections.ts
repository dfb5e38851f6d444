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
import { operation } from './schema.js';

const tags = ['Collections'];

export const collectionsRoutes =
  (svc: CollectionsV2Service): FastifyPluginAsyncTypebox =>
  async (app) => {
    app.get(
      '/v2/collections',
      operation(tags, 'listCollections', E.list, [], { querystring: CollectionsListQuery }),
      async (req) => okPage(await svc.list(req.caller, req.query)),
    );

    app.post(
      '/v2/collections',
      operation(tags, 'createCollection', E.one, [404], { body: CollectionCreateRequest }),
      async (req) => ok(await svc.create(req.caller, req.body)),
    );

    app.get(
      '/v2/collections/:collection_id',
      operation(tags, 'getCollection', E.one, [404], { params: CollectionIdParam, querystring: CollectionGetQuery }),
      async (req) => okPage(await svc.get(req.caller, req.params.collection_id, req.query)),
    );

    app.patch(
      '/v2/collections/:collection_id',
      operation(tags, 'updateCollection', E.one, [403, 404], {
        params: CollectionIdParam,
        body: CollectionUpdateRequest,
      }),
      async (req) => ok(await svc.update(req.caller, req.params.collection_id, req.body)),
    );

    app.delete(
      '/v2/collections/:collection_id',
      operation(tags, 'deleteCollection', E.deleted, [403, 404], { params: CollectionIdParam }),
      async (req) => ok(await svc.delete(req.caller, req.params.collection_id)),
    );

    app.patch(
      '/v2/collections/:collection_id/binaries',
      operation(tags, 'updateCollectionBinaries', E.binaries, [403, 404], {
        params: CollectionIdParam,
        body: CollectionBinariesUpdateRequest,
      }),
      async (req) => ok(await svc.setBinaries(req.caller, req.params.collection_id, req.body.binaries)),
    );

    app.patch(
      '/v2/collections/:collection_id/tags',
      operation(tags, 'updateCollectionTags', E.tags, [403, 404], {
        params: CollectionIdParam,
        body: CollectionTagsUpdateRequest,
      }),
      async (req) => ok(await svc.setTags(req.caller, req.params.collection_id, req.body.tags)),
    );
  };
