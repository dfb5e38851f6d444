import { Type } from '@sinclair/typebox';
import { Envelope, Nullable } from './envelope.js';
import {
  AnalysisScopeSchema,
  DynamicExecutionStatus,
  FileFormat,
  Isa,
  ModelName,
  Order,
  OrderBy,
  PlatformSchema,
  StageSchema,
  StageStatusSchema,
  StatusInput,
  StringSource,
  Workspace,
} from './enums.js';

const Tag = Type.Object({ name: Type.String() });
const FunctionBoundary = Type.Object({
  mangled_name: Type.String(),
  start_address: Type.Integer({ format: 'int64' }),
  end_address: Type.Integer({ format: 'int64' }),
  include_in_analysis: Type.Optional(Nullable(Type.Boolean())),
});
const Symbols = Type.Object({
  base_address: Type.Integer({ format: 'bigint' }),
  function_boundaries: Type.Optional(Type.Array(FunctionBoundary)),
});
const AnalysisConfig = Type.Object({
  scrape_third_party_config: Type.Optional(Type.Object({ enabled: Type.Optional(Type.Boolean({ default: false })) })),
  generate_cves: Type.Optional(Type.Boolean({ default: false })),
  generate_sbom: Type.Optional(Type.Boolean({ default: false })),
  generate_capabilities: Type.Optional(Type.Boolean({ default: false })),
  no_cache: Type.Optional(Type.Boolean({ default: false })),
  advanced_analysis: Type.Optional(Type.Boolean({ default: false })),
  sandbox_config: Type.Optional(
    Type.Object({
      enabled: Type.Optional(Type.Boolean({ default: false })),
      command_line_args: Type.Optional(Type.String({ default: '' })),
    }),
  ),
});
const BinaryConfig = Type.Object({
  isa: Type.Optional(Nullable(Isa)),
  platform: Type.Optional(Nullable(PlatformSchema)),
  file_format: Type.Optional(Nullable(FileFormat)),
});
const AutoRunAgents = Type.Object({ triage: Type.Optional(Type.Boolean({ default: false })) });

export const AnalysisCreateRequest = Type.Object({
  filename: Type.String(),
  sha_256_hash: Type.String(),
  tags: Type.Optional(Type.Array(Tag)),
  analysis_scope: Type.Optional(AnalysisScopeSchema),
  symbols: Type.Optional(Nullable(Symbols)),
  debug_hash: Type.Optional(Nullable(Type.String())),
  analysis_config: Type.Optional(AnalysisConfig),
  binary_config: Type.Optional(BinaryConfig),
  auto_run_agents: Type.Optional(AutoRunAgents),
});

export const AnalysisCreateResponse = Type.Object({ analysis_id: Type.Integer(), binary_id: Type.Integer() });

export const ListAnalysesQuery = Type.Object({
  search_term: Type.Optional(Type.String({ default: '' })),
  workspace: Type.Optional(Type.Array(Workspace)),
  status: Type.Optional(Type.Array(StatusInput)),
  model_name: Type.Optional(Type.Array(ModelName)),
  dynamic_execution_status: Type.Optional(DynamicExecutionStatus),
  usernames: Type.Optional(Type.Array(Type.String())),
  sha256_hash: Type.Optional(Type.String()),
  limit: Type.Optional(Type.Integer({ minimum: 5, maximum: 50, default: 20 })),
  offset: Type.Optional(Type.Integer({ minimum: 0, default: 0 })),
  order_by: Type.Optional(OrderBy),
  order: Type.Optional(Order),
});

export const TagItem = Type.Object({
  name: Type.String(),
  origin: Type.String(),
  collection_id: Type.Optional(Nullable(Type.Integer())),
});

export const AnalysisRecord = Type.Object({
  analysis_id: Type.Integer(),
  analysis_scope: Type.String(),
  binary_id: Type.Integer(),
  model_id: Type.Integer(),
  model_name: Type.String(),
  status: Type.String(),
  creation: Type.String({ format: 'date-time' }),
  is_owner: Type.Boolean(),
  binary_name: Type.String(),
  sha_256_hash: Type.String(),
  function_boundaries_hash: Type.String(),
  binary_size: Type.Integer(),
  username: Type.String(),
  dynamic_execution_status: Type.Optional(Nullable(DynamicExecutionStatus)),
  dynamic_execution_task_id: Type.Optional(Nullable(Type.Integer())),
  base_address: Type.Integer({ format: 'bigint' }),
  tags: Type.Optional(Type.Array(TagItem)),
});

export const Recent = Type.Object({ results: Type.Array(AnalysisRecord) });

export const AnalysisUpdateRequest = Type.Object({
  binary_name: Type.Optional(Nullable(Type.String())),
  analysis_scope: Type.Optional(
    Type.Unsafe<'PUBLIC' | 'PRIVATE' | null>({ type: ['string', 'null'], enum: ['PUBLIC', 'PRIVATE', null] }),
  ),
});

export const AnalysisDetailResponse = Type.Object({
  access: Type.Object({ owner: Type.Boolean(), username: Type.String() }),
  analysis_id: Type.Integer(),
  analysis_scope: Type.String(),
  architecture: Type.String(),
  binary_dynamic: Type.Boolean(),
  binary_format: Type.String(),
  binary_name: Type.String(),
  binary_size: Type.Integer(),
  binary_type: Type.String(),
  creation: Type.String(),
  dashboard_url: Type.String(),
  debug: Type.Boolean(),
  model_name: Type.String(),
  sbom: Type.Optional(Nullable(Type.Object({}, { additionalProperties: true }))),
  sha_256_hash: Type.String(),
  auto_run_agents: AutoRunAgents,
});

