// The spec's /v3 operations, shaped as ../shared/api/v3-notes.json records them (later versions of the API
// published them); where the notes have a gap the design follows the /v2 sibling (docs/decisions.md).
import { Type, type TSchema } from '@sinclair/typebox';
import { Nullable } from './envelope.js';
import { CollectionFilters, CollectionScopeSchema } from './collections.js';
import { enumOf, Order } from './enums.js';
import { FunctionSearchResult, TagSearchResult } from './search.js';

export const APIError = Type.Object({
  error: Type.Object({
    code: Type.String(),
    message: Type.String(),
    trace_id: Type.String(),
    detail: Type.Optional(Type.String()),
    doc_url: Type.Optional(Type.String()),
  }),
});

export const DateTime = Type.String({ format: 'date-time' });
const Offset = Type.Optional(Type.Integer({ minimum: 0, default: 0 }));

/** A /v3 page: the results and where they sit, with no envelope around them. */
const Page = <T extends TSchema>(item: T) =>
  Type.Object({
    has_next_page: Type.Boolean(),
    page_number: Type.Integer(),
    page_size: Type.Integer(),
    results: item,
  });

export const V3CollectionsQuery = Type.Object({
  search_term: Type.Optional(Type.String()),
  filters: Type.Optional(Type.Array(CollectionFilters)),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 50, default: 20 })),
  offset: Offset,
  order_by: Type.Optional(enumOf(['created', 'collection', 'collection_size', 'updated', 'owner'] as const)),
  order: Type.Optional(Order),
});

export const V3Binary = Type.Object({
  analysis_id: Type.Integer({ format: 'int64' }),
  binary_id: Type.Integer({ format: 'int64' }),
  binary_name: Type.String(),
  created_at: DateTime,
  is_system_analysis: Type.Boolean(),
  owner_id: Type.Integer({ format: 'int64' }),
  sha_256_hash: Type.String(),
});

export const V3CollectionListItem = Type.Object({
  collection_id: Type.Integer({ format: 'int64' }),
  collection_name: Type.String(),
  collection_owner: Type.String(),
  collection_scope: Type.String(),
  collection_size: Type.Integer({ format: 'int64' }),
  collection_tags: Nullable(Type.Array(Type.String())),
  creation: DateTime,
  description: Type.String(),
  official_collection: Type.Boolean(),
  team_id: Type.Integer({ format: 'int64' }),
  updated_at: DateTime,
});

const BinaryIds = Type.Array(Type.Integer({ format: 'int64' }));

export const V3CreateCollectionBody = Type.Object({
  binaries: Type.Optional(Nullable(BinaryIds)),
  collection_name: Type.String({ minLength: 1 }),
  collection_scope: CollectionScopeSchema,
  description: Type.String({ minLength: 1 }),
  tags: Type.Optional(Nullable(Type.Array(Type.String()))),
});

const CollectionCore = {
  collection_id: Type.Integer({ format: 'int64' }),
  collection_name: Type.String(),
  collection_scope: Type.String(),
  created_at: DateTime,
  description: Type.String(),
  team_id: Type.Integer({ format: 'int64' }),
  updated_at: DateTime,
  user_id: Type.Integer({ format: 'int64' }),
};

export const V3CreateCollectionOutput = Type.Object({
  ...CollectionCore,
  binaries: Nullable(Type.Array(V3Binary)),
  tags: Nullable(Type.Array(Type.String())),
});

// The notes type the scope as a bare string; an unknown scope is refused here rather than stored.
export const V3PatchCollectionBody = Type.Object({
  collection_name: Type.Optional(Type.String({ minLength: 1 })),
  collection_scope: Type.Optional(CollectionScopeSchema),
  description: Type.Optional(Type.String({ minLength: 1 })),
});

export const V3PatchCollectionOutput = Type.Object({
  ...CollectionCore,
  binary_count: Type.Integer({ format: 'int64' }),
});

export const V3PatchBinariesBody = Type.Object({ binaries: Nullable(BinaryIds) });
export const V3AddBinariesBody = Type.Object({ binaries: BinaryIds });
export const V3BinariesOutput = Type.Object({ binaries: Nullable(Type.Array(V3Binary)) });

export const V3CollectionIdParam = Type.Object({ collection_id: Type.Integer({ format: 'int64', minimum: 1 }) });

/** Search paging: `limit` results from `offset` (at most 100 a page, as /v2 search clamps page_size). */
const SearchPaging = {
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 10 })),
  offset: Offset,
};

export const V3SearchBinariesQuery = Type.Object({
  partial_name: Type.Optional(Type.String()),
  partial_sha256: Type.Optional(Type.String()),
  tags: Type.Optional(Type.Array(Type.String())),
  model_name: Type.Optional(Type.String()),
  user_files_only: Type.Optional(Type.Boolean({ default: false })),
  exclude_binary_id: Type.Optional(Type.Integer()),
  user_ids: Type.Optional(Type.Array(Type.Integer())),
  ...SearchPaging,
});

export const V3SearchFunctionsQuery = Type.Object({
  partial_name: Type.Optional(Type.String()),
  model_name: Type.Optional(Type.String()),
  ...SearchPaging,
});

export const V3SearchTagsQuery = Type.Object({ partial_name: Type.String(), ...SearchPaging });

export const V3BinarySearchResult = Type.Object({
  analysis_id: Type.Integer(),
  binary_id: Type.Integer(),
  binary_name: Type.String(),
  created_at: DateTime,
  model_id: Type.Integer(),
  model_name: Type.String(),
  owned_by: Type.String(),
  sha_256_hash: Type.String(),
  tags: Type.Array(Type.String()),
});

export const V3 = {
  collections: Page(Nullable(Type.Array(V3CollectionListItem))),
  binaries: Page(Type.Array(V3BinarySearchResult)),
  functions: Page(Type.Array(FunctionSearchResult)),
  tags: Page(Type.Array(TagSearchResult)),
};
