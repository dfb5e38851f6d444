// The spec's /v3 data-type and signature operations (tag FunctionsDataTypes), shaped as
// ../shared/api/v3-notes.json records them: an analysis's type table (DataTypeEntry, one id per C spelling) and
// function signatures that name their types by id. Where the notes have no shape (the per-kind `definition`, the
// create and update entries, signature storage) the design follows the /v2 types (docs/decisions.md, "Data types").
import { Type } from '@sinclair/typebox';
import { DATA_TYPE_KINDS } from '../shared/data-type-spelling.js';
import { enumOf, Order } from './enums.js';
import { Nullable } from './envelope.js';
import { DateTime } from './v3.js';

const Id = Type.Integer({ format: 'int64' });
const DataTypeId = Type.Integer({ format: 'int64', minimum: 0 });
export const DATA_TYPE_SOURCES = ['SYSTEM', 'USER', 'AUTO_UNSTRIP', 'AI_DECOMP'] as const;
const Kind = enumOf(DATA_TYPE_KINDS);

/**
 * What a type is made of, by kind, in the /v2 types' terms: STRUCT and UNION `members` keyed by offset in hex
 * (StructureMember), ENUM `members` name → value (Enumeration), TYPEDEF, POINTER and FUNCTION_DEFINITION `type`
 * (the aliased type, the pointee, the declaration), ARRAY `type` and `count`, BITFIELD `type` and `bit_size`.
 */
export const V3DataTypeDefinition = Type.Object({
  members: Type.Optional(
    Type.Object(
      {},
      {
        additionalProperties: Type.Union([
          Type.Object({ name: Type.String(), offset: Type.Integer(), type: Type.String(), size: Type.Integer() }),
          Type.Integer(),
        ]),
      },
    ),
  ),
  type: Type.Optional(Type.String()),
  count: Type.Optional(Type.Integer({ minimum: 0 })),
  bit_size: Type.Optional(Type.Integer({ minimum: 1 })),
});

export const V3DataType = Type.Object({
  created_at: DateTime,
  data_type_id: DataTypeId,
  definition: Type.Optional(V3DataTypeDefinition),
  has_definition: Type.Boolean(),
  kind: Kind,
  name: Type.String({ description: 'The C spelling: `struct stream`, `char *`, `int32_t[4]`.' }),
  namespace: Type.String(),
  size: Type.Optional(Type.Integer()),
  source_analysis_id: Type.Optional(Id),
  source_function_id: Type.Optional(Id),
  source_type: enumOf(DATA_TYPE_SOURCES),
});

const DefinedFields = {
  kind: Kind,
  name: Type.String({ minLength: 1 }),
  namespace: Type.Optional(Type.String({ default: '' })),
  size: Type.Optional(Nullable(Type.Integer({ minimum: 0 }))),
  definition: Type.Optional(Nullable(V3DataTypeDefinition)),
};

export const V3CreateDataTypesBody = Type.Object({ data_types: Nullable(Type.Array(Type.Object(DefinedFields))) });

export const V3UpdateDataTypesBody = Type.Object({
  data_types: Nullable(Type.Array(Type.Object({ data_type_id: DataTypeId, ...DefinedFields }))),
});

export const V3DataTypesOutput = Type.Object({ data_types: Nullable(Type.Array(V3DataType)) });

export const V3ListDataTypesQuery = Type.Object({
  offset: Type.Optional(Type.Integer({ minimum: 0, default: 0 })),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 1000, default: 100 })),
  kind: Type.Optional(Type.Array(Kind)),
  namespace: Type.Optional(Type.Array(Type.String())),
  search: Type.Optional(Type.String()),
  source_type: Type.Optional(Type.Array(enumOf(DATA_TYPE_SOURCES))),
  order_by: Type.Optional(enumOf(['name', 'size'] as const)),
  order: Type.Optional(Order),
});

export const V3ListDataTypesOutput = Type.Object({
  items: Nullable(Type.Array(V3DataType)),
  total_count: Type.Integer({ format: 'int64' }),
});

export const V3DataTypeParams = Type.Object({ analysis_id: Type.Integer(), data_type_id: DataTypeId });

export const V3DataTypeFunctionsQuery = Type.Object({
  page_size: Type.Optional(Type.Integer({ minimum: 1, maximum: 1000, default: 100 })),
  after_function_id: Type.Optional(Type.Integer({ minimum: 0 })),
});

export const V3DataTypeFunctions = Type.Object({
  items: Type.Array(Type.Object({ function_id: Id, function_name: Type.String() })),
  next_after_function_id: Type.Optional(Id),
});

/** Where a parameter lives (`register` `rdi`, `stack` `0x8`): accepted on input, not stored (docs/decisions.md). */
const SignatureStorage = Type.Object({ kind: Type.Optional(Type.String()), location: Type.Optional(Type.String()) });

const SignatureParameter = Type.Object({
  bit_length: Type.Optional(Type.Integer({ format: 'int64' })),
  data_type_id: Type.Optional(Id),
  name: Type.Optional(Type.String()),
  ordinal: Type.Integer({ format: 'int64' }),
  storage: Type.Optional(SignatureStorage),
});

const SignatureFields = {
  calling_convention: Type.Optional(Type.String()),
  created_at: Type.Optional(DateTime),
  function_id: Id,
  function_name: Type.String(),
  has_signature: Type.Boolean(),
  parameters: Nullable(Type.Array(SignatureParameter)),
  return_data_type_id: Type.Optional(Id),
  source_function_id: Type.Optional(Id),
  source_type: Type.Optional(enumOf(['SYSTEM', 'USER', 'AUTO_UNSTRIP'] as const)),
};

export const V3FunctionSignature = Type.Object(SignatureFields);
export const V3BatchFunctionSignature = Type.Object({ analysis_id: Id, ...SignatureFields });

export const V3UpdateSignatureBody = Type.Object({
  calling_convention: Type.Optional(Type.String({ minLength: 1 })),
  parameters: Nullable(
    Type.Array(
      Type.Object({
        bit_length: Type.Optional(Type.Integer({ minimum: 0 })),
        data_type_id: Type.Optional(DataTypeId),
        name: Type.Optional(Type.String({ minLength: 1 })),
        ordinal: Type.Integer({ minimum: 0 }),
        storage: Type.Optional(SignatureStorage),
      }),
    ),
  ),
  return_data_type_id: Type.Optional(DataTypeId),
});

export const V3CopySignaturesBody = Type.Object({
  copies: Nullable(Type.Array(Type.Object({ source_function_id: Id, target_function_id: Id }))),
});

export const V3CopySignaturesOutput = Type.Object({
  data_types: Nullable(Type.Array(V3DataType)),
  signatures: Nullable(Type.Array(V3FunctionSignature)),
});

export const V3ListSignaturesQuery = Type.Object({
  function_ids: Type.String({
    pattern: '^[0-9]+(,[0-9]+)*$',
    description: 'Function ids separated by commas (`1,2,3`), as the reference serialises the list.',
  }),
  include_data_types: Type.Optional(Type.Boolean({ default: false })),
});

export const V3ListSignaturesOutput = Type.Object({
  data_types: Type.Optional(
    Nullable(Type.Array(Type.Object({ analysis_id: Id, items: Nullable(Type.Array(V3DataType)) }))),
  ),
  items: Nullable(Type.Array(V3BatchFunctionSignature)),
});

export const V3FunctionParams = Type.Object({ analysis_id: Type.Integer(), function_id: Type.Integer() });