export const BulkDeleteAnalysesRequest = Type.Object({ analysis_ids: Type.Array(Type.Integer()) });
export const AnalysisBulkAddTagsRequest = Type.Object({
  tags: Type.Array(Type.String()),
  analysis_ids: Type.Array(Type.Integer()),
});
export const AnalysisBulkAddTagsResponse = Type.Object({
  results: Type.Array(
    Type.Object({
      analysis_id: Type.Integer(),
      message: Nullable(Type.String()),
      error: Type.Optional(Nullable(Type.String())),
    }),
  ),
});
export const AnalysisUpdateTagsRequest = Type.Object({ tags: Type.Array(Type.String()) });
export const AnalysisUpdateTagsResponse = Type.Object({
  tags: Type.Array(Type.Object({ name: Type.String(), origin: Type.String() })),
});
/**
 * GET …/tags: the analysis's tags, and (origin CAPABILITY) function tags derived from its capabilities with
 * a maliciousness score 0..1 and the functions carrying them (docs/tags.md) — fields the reference's
 * TagItem does not have, added as the spec asks for function tags with a score.
 */
export const AnalysisTagItem = Type.Object({
  ...TagItem.properties,
  score: Type.Optional(Type.Number({ minimum: 0, maximum: 1 })),
  functions: Type.Optional(
    Type.Array(
      Type.Object({
        function_id: Nullable(Type.Integer()),
        function_name: Type.String(),
        function_vaddr: Nullable(Type.Integer({ format: 'int64' })),
        score: Type.Number({ minimum: 0, maximum: 1 }),
      }),
    ),
  ),
});
export const AnalysisTags = Type.Object({ analysis_tags: Type.Array(AnalysisTagItem) });

export const Basic = Type.Object({
  binary_id: Type.Integer(),
  binary_name: Type.String(),
  binary_size: Type.Integer(),
  creation: Type.String({ format: 'date-time' }),
  sha_256_hash: Type.String(),
  model_name: Type.String(),
  model_id: Type.Integer(),
  owner_username: Type.String(),
  is_system: Type.Boolean(),
  analysis_scope: Type.String(),
  is_owner: Type.Boolean(),
  debug: Type.Boolean(),
  function_count: Type.Integer(),
  is_advanced: Type.Boolean(),
  base_address: Nullable(Type.Integer()),
  binary_uuid: Type.Optional(Nullable(Type.String())),
  sequencer_version: Type.Optional(Nullable(Type.String())),
});

/** Binlens extension: how far an analysis has got, in percent, as its stage events report it. */
const Progress = Type.Optional(
  Type.Integer({ minimum: 0, maximum: 100, description: 'Binlens extension: percent of the analysis done' }),
);

export const StatusOutput = Type.Object({
  analysis_id: Type.Integer(),
  analysis_status: Type.String(),
  progress: Progress,
});

export const Params = Type.Object({
  debug_hash: Nullable(Type.String()),
  binary_size: Type.Integer(),
  architecture: Type.String(),
  binary_type: Type.String(),
  binary_format: Type.String(),
  binary_dynamic: Type.Boolean(),
  model_name: Type.String(),
});

export const Logs = Type.Object({ logs: Type.String() });
export const InsertAnalysisLogRequest = Type.Object({ log: Type.String({ minLength: 1 }) });

export const ReAnalysisForm = Type.Object({
  tags: Type.Optional(Type.Array(Type.String())),
  command_line_args: Type.Optional(Type.String({ default: '' })),
  priority: Type.Optional(Type.Integer({ default: 0 })),
  essential: Type.Optional(Type.Boolean({ default: true })),
  model_name: Type.Optional(Nullable(Type.String())),
  no_cache: Type.Optional(Type.Boolean({ default: false })),
});
export const Created = Type.Object({
  analysis_id: Type.Integer(),
  binary_id: Type.Integer(),
  reference: Type.String(),
});

export const PutAnalysisStringsRequest = Type.Object({
  strings: Type.Array(Type.Object({ value: Type.String(), vaddr: Type.Integer(), source: StringSource })),
});

export const AnalysisStagesResponse = Type.Object({
  events: Type.Array(
    Type.Object({ stage: StageSchema, status: StageStatusSchema, timestamp: Type.String(), progress: Progress }),
  ),
});

export const AnalysisEnvelopes = {
  create: Envelope(Nullable(AnalysisCreateResponse)),
  recent: Envelope(Nullable(Recent)),
  detail: Envelope(Nullable(AnalysisDetailResponse)),
  dict: Envelope(Nullable(Type.Object({}, { additionalProperties: true }))),
  bulkTags: Envelope(Nullable(AnalysisBulkAddTagsResponse)),
  updateTags: Envelope(Nullable(AnalysisUpdateTagsResponse)),
  tags: Envelope(Nullable(AnalysisTags)),
  basic: Envelope(Nullable(Basic)),
  status: Envelope(Nullable(StatusOutput)),
  params: Envelope(Nullable(Params)),
  logs: Envelope(Nullable(Logs)),
  created: Envelope(Nullable(Created)),
  stages: Envelope(Nullable(AnalysisStagesResponse)),
};
