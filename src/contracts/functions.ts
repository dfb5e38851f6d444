import { Type } from '@sinclair/typebox';
import { Envelope, Nullable } from './envelope.js';
import { enumOf, StringSource } from './enums.js';

export const NAME_SOURCE_TYPES = ['SYSTEM', 'USER', 'AUTO_UNSTRIP', 'EXTERNAL', 'AI_UNSTRIP'] as const;
const NameSourceTypeEnum = enumOf(NAME_SOURCE_TYPES);

export const PageQuery = Type.Object({
  page: Type.Optional(Type.Integer({ minimum: 1, maximum: 100000, default: 1 })),
  page_size: Type.Optional(Type.Integer({ minimum: 1, maximum: 1000, default: 1000 })),
});

export const FunctionsListQuery = Type.Object({
  search_term: Type.Optional(Type.String()),
  min_v_addr: Type.Optional(Type.Integer()),
  max_v_addr: Type.Optional(Type.Integer()),
  include_embeddings: Type.Optional(Type.Boolean({ default: true })),
  ...PageQuery.properties,
});

export const StringsQuery = Type.Object({
  page: Type.Optional(Type.Integer({ minimum: 1, maximum: 100000, default: 1 })),
  page_size: Type.Optional(Type.Integer({ minimum: 1, default: 100 })),
  search: Type.Optional(Type.String()),
  function_search: Type.Optional(Type.String()),
  order_by: Type.Optional(enumOf(['length', 'value'] as const)),
  sort_order: Type.Optional(enumOf(['ASC', 'DESC'] as const)),
});

export const FunctionStringsQuery = Type.Object({
  page: Type.Optional(Type.Integer({ minimum: 1, maximum: 100000, default: 1 })),
  page_size: Type.Optional(Type.Integer({ minimum: 1, default: 100 })),
  search: Type.Optional(Type.String()),
});

export const FunctionListItem = Type.Object({
  id: Type.Integer({ format: 'int64' }),
  name: Type.String(),
  name_source_type: NameSourceTypeEnum,
  name_source: Type.Object({
    type: NameSourceTypeEnum,
    function_id: Type.Optional(Nullable(Type.Integer())),
    binary_id: Type.Optional(Nullable(Type.Integer())),
    analysis_id: Type.Optional(Nullable(Type.Integer())),
  }),
  mangled_name: Type.String(),
  vaddr: Type.Integer({ format: 'int64' }),
  size: Type.Integer(),
  debug: Type.Boolean(),
});

export const LegacyFunction = Type.Object({
  function_id: Type.Integer({ format: 'int64' }),
  function_name: Type.String(),
  function_mangled_name: Type.String(),
  function_vaddr: Type.Integer({ format: 'int64' }),
  function_size: Type.Integer(),
  debug: Type.Boolean(),
  /** The function's similarity vector (unit length, 1024 numbers) when `include_embeddings` is true. */
  embedding: Type.Optional(Type.Array(Type.Number())),
});

export const FunctionsDetailResponse = Type.Object({
  function_id: Type.Integer({ format: 'int64' }),
  function_name: Type.String(),
  function_name_mangled: Type.String(),
  function_vaddr: Type.Integer({ format: 'int64' }),
  function_size: Type.Integer(),
  analysis_id: Type.Integer(),
  binary_id: Type.Integer(),
  binary_name: Type.String(),
  sha_256_hash: Type.String(),
  debug_hash: Nullable(Type.String()),
  debug: Type.Boolean(),
});

const CallInfo = (who: 'callee' | 'caller') =>
  Type.Object({
    function_id: Type.Integer({ format: 'int64' }),
    matched_function_id: Nullable(Type.Integer()),
    dashboard_url: Nullable(Type.String()),
    is_external: Type.Optional(Type.Boolean({ default: false })),
    [`${who}_name`]: Type.String(),
    [`${who}_vaddr`]: Type.String(),
  });

export const CalleesCallerFunctionsResponse = Type.Object({
  base_address: Type.Integer({ format: 'bigint' }),
  callees: Type.Array(CallInfo('callee')),
  callers: Type.Array(CallInfo('caller')),
});

