import type { Static } from '@sinclair/typebox';
import type {
  CollectionCreateRequest,
  CollectionGetQuery,
  CollectionsListQuery,
  CollectionUpdateRequest,
} from '../contracts/index.js';
import { MODEL_NAMES, type CollectionScope } from '../contracts/index.js';
import { errors } from '../shared/errors.js';
import type { CollectionWithOwner } from '../store/index.js';
import type { Caller } from './access.js';
import { collectionBinary, collectionModel, isOfficial, iso } from './collection-views.js';
import type { CollectionsService } from './collections.js';
import { paged } from './functions.js';
import { offsetPaged } from './paging.js';

const response = (c: CollectionWithOwner) => ({
  collection_id: c.id,
  collection_name: c.name,
  description: c.description,
  model_id: collectionModel(c).model_id,
  user_id: c.user_id,
  team_id: c.owner_team_id,
  collection_scope: c.scope as CollectionScope,
  created_at: iso(c.created_at),
  updated_at: iso(c.updated_at),
});

/** The /v2 collection operations' payloads (CollectionResponse, ListCollectionResults …). */
export class CollectionsV2Service {
  constructor(private readonly collections: CollectionsService) {}

  async create(caller: Caller, body: Static<typeof CollectionCreateRequest>) {
    const modelName = MODEL_NAMES[body.model_id - 1];
    if (modelName === undefined)
      throw errors
        .validation()
        .withFields([
          { field: 'body.model_id', reason: `is not a model: 1 to ${MODEL_NAMES.length} (GET /v2/models)` },
        ]);
    const binaries = [...new Set(body.binaries ?? [])];
    const c = await this.collections.create(caller, {
      name: body.collection_name,
      description: body.description,
      scope: body.collection_scope ?? 'PRIVATE',
      modelName,
      binaryIds: binaries,
      tags: body.tags ?? [],
    });
    return { ...response(c), tags: await this.collections.tagNames(c.id), binaries };
  }

  async get(caller: Caller, id: number, q: Static<typeof CollectionGetQuery>) {
    const c = await this.collections.visible(caller, id);
    const page = q.page_number ?? 1;
    const size = q.page_size ?? 10;
    let binaries = null;
    let pagination = { page_size: size, page_number: page, has_next_page: false };
    if (q.include_binaries) {
      const rows = await this.collections.binaries(caller, id, {
        offset: (page - 1) * size,
        limit: size + 1,
        search: q.binary_search_str ?? null,
      });
      const p = paged(rows, page, size);
      binaries = p.items.map(collectionBinary);
      pagination = p.page;
    }
    const tags = q.include_tags ? await this.collections.tagNames(id) : null;
    return { data: { ...response(c), tags, binaries }, page: pagination };
  }

  async list(caller: Caller, q: Static<typeof CollectionsListQuery>) {
    const limit = q.limit ?? 20;
    const offset = q.offset ?? 0;
    const rows = await this.collections.list(caller, {
      search: q.search_term || null,
      flags: q.filters ?? [],
      orderBy: q.order_by ?? 'created',
      order: q.order === 'ASC' ? 'asc' : 'desc',
      limit: limit + 1,
      offset,
    });
    const p = offsetPaged(rows, offset, limit);
    const results = p.items.map((r) => ({
      collection_name: r.name,
      description: r.description,
      collection_scope: r.scope,
      collection_owner: r.username,
      official_collection: isOfficial(r),
      collection_tags: r.tags,
      collection_size: Number(r.size),
      collection_id: r.id,
      creation: iso(r.created_at),
      model_name: collectionModel(r).model_name,
      team_id: r.owner_team_id,
    }));
    return { data: { results }, page: p.page };
  }

  async update(caller: Caller, id: number, body: Static<typeof CollectionUpdateRequest>) {
    const c = await this.collections.update(caller, id, {
      name: body.collection_name ?? undefined,
      description: body.description ?? undefined,
      scope: body.collection_scope ?? undefined,
    });
    return response(c);
  }

  async delete(caller: Caller, id: number) {
    await this.collections.delete(caller, id);
    return true;
  }

  /** Replaces the binaries; answers with every member the owner can see. */
  async setBinaries(caller: Caller, id: number, ids: number[]) {
    await this.collections.setBinaries(caller, id, ids, 'replace');
    const rows = await this.collections.binaries(caller, id, { offset: 0, limit: ids.length });
    return { binaries: rows.map(collectionBinary) };
  }

  async setTags(caller: Caller, id: number, tags: string[]) {
    return { tags: await this.collections.setTags(caller, id, tags) };
  }
}
