import type { Generated } from 'kysely';

// Row types of both dialects. Times are epoch ms, JSON columns are text (see migrations).
export interface TeamsTable {
  id: Generated<number>;
  name: string;
  created_at: number;
}
export interface UsersTable {
  id: Generated<number>;
  username: string;
  email: string;
  first_name: string;
  last_name: string;
  role: string;
  team_id: number | null;
  api_key_hash: string;
  created_at: number;
}
export interface SamplesTable {
  sha256: string;
  size: number;
  identity: string;
  created_at: number;
}
export interface UploadsTable {
  id: Generated<number>;
  user_id: number;
  sha256: string;
  file_type: string;
  filename: string;
  created_at: number;
}
export interface BinariesTable {
  id: Generated<number>;
  sha256: string;
  created_at: number;
}
export interface AnalysesTable {
  id: Generated<number>;
  binary_id: number;
  user_id: number;
  sha256: string;
  binary_name: string;
  binary_size: number;
  analysis_scope: string;
  status: string;
  model_name: string;
  base_address: number | null;
  debug_hash: string | null;
  config: string;
  dynamic_execution_status: string | null;
  created_at: number;
  updated_at: number;
}
export interface AnalysisTagsTable {
  analysis_id: number;
  name: string;
  origin: string;
}
export interface AnalysisLogsTable {
  id: Generated<number>;
  analysis_id: number;
  line: string;
  created_at: number;
}
export interface AnalysisStagesTable {
  id: Generated<number>;
  analysis_id: number;
  stage: string;
  status: string;
  created_at: number;
  /** Percent of the analysis done at this event; null before the engine reports. */
  progress: number | null;
}
export interface AnalysisResultsTable {
  analysis_id: number;
  document: string;
  updated_at: number;
}
export interface AnalysisStringsTable {
  analysis_id: number;
  vaddr: number;
  value: string;
  source: string;
}
export interface CommentsTable {
  id: Generated<number>;
  analysis_id: number;
  user_id: number;
  content: string;
  created_at: number;
  updated_at: number;
  /** The function whose decompilation the comment is on (migration 011); null: on the analysis. */
  vaddr: number | null;
  /** JSON DecompilationCommentContext: the lines of the decompilation it is about. */
  context: string | null;
}
export interface JobsTable {
  id: Generated<number>;
  kind: string;
  analysis_id: number | null;
  payload: string;
  state: string;
  priority: number;
  attempts: number;
  max_attempts: number;
  run_after: number;
  lease_owner: string | null;
  lease_expires_at: number | null;
  last_error: string | null;
  created_at: number;
  updated_at: number;
}

export interface FunctionsTable {
  id: Generated<number>;
  analysis_id: number;
  vaddr: number;
  size: number;
  name: string;
  mangled_name: string;
  name_source_type: string;
  debug: number;
  source: string;
  thumb: number;
  blocks: string;
  /** Where an applied (unstrip) name came from; null for analysis and user names. */
  name_source_function_id: number | null;
  name_source_binary_id: number | null;
  name_source_analysis_id: number | null;
}
export interface FunctionNameHistoryTable {
  id: Generated<number>;
  function_id: number | null;
  analysis_id: number;
  vaddr: number;
  name: string;
  mangled_name: string;
  name_source_type: string;
  debug: number;
  source_function_id: number | null;
  source_binary_id: number | null;
  source_analysis_id: number | null;
  user_id: number;
  created_at: number;
  evidence: string | null;
}
export interface FunctionCallsTable {
  analysis_id: number;
  caller_id: number;
  callee_id: number | null;
  callee_vaddr: number;
  callee_name: string;
  is_external: number;
  site: number;
}
export interface StringRefsTable {
  analysis_id: number;
  string_vaddr: number;
  function_id: number;
  site: number;
}
export interface XrefsTable {
  analysis_id: number;
  from_vaddr: number;
  to_vaddr: number;
  kind: string;
  function_id: number | null;
}

export interface AnalysisFeaturesTable {
  analysis_id: number;
  document: string;
  updated_at: number;
}
export interface DynamicExecutionsTable {
  analysis_id: number;
  /** JSON DynamicReport (engine/emulate/report.ts); null when the run could not be made. */
  report: string | null;
  error: string | null;
  updated_at: number;
}
/** A binary found inside another (migration 014). */
export interface BinaryRelationsTable {
  child_binary_id: number;
  parent_binary_id: number;
  user_id: number;
  /** What found it: 'dump' (an emulated run) or 'firmware' (an extraction). */
  origin: string;
  name: string;
  /** Where in the parent: the dump's name, or the offset path of an extracted file. */
  location: string;
  created_at: number;
}
/** A firmware image's unpacking (migration 015). */
export interface FirmwareTasksTable {
  id: string;
  user_id: number;
  binary_id: number;
  filename: string;
  scope: string;
  /** PENDING, RUNNING, COMPLETED or ERROR. */
  status: string;
  password: string | null;
  /** JSON: files and bytes written so far. */
  progress: string | null;
  /** JSON ExtractionReport with the children's binary ids. */
  report: string | null;
  error: string | null;
  created_at: number;
  updated_at: number;
}
export interface SimilarityRunsTable {
  id: Generated<number>;
  kind: string;
  user_id: number;
  analysis_id: number | null;
  request_key: string;
  request: string;
  status: string;
  progress: number;
  result: string | null;
  error: string | null;
  applied: number;
  created_at: number;
  started_at: number | null;
  finished_at: number | null;
  updated_at: number;
}

