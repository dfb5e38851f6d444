// Metadata store: repositories over one Kysely code path, with two drivers (sqlite/, postgres/) that
// differ only in connection, migrations and queue locking. Imports shared/ only.
import { sql } from 'kysely';
import type { DatabaseDriver } from './driver.js';
import { AnalysesRepository } from './analyses.js';
import { AnalysisDataTypesRepository } from './analysis-data-types.js';
import { BinaryRelationsRepository } from './binary-relations.js';
import { FirmwareTasksRepository } from './firmware-tasks.js';
import { CollectionsRepository } from './collections.js';
import { CommentsRepository } from './comments.js';
import { DecompilationRatingsRepository } from './decompilation-ratings.js';
import { DynamicExecutionsRepository } from './dynamic-executions.js';
import { FunctionDecompilationsRepository } from './function-decompilations.js';
import { AnalysisEventsRepository } from './events.js';
import { FunctionDataTypesRepository } from './function-data-types.js';
import { FunctionsRepository } from './functions.js';
import { JobsRepository } from './jobs.js';
import { SimilarityInputsRepository } from './similarity-inputs.js';
import { NameHistoryRepository } from './name-history.js';
import { SamplesRepository } from './samples.js';
import { SearchRepository } from './search.js';
import { SimilarityRepository } from './similarity.js';
import type { SimilarityIndex } from './similarity-index.js';
import { SimilarityRunsRepository } from './similarity-runs.js';
import { StringsRepository } from './strings.js';
import { UsersRepository } from './users.js';
import { VulnerabilitiesRepository } from './vulnerabilities.js';

export type { DatabaseDriver } from './driver.js';
export type { AnalysisRow, AnalysisWithOwner, ListFilter, Viewer } from './analyses.js';
export type {
  CollectionBinaryRow,
  CollectionFilter,
  CollectionFilterFlag,
  CollectionListRow,
  CollectionOrder,
  CollectionWithOwner,
  NewCollection,
} from './collections.js';
export { OFFICIAL_ROLES } from './collections.js';
export type { NewChild, RelativeRow } from './binary-relations.js';
export type { FirmwareStatus, FirmwareTaskRow, NewFirmwareTask } from './firmware-tasks.js';
export type { CommentRow, CommentSubject } from './comments.js';
export type { DecompilationRating } from './decompilation-ratings.js';
export type { DecompilationOutcome, FunctionDecompilationRow } from './function-decompilations.js';
export { FunctionDecompilationsRepository } from './function-decompilations.js';
export type { FunctionOwner, FunctionResults, FunctionRow } from './functions.js';
export type { DataTypeFilter, DataTypeRow, DataTypeWrite, DefinedDataType } from './analysis-data-types.js';
export type {
  DataTypesEdit,
  DataTypesHistoryRow,
  FunctionDataTypesRow,
  GeneratedTypes,
} from './function-data-types.js';
export { servedRecord } from './function-data-types.js';
export { tableEntry } from './analysis-data-types.js';
export type { JobRow } from './jobs.js';
export type { SimilarityRunRow } from './similarity-runs.js';
export type { NameChange, NameHistoryRow } from './name-history.js';
export type { SampleRow } from './samples.js';
export type { BinarySearch, SearchPage } from './search.js';
export type { UserRow } from './users.js';
export type { OsvRecordRow } from './vulnerabilities.js';
export type * from './similarity-index.js';
export { openDatabase } from './open.js';

export interface Store {
  driver: DatabaseDriver;
  /** Answers when the database does (readiness). */
  ping(): Promise<void>;
  users: UsersRepository;
  samples: SamplesRepository;
  analyses: AnalysesRepository;
  comments: CommentsRepository;
  events: AnalysisEventsRepository;
  functions: FunctionsRepository;
  /** Each function's data types: generation status, the engine's record, the owner's version, history. */
  functionDataTypes: FunctionDataTypesRepository;
  /** Each analysis's type table and which functions use which types. */
  analysisDataTypes: AnalysisDataTypesRepository;
  /** Each function's latest decompilation (status, result, when it was made) and its users' ratings. */
  functionDecompilations: FunctionDecompilationsRepository;
  decompilationRatings: DecompilationRatingsRepository;
  /** Each analysis's emulated run (dynamic execution): status, report or why it could not run. */
  dynamicExecutions: DynamicExecutionsRepository;
  binaryRelations: BinaryRelationsRepository;
  firmwareTasks: FirmwareTasksRepository;
  strings: StringsRepository;
  jobs: JobsRepository;
  similarityRuns: SimilarityRunsRepository;
  similarityInputs: SimilarityInputsRepository;
  nameHistory: NameHistoryRepository;
  collections: CollectionsRepository;
  similarity: SimilarityIndex;
  search: SearchRepository;
  vulnerabilities: VulnerabilitiesRepository;
}

export function createStore(driver: DatabaseDriver): Store {
  const jobs = new JobsRepository(driver);
  const analysisDataTypes = new AnalysisDataTypesRepository(driver.db);
  return {
    driver,
    async ping() {
      await sql`SELECT 1`.execute(driver.db);
    },
    jobs,
    users: new UsersRepository(driver.db),
    samples: new SamplesRepository(driver.db),
    analyses: new AnalysesRepository(driver.db, jobs),
    comments: new CommentsRepository(driver.db),
    events: new AnalysisEventsRepository(driver.db),
    functions: new FunctionsRepository(driver.db),
    functionDataTypes: new FunctionDataTypesRepository(driver, jobs, analysisDataTypes),
    analysisDataTypes,
    functionDecompilations: new FunctionDecompilationsRepository(driver.db, jobs),
    decompilationRatings: new DecompilationRatingsRepository(driver.db),
    dynamicExecutions: new DynamicExecutionsRepository(driver.db),
    binaryRelations: new BinaryRelationsRepository(driver.db),
    firmwareTasks: new FirmwareTasksRepository(driver.db, jobs),
    strings: new StringsRepository(driver.db),
    similarityRuns: new SimilarityRunsRepository(driver.db, jobs),
    similarityInputs: new SimilarityInputsRepository(driver.db),
    nameHistory: new NameHistoryRepository(driver.db),
    collections: new CollectionsRepository(driver.db),
    similarity: new SimilarityRepository(driver.db),
    search: new SearchRepository(driver.db),
    vulnerabilities: new VulnerabilitiesRepository(driver.db),
  };
}
