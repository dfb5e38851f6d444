import type { Static } from '@sinclair/typebox';
import { modelId, type SearchCollectionsQuery, type V3SearchBinariesQuery } from '../contracts/index.js';
import type { BinarySearch, Store } from '../store/index.js';
import type { Caller } from './access.js';
import { collectionModel, iso, namesBy } from './collection-views.js';
import { viewer, type CollectionsService } from './collections.js';
import { offsetPaged } from './paging.js';
import { errors } from '../shared/errors.js';

/** Most results one search page returns; /v2's page_size has no maximum in the contract, so it is clamped. */
export const SEARCH_PAGE_MAX = 100;

export interface Window {
  offset: number;
  limit: number;
}

/** /v2's page/page_size as an offset window, page_size clamped to SEARCH_PAGE_MAX. */
export const pageWindow = (page = 1, pageSize = 10): Window => {
  const limit = Math.min(pageSize, SEARCH_PAGE_MAX);
  return { offset: (page - 1) * limit, limit };
};

const fetchWindow = (w: Window) => ({ offset: w.offset, limit: w.limit + 1 });

/**
 * Searches by name over what the caller may see (the same visibility as every other read): functions and
 * binaries of visible analyses, visible collections, and tags in use on either. Results come a page at a
 * time as `{items, page}`; the /v2 routes wrap them in the envelope, the /v3 routes in a page body.
 */
export class SearchService {
  constructor(
    private readonly store: Store,
    private readonly collections: CollectionsService,
  ) {}

  async functions(caller: Caller, q: { partial_name?: string; model_name?: string }, w: Window) {
    const rows = await this.store.search.functions(viewer(caller), {
      ...fetchWindow(w),
      name: q.partial_name ?? null,
      modelName: q.model_name ?? null,
    });
    return offsetPaged(
      rows.map((f) => ({
        function_id: f.id,
        function_name: f.name,
        binary_name: f.binary_name,
        created_at: iso(f.created_at),
        model_id: modelId(f.model_name),
        model_name: f.model_name,
        owned_by: f.username,
      })),
      w.offset,
      w.limit,
    );
  }

  /** `user_files_only` keeps the caller's own analyses; `user_ids` (/v3) keeps those of the users named. */
  async binaries(caller: Caller, q: Partial<Static<typeof V3SearchBinariesQuery>>, w: Window) {
    let userIds = q.user_ids ?? null;
    if (q.user_files_only) userIds = (userIds ?? [caller.id]).filter((id) => id === caller.id);
    const filter: BinarySearch = {
      ...fetchWindow(w),
      name: q.partial_name ?? null,
      sha256: q.partial_sha256 ?? null,
      tags: q.tags ?? null,
      modelName: q.model_name ?? null,
      userIds,
      excludeBinaryId: q.exclude_binary_id ?? null,
    };
    const rows = await this.store.search.binaries(viewer(caller), filter);
    const tags = namesBy(await this.store.analyses.tags(rows.map((r) => r.analysis_id)), 'analysis_id');
    return offsetPaged(
      rows.map((b) => ({
        binary_id: b.binary_id,
        binary_name: b.binary_name,
        analysis_id: b.analysis_id,
        sha_256_hash: b.sha256,
        tags: tags.get(b.analysis_id) ?? [],
        created_at: iso(b.created_at),
        model_id: modelId(b.model_name),
        model_name: b.model_name,
        owned_by: b.username,
      })),
      w.offset,
      w.limit,
    );
  }

  /** GET /v3/binaries: as `binaries`, but a search must name something to look for (422 otherwise). */
  async binariesV3(caller: Caller, q: Static<typeof V3SearchBinariesQuery>, w: Window) {
    if (!q.partial_name && !q.partial_sha256 && !q.tags?.length && !q.model_name)
      throw errors.validation().withFields([
        {
          field: 'querystring',
          reason: 'at least one of partial_name, partial_sha256, tags, model_name is required',
        },
      ]);
    return this.binaries(caller, q, w);
  }

  /** /v2 only; an unknown `model_name` is a 404 (the one search the reference gives a 404). */
  async collectionsV2(caller: Caller, q: Static<typeof SearchCollectionsQuery>, w: Window) {
    const rows = await this.collections.list(caller, {
      ...fetchWindow(w),
      name: q.partial_collection_name ?? null,
      binaryName: q.partial_binary_name ?? null,
      binarySha256: q.partial_binary_sha256 ?? null,
      tags: q.tags ?? null,
      modelName: q.model_name ?? null,
      flags: q.filters ?? [],
      orderBy: q.order_by ?? 'created',
      order: q.order_by_direction === 'ASC' ? 'asc' : 'desc',
    });
    return offsetPaged(
      rows.map((c) => ({
        collection_id: c.id,
        collection_name: c.name,
        scope: c.scope,
        last_updated_at: iso(c.updated_at),
        created_at: iso(c.created_at),
        ...collectionModel(c),
        owned_by: c.username,
        tags: c.tags,
        size: Number(c.size),
        description: c.description,
        team_id: c.owner_team_id,
      })),
      w.offset,
      w.limit,
    );
  }

  async tags(caller: Caller, partialName: string, w: Window) {
    const rows = await this.store.search.tags(viewer(caller), { ...fetchWindow(w), name: partialName });
    return offsetPaged(
      rows.map((t) => ({ tag_id: t.id, tag: t.name })),
      w.offset,
      w.limit,
    );
  }
}
