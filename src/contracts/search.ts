import { Type } from '@sinclair/typebox';
import { CollectionFilters, CollectionOrderBy, ResultsEnvelope } from './collections.js';
import { Nullable } from './envelope.js';
import { Order } from './enums.js';

const SearchPage = {
  page: Type.Optional(Type.Integer({ minimum: 1, maximum: 100000, default: 1 })),
  page_size: Type.Optional(Type.Integer({ minimum: 1, default: 10 })),
};
const TagsQuery = Type.Optional(Type.Array(Type.String()));

export const SearchFunctionsQuery = Type.Object({
  ...SearchPage,
  partial_name: Type.Optional(Type.String()),
  model_name: Type.Optional(Type.String()),
});

export const SearchBinariesQuery = Type.Object({
  ...SearchPage,
  partial_name: Type.Optional(Type.String()),
  partial_sha256: Type.Optional(Type.String()),
  tags: TagsQuery,
  model_name: Type.Optional(Type.String()),
  user_files_only: Type.Optional(Type.Boolean({ default: false })),
});

export const SearchCollectionsQuery = Type.Object({
  ...SearchPage,
  partial_collection_name: Type.Optional(Type.String()),
  partial_binary_name: Type.Optional(Type.String()),
  partial_binary_sha256: Type.Optional(Type.String()),
  tags: TagsQuery,
  model_name: Type.Optional(Type.String()),
  filters: Type.Optional(Type.Array(CollectionFilters)),
  order_by: Type.Optional(CollectionOrderBy),
  order_by_direction: Type.Optional(Order),
});

export const SearchTagsQuery = Type.Object({ ...SearchPage, partial_name: Type.String() });

export const FunctionSearchResult = Type.Object({
  function_id: Type.Integer({ format: 'int64' }),
  function_name: Type.String(),
  binary_name: Type.String(),
  created_at: Type.String({ format: 'date-time' }),
  model_id: Type.Integer(),
  model_name: Type.String(),
  owned_by: Type.String(),
});

export const BinarySearchResult = Type.Object({
  binary_id: Type.Integer(),
  binary_name: Type.String(),
  analysis_id: Type.Integer(),
  sha_256_hash: Type.String(),
  tags: Nullable(Type.Array(Type.String())),
  created_at: Type.String({ format: 'date-time' }),
  model_id: Type.Integer(),
  model_name: Type.String(),
  owned_by: Type.String(),
});

export const CollectionSearchResult = Type.Object({
  collection_id: Type.Integer(),
  collection_name: Type.String(),
  scope: Type.String(),
  last_updated_at: Type.String({ format: 'date-time' }),
  created_at: Type.String({ format: 'date-time' }),
  model_id: Type.Integer(),
  model_name: Type.String(),
  owned_by: Type.String(),
  tags: Type.Optional(Nullable(Type.Array(Type.String()))),
  size: Type.Optional(Nullable(Type.Integer())),
  description: Type.String(),
  team_id: Type.Optional(Nullable(Type.Integer())),
});

export const TagSearchResult = Type.Object({ tag_id: Type.Integer(), tag: Type.String() });

export const SearchEnvelopes = {
  functions: ResultsEnvelope(FunctionSearchResult),
  binaries: ResultsEnvelope(BinarySearchResult),
  collections: ResultsEnvelope(CollectionSearchResult),
  tags: ResultsEnvelope(TagSearchResult),
};
