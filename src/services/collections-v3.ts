import type { Static } from '@sinclair/typebox';
import type { V3CollectionsQuery, V3CreateCollectionBody, V3PatchCollectionBody } from '../contracts/index.js';
import type { CollectionWithOwner } from '../store/index.js';
import type { Caller } from './access.js';
import { collectionBinary, isOfficial, iso } from './collection-views.js';
import { COLLECTION_LIMITS, type CollectionsService } from './collections.js';
import { offsetPaged, v3Page } from './paging.js';

const core = (c: CollectionWithOwner) => ({
  collection_id: c.id,
  collection_name: c.name,
  collection_scope: c.scope,
  created_at: iso(c.created_at),
  description: c.description,
  // /v3 types team_id as a plain integer: 0 for an owner without a team.
  team_id: c.owner_team_id ?? 0,
  updated_at: iso(c.updated_at),
  user_id: c.user_id,
});

/** The /v3 collection operations' bodies (ListCollectionsOutputBody, CreateCollectionOutputBody …). */
export class CollectionsV3Service {
  constructor(private readonly collections: CollectionsService) {}

  /** Every member the caller can see (at most what one request may put in). */
  private async members(caller: Caller, id: number) {
    const rows = await this.collections.binaries(caller, id, { offset: 0, limit: COLLECTION_LIMITS.binaries });
    return rows.map(collectionBinary);
  }

  async list(caller: Caller, q: Static<typeof V3CollectionsQuery>) {
    const limit = q.limit ?? 20;
    const offset = q.offset ?? 0;
    const rows = await this.collections.list(caller, {
      search: q.search_term || null,
      flags: q.filters ?? [],
      orderBy: q.order_by ?? 'collection',
      order: q.order === 'DESC' ? 'desc' : 'asc',
      limit: limit + 1,
      offset,
    });
    const p = offsetPaged(rows, offset, limit);
    return v3Page({
      page: p.page,
      items: p.items.map((r) => ({
        collection_id: r.id,
        collection_name: r.name,
        collection_owner: r.username,
        collection_scope: r.scope,
        collection_size: Number(r.size),
        collection_tags: r.tags,
        creation: iso(r.created_at),
        description: r.description,
        official_collection: isOfficial(r),
        team_id: r.owner_team_id ?? 0,
        updated_at: iso(r.updated_at),
      })),
    });
  }

  async create(caller: Caller, body: Static<typeof V3CreateCollectionBody>) {
    const c = await this.collections.create(caller, {
      name: body.collection_name,
      description: body.description,
      scope: body.collection_scope,
      modelName: null,
      binaryIds: body.binaries ?? [],
      tags: body.tags ?? [],
    });
    return {
      ...core(c),
      binaries: await this.members(caller, c.id),
      tags: await this.collections.tagNames(c.id),
    };
  }

  async patch(caller: Caller, id: number, body: Static<typeof V3PatchCollectionBody>) {
    const c = await this.collections.update(caller, id, {
      name: body.collection_name,
      description: body.description,
      scope: body.collection_scope,
    });
    return { ...core(c), binary_count: await this.collections.binaryCount(caller, id) };
  }

  /** Replaces the binaries (null empties the collection); answers with the members the caller can see. */
  async replaceBinaries(caller: Caller, id: number, ids: number[] | null) {
    await this.collections.setBinaries(caller, id, ids ?? [], 'replace');
    return { binaries: await this.members(caller, id) };
  }

  async addBinaries(caller: Caller, id: number, ids: number[]): Promise<void> {
    await this.collections.setBinaries(caller, id, ids, 'add');
  }
}
