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

export interface Database {
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
  similarity_runs: SimilarityRunsTable;
  collections: CollectionsTable;
  collection_binaries: CollectionBinariesTable;
  collection_tags: CollectionTagsTable;
  tags: TagsTable;
  osv_records: OsvRecordsTable;
  osv_packages: OsvPackagesTable;
}