export const StringFunctions = Type.Object({
  value: Type.String(),
  functions: Type.Array(
    Type.Object({
      function_id: Type.Optional(Nullable(Type.Integer())),
      function_vaddr: Type.Integer({ format: 'int64' }),
    }),
  ),
  source: Type.Optional(StringSource),
});

export const FunctionString = Type.Object({
  value: Type.String(),
  vaddr: Type.Integer(),
  source: Type.Optional(StringSource),
});

const SegmentInfo = Type.Object({
  name: Type.Optional(Type.String({ default: '' })),
  r: Type.Optional(Nullable(Type.Boolean())),
  w: Type.Optional(Nullable(Type.Boolean())),
  x: Type.Optional(Nullable(Type.Boolean())),
  start: Type.Optional(Type.Integer({ default: 0 })),
  end: Type.Optional(Type.Integer({ default: 0 })),
});
const xrefFields = {
  value: Nullable(Type.String()),
  is_scalar: Type.Optional(Nullable(Type.Boolean())),
  is_call: Type.Optional(Nullable(Type.Boolean())),
  is_data: Type.Optional(Nullable(Type.Boolean())),
  is_string: Type.Optional(Nullable(Type.Boolean())),
  raw_data: Type.Optional(Nullable(Type.String())),
  segment: Type.Optional(Nullable(SegmentInfo)),
  orig_str_encoding: Type.Optional(Nullable(Type.String())),
};
export const XrefResponse = Type.Object({
  xref_to_list: Type.Array(Type.Object({ ...xrefFields, xref_from: Nullable(Type.String()) })),
  xref_from_list: Type.Array(Type.Object({ ...xrefFields, xref_to: Nullable(Type.String()) })),
});

export const FunctionBlocksResponse = Type.Object({
  blocks: Type.Array(
    Type.Object({
      asm: Type.Array(Type.String()),
      id: Type.Integer(),
      min_addr: Type.Integer(),
      max_addr: Type.Integer(),
      destinations: Type.Array(
        Type.Object({
          destination_block_id: Nullable(Type.Integer()),
          flowtype: Type.String(),
          vaddr: Type.String(),
        }),
      ),
      comment: Type.Optional(Nullable(Type.String())),
    }),
  ),
  local_variables: Type.Array(
    Type.Object({
      address: Type.String(),
      d_type: Type.String(),
      size: Type.Integer(),
      loc: Type.String(),
      name: Type.String(),
    }),
  ),
  params: Type.Array(
    Type.Object({
      d_type: Type.String(),
      loc: Type.String(),
      addr: Type.String(),
      length: Type.Integer(),
      name: Type.String(),
    }),
  ),
  overview_comment: Type.Optional(Nullable(Type.String())),
});

export const BINARIES_TASK_STATUSES = ['UNINITIALISED', 'PENDING', 'RUNNING', 'COMPLETED', 'FAILED'] as const;

export const FunctionEnvelopes = {
  list: Envelope(Nullable(Type.Object({ functions: Type.Array(FunctionListItem) }))),
  legacyList: Envelope(Nullable(Type.Object({ functions: Type.Array(LegacyFunction) }))),
  maps: Envelope(
    Nullable(
      Type.Object({
        function_maps: Type.Object({
          function_map: Type.Record(Type.String(), Type.Integer()),
          inverse_function_map: Type.Record(Type.String(), Type.Integer()),
          name_map: Type.Record(Type.String(), Type.String()),
        }),
      }),
    ),
  ),
  detail: Envelope(Nullable(FunctionsDetailResponse)),
  calleesCallers: Envelope(Nullable(CalleesCallerFunctionsResponse)),
  calleesCallersList: Envelope(Nullable(Type.Array(CalleesCallerFunctionsResponse))),
  strings: Envelope(Nullable(Type.Object({ strings: Type.Array(StringFunctions), total_strings: Type.Integer() }))),
  stringsStatus: Envelope(Nullable(Type.Object({ status: enumOf(BINARIES_TASK_STATUSES) }))),
  functionStrings: Envelope(
    Nullable(Type.Object({ strings: Type.Array(FunctionString), total_strings: Type.Integer() })),
  ),
  xrefs: Envelope(Nullable(XrefResponse)),
  blocks: Envelope(Nullable(FunctionBlocksResponse)),
};