export interface CollectionsTable {
  id: Generated<number>;
  user_id: number;
  name: string;
  description: string;
  scope: string;
  model_name: string | null;
  created_at: number;
  updated_at: number;
}
export interface CollectionBinariesTable {
  collection_id: number;
  binary_id: number;
}
export interface CollectionTagsTable {
  collection_id: number;
  name: string;
}
export interface TagsTable {
  id: Generated<number>;
  name: string;
}
export interface OsvRecordsTable {
  id: string;
  modified: string;
  document: string;
  imported_at: number;
}
export interface OsvPackagesTable {
  name: string;
  record_id: string;
}

export interface FunctionVectorsTable {
  function_id: number;
  /** int8 × 1024 (shared/simhash.ts quantiseVector). */
  vector: Uint8Array;
}
export interface FunctionLshTable {
  bucket: number;
  function_id: number;
  analysis_id: number;
}

/** One function's data types, keyed by address (migration 010): the engine's record and the owner's version. */
export interface FunctionDataTypesTable {
  analysis_id: number;
  vaddr: number;
  /** pending | running | completed | failed (docs/decisions.md, "Data types"). */
  status: string;
  /** Why the latest generation failed. */
  error: string | null;
  /** A generation request named the function (1) or the job found it on the way (0). */
  requested: Generated<number>;
  /** The data-types job that generated it or is about to (provenance, not a reference). */
  job_id: number | null;
  /** JSON FunctionTypesRecord: the engine's latest. */
  generated: string | null;
  generated_at: number | null;
  /** JSON FunctionTypesRecord: the owner's version, served instead of `generated` and never overwritten by it. */
  edited: string | null;
  edited_by: number | null;
  last_change: number | null;
  /** The function a copied signature came from. */
  source_function_id: number | null;
  /** data_types_version: 0 before any data, one more at each change of what is served. */
  version: number;
  updated_at: number;
}
/** A version of a function's data types that a later one replaced. */
export interface FunctionDataTypeHistoryTable {
  id: Generated<number>;
  analysis_id: number;
  vaddr: number;
  version: number;
  record: string;
  /** Who made that version (null: the engine) and when. */
  user_id: number | null;
  created_at: number;
  replaced_by: number;
  replaced_at: number;
}
/** An analysis's type table: one entry per C spelling its functions use, and the types people defined. */
export interface AnalysisDataTypesTable {
  id: Generated<number>;
  analysis_id: number;
  name: string;
  namespace: string;
  kind: string;
  size: number | null;
  /** JSON DataTypeDefinition, or null when it has none. */
  definition: string | null;
  /** SYSTEM (generation) or USER. */
  source_type: string;
  source_analysis_id: number | null;
  source_function_id: number | null;
  created_at: number;
  updated_at: number;
}
/** Which functions (by address) use which types of their analysis's table. */
export interface DataTypeUsesTable {
  data_type_id: number;
  analysis_id: number;
  vaddr: number;
}

/** A function's latest decompilation, keyed by address (migration 011). */
export interface FunctionDecompilationsTable {
  analysis_id: number;
  vaddr: number;
  /** pending | running | success | error (the reference's AiDecompilationTaskStatus). */
  status: string;
  error: string | null;
  /** The decompile job that made it or is about to. */
  job_id: number | null;
  /** JSON StoredDecompilation. */
  result: string | null;
  /** When the job read the names (and types) it wrote: older than a later change means stale. */
  made_at: number | null;
  /** 1: made (or to be made) with the language model too, as a per-function request asks (migration 012). */
  with_model: Generated<number>;
  updated_at: number;
}
export interface DecompilationRatingsTable {
  analysis_id: number;
  vaddr: number;
  user_id: number;
  rating: string;
  reason: string | null;
  updated_at: number;
}

export interface Database {
  function_decompilations: FunctionDecompilationsTable;
  decompilation_ratings: DecompilationRatingsTable;
  function_data_types: FunctionDataTypesTable;
  function_data_type_history: FunctionDataTypeHistoryTable;
  analysis_data_types: AnalysisDataTypesTable;
  data_type_uses: DataTypeUsesTable;
  functions: FunctionsTable;
  function_name_history: FunctionNameHistoryTable;
  function_vectors: FunctionVectorsTable;
  function_lsh: FunctionLshTable;
  function_calls: FunctionCallsTable;
  string_refs: StringRefsTable;
  xrefs: XrefsTable;
  teams: TeamsTable;
  users: UsersTable;
  samples: SamplesTable;
  uploads: UploadsTable;
  binaries: BinariesTable;
  analyses: AnalysesTable;
  analysis_tags: AnalysisTagsTable;
  analysis_logs: AnalysisLogsTable;
  analysis_stages: AnalysisStagesTable;
  analysis_results: AnalysisResultsTable;
  analysis_strings: AnalysisStringsTable;
  comments: CommentsTable;
  jobs: JobsTable;
  analysis_features: AnalysisFeaturesTable;
  dynamic_executions: DynamicExecutionsTable;
  binary_relations: BinaryRelationsTable;
  firmware_tasks: FirmwareTasksTable;
  similarity_runs: SimilarityRunsTable;
  collections: CollectionsTable;
  collection_binaries: CollectionBinariesTable;
  collection_tags: CollectionTagsTable;
  tags: TagsTable;
  osv_records: OsvRecordsTable;
  osv_packages: OsvPackagesTable;
}
