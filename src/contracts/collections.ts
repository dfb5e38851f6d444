import { Type, type TSchema } from '@sinclair/typebox';
import { Envelope, Nullable } from './envelope.js';
import { enumOf, Order } from './enums.js';

export const COLLECTION_SCOPES = ['PRIVATE', 'PUBLIC', 'PROTECTED', 'TEAM'] as const;
export const COLLECTION_FILTER_VALUES = [
  'official_only',
  'user_only',
  'team_only',
  'public_only',
  'hide_empty',
] as const;
export const COLLECTION_ORDER_BY = ['created', 'collection', 'model', 'owner', 'collection_size', 'updated'] as const;
export type CollectionScope = (typeof COLLECTION_SCOPES)[number];

export const CollectionScopeSchema = enumOf(COLLECTION_SCOPES);
export const CollectionFilters = enumOf(COLLECTION_FILTER_VALUES);
export const CollectionOrderBy = enumOf(COLLECTION_ORDER_BY);

export const CollectionIdParam = Type.Object({ collection_id: Type.Integer() });

export const CollectionsListQuery = Type.Object({
  search_term: Type.Optional(Type.String({ default: '' })),
  filters: Type.Optional(Type.Array(CollectionFilters)),
  limit: Type.Optional(Type.Integer({ minimum: 5, maximum: 50, default: 20 })),
  // The reference gives no minimum; a negative offset means nothing and PostgreSQL refuses it (a 500).
  offset: Type.Optional(Type.Integer({ minimum: 0, default: 0 })),
  order_by: Type.Optional(CollectionOrderBy),
  order: Type.Optional(Order),
});

export const CollectionGetQuery = Type.Object({
  include_tags: Type.Optional(Type.Boolean({ default: false })),
  include_binaries: Type.Optional(Type.Boolean({ default: false })),
  page_size: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 10 })),
  page_number: Type.Optional(Type.Integer({ minimum: 1, default: 1 })),
  binary_search_str: Type.Optional(Type.String()),
});

export const CollectionCreateRequest = Type.Object({
  collection_name: Type.String(),
  description: Type.String(),
  collection_scope: Type.Optional(CollectionScopeSchema),
  tags: Type.Optional(Nullable(Type.Array(Type.String()))),
  binaries: Type.Optional(Nullable(Type.Array(Type.Integer()))),
  model_id: Type.Integer(),
});

export const CollectionUpdateRequest = Type.Object({
  collection_name: Type.Optional(Nullable(Type.String())),
  description: Type.Optional(Nullable(Type.String())),
  collection_scope: Type.Optional(Nullable(CollectionScopeSchema)),
});

export const CollectionBinariesUpdateRequest = Type.Object({ binaries: Type.Array(Type.Integer()) });
export const CollectionTagsUpdateRequest = Type.Object({ tags: Type.Array(Type.String()) });

export const CollectionBinaryResponse = Type.Object({
  analysis_id: Type.Integer(),
  binary_id: Type.Integer(),
  binary_name: Type.String(),
  owner_id: Type.Integer(),
  sha_256_hash: Type.String(),
  created_at: Type.String({ format: 'date-time' }),
  is_system_analysis: Type.Boolean(),
});

export const CollectionResponse = Type.Object({
  collection_id: Type.Integer(),
  collection_name: Type.String(),
  description: Type.String(),
  model_id: Type.Integer(),
  user_id: Type.Integer(),
  team_id: Type.Optional(Nullable(Type.Integer())),
  collection_scope: CollectionScopeSchema,
  created_at: Type.String({ format: 'date-time' }),
  updated_at: Type.String({ format: 'date-time' }),
  tags: Type.Optional(Nullable(Type.Array(Type.String()))),
  binaries: Type.Optional(Nullable(Type.Array(Type.Union([CollectionBinaryResponse, Type.Integer()])))),
});

export const CollectionListItem = Type.Object({
  collection_name: Type.String(),
  description: Type.String(),
  collection_scope: Type.String(),
  collection_owner: Type.String(),
  official_collection: Type.Boolean(),
  collection_tags: Type.Optional(Type.Array(Type.String())),
  collection_size: Type.Integer(),
  collection_id: Type.Integer(),
  creation: Type.String({ format: 'date-time' }),
  model_name: Type.String(),
  team_id: Type.Optional(Nullable(Type.Integer())),
});

/** The reference's `{results: [...]}` payloads in the envelope. */
export const ResultsEnvelope = <T extends TSchema>(item: T) =>
  Envelope(Nullable(Type.Object({ results: Type.Array(item) })));

export const CollectionEnvelopes = {
  one: Envelope(Nullable(CollectionResponse)),
  list: ResultsEnvelope(CollectionListItem),
  deleted: Envelope(Nullable(Type.Boolean())),
  binaries: Envelope(Nullable(Type.Object({ binaries: Type.Array(CollectionBinaryResponse) }))),
  tags: Envelope(Nullable(Type.Object({ tags: Type.Array(Type.String()) }))),
};
