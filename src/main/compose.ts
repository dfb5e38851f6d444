import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../api/index.js';
import { FsBlobStore } from '../blobs/index.js';
import type { Config } from '../config/index.js';
import {
  ANALYSIS_JOB_KIND,
  DATA_TYPES_JOB_KIND,
  DECOMPILE_JOB_KIND,
  DYNAMIC_EXECUTION_JOB_KIND,
  FIRMWARE_JOB_KIND,
  SIMILARITY_RUN_JOB_KIND,
} from '../contracts/index.js';
import {
  AnalysisJobHandler,
  AnalysisPool,
  dataTypesJobHandler,
  decompileJobHandler,
  dynamicExecutionJobHandler,
  firmwareJobHandler,
  JobRunner,
  RequestPool,
  SimilarityRunJobHandler,
} from '../jobs/index.js';
import {
  AiDecompilationService,
  AnalysesService,
  AnalysisDataTypesService,
  AnalysisProgressService,
  AnalysisResultsService,
  BinariesService,
  RelatedBinariesService,
  FirmwareService,
  DynamicExecutionService,
  CollectionsService,
  CollectionsV2Service,
  CollectionsV3Service,
  CommentsService,
  DataTypesService,
  FunctionBlocksService,
  FunctionSignaturesService,
  FunctionMatchingService,
  FunctionNamesService,
  FunctionsService,
  HealthService,
  UnderstandingService,
  UnstripService,
  SearchService,
  UploadsService,
  UsersService,
} from '../services/index.js';
import { aiRefinementLine, serviceLogger } from './logging.js';
import { createStore, openDatabase, type Store } from '../store/index.js';

/** Samples larger than this are stored but not analysed (they would not fit a worker's memory). */
const MAX_ANALYSIS_BYTES = 2 * 1024 * 1024 * 1024 - 1;

/** How often this process marks its upload staging folder alive and removes those of crashed processes. */
const BLOB_MAINTENANCE_MS = 60_000;

/** How long a stopping process waits for analyses in flight before cutting them off. */
const SHUTDOWN_GRACE_MS = 5000;

/** What the job runner runs, by job kind. */
const jobHandlers = (store: Store, blobs: FsBlobStore, pool: AnalysisPool, config: Config) => ({
  [ANALYSIS_JOB_KIND]: new AnalysisJobHandler(
    store,
    blobs,
    pool,
    MAX_ANALYSIS_BYTES,
    config.rulesDirs,
    config.databaseUrl,
  ),
  [SIMILARITY_RUN_JOB_KIND]: new SimilarityRunJobHandler(store, store.similarity),
  [DATA_TYPES_JOB_KIND]: dataTypesJobHandler(store, blobs, pool, MAX_ANALYSIS_BYTES, config.databaseUrl),
  [DECOMPILE_JOB_KIND]: decompileJobHandler(store, blobs, pool, MAX_ANALYSIS_BYTES, config.databaseUrl, config.llm),
  [DYNAMIC_EXECUTION_JOB_KIND]: dynamicExecutionJobHandler(store, blobs, config.sandboxMs),
  [FIRMWARE_JOB_KIND]: firmwareJobHandler(store, blobs, config.firmware),
});

export interface Runtime {
  store: Store;
  users: UsersService;
  close(): Promise<void>;
}

/** Opens the database (migrating it) and the users service: enough for the CLI's admin commands. */
export async function openRuntime(config: Config): Promise<Runtime> {
  const driver = openDatabase(config.databaseUrl);
  await driver.migrate();
  const store = createStore(driver);
  return { store, users: new UsersService(store), close: () => driver.close() };
}

export interface Service {
  app: FastifyInstance;
  runner: JobRunner | null;
  /** The bootstrap admin's key when this start generated it (print once), else null. */
  generatedAdminKey: string | null;
  close(): Promise<void>;
}

/**
 * API and, unless `config.workers` is 0, the job runner with its worker threads; with `log`, requests and
 * jobs are logged (logging.ts).
 */
export async function buildService(config: Config, opts: { log: boolean } = { log: false }): Promise<Service> {
  const runtime = await openRuntime(config);
  const { store, users } = runtime;
  const blobs = new FsBlobStore(join(config.dataDir, 'blobs'));
  // Partial files of uploads a crash interrupted go at start, and those of other nodes once they stop.
  await blobs.sweep();
  const generatedAdminKey = await users.bootstrapAdmin(config.adminApiKey);
  // Block text, file digests and PDF reports are made on request by a thread of their own, never queued
  // behind analyses.
  const requestPool = new RequestPool();
  const understanding = new UnderstandingService(store, blobs, {
    sectionEntropy: (request) => requestPool.sectionEntropy(request),
    renderPdf: (input) => requestPool.renderPdf(input),
  });
  const collections = new CollectionsService(store);
  const dataTypes = new DataTypesService(store);
  const unstrip = new UnstripService(store);
  const comments = new CommentsService(store);
  const signatures = new FunctionSignaturesService(store, dataTypes);
  const uploads = new UploadsService(store, blobs, config.maxUploadBytes);

  const app = await buildApp(
    {
      users,
      uploads,
      analyses: new AnalysesService(store, (a) => understanding.tagItems(a)),
      results: new AnalysisResultsService(store),
      progress: new AnalysisProgressService(store),
      comments,
      functions: new FunctionsService(store),
      blocks: new FunctionBlocksService(store, blobs, (req) => requestPool.renderBlocks(req)),
      names: new FunctionNamesService(store),
      binaries: new BinariesService(store, blobs, (path) => requestPool.describeFile(path)),
      relatedBinaries: new RelatedBinariesService(store),
      firmware: new FirmwareService(store, blobs, uploads),
      understanding,
      dynamicExecution: new DynamicExecutionService(store, blobs),
      matching: new FunctionMatchingService(store),
      unstrip,
      dataTypes,
      // Per-function requests ask for the model's part when one is configured; the workers call it.
      decompilation: new AiDecompilationService(store, unstrip, signatures, { withModel: config.llm !== null }),
      analysisDataTypes: new AnalysisDataTypesService(store),
      signatures,
      collections: new CollectionsV2Service(collections),
      collectionsV3: new CollectionsV3Service(collections),
      search: new SearchService(store, collections),
      health: new HealthService(store, blobs),
    },
    { maxUploadBytes: config.maxUploadBytes, ...(opts.log ? { logger: serviceLogger(config) } : {}) },
  );

  app.log.info(aiRefinementLine(config.llm));

  const maintenance = setInterval(() => {
    blobs
      .heartbeat()
      .then(() => blobs.sweep())
      .catch((err: unknown) => app.log.warn({ err }, 'upload staging clean-up failed'));
  }, BLOB_MAINTENANCE_MS).unref();

  let runner: JobRunner | null = null;
  let pool: AnalysisPool | null = null;
  if (config.workers > 0) {
    pool = new AnalysisPool(config.workers, config.analysisLimits);
    runner = new JobRunner(store, jobHandlers(store, blobs, pool, config), {
      concurrency: config.workers,
      leaseMs: config.jobLeaseMs,
      logger: app.log,
    });
    // Work created through this process's API starts at once instead of at the next poll.
    app.addHook('onResponse', async (req, reply) => {
      if (req.method !== 'GET' && reply.statusCode === 201) runner?.poke();
    });
    runner.start();
  }

  return {
    app,
    runner,
    generatedAdminKey,
    async close() {
      clearInterval(maintenance);
      await app.close();
      // In-flight analyses get a moment to finish; a longer one is cut off with the pool, and its lease
      // hands it to the next runner (here after a restart, or another node).
      await Promise.race([runner?.stop(), new Promise((r) => setTimeout(r, SHUTDOWN_GRACE_MS).unref())]);
      await Promise.all([pool?.close(), requestPool.close()]);
      await runtime.close();
    },
  };
}

/** A job runner without the API, for worker-only nodes (`binlens worker`). */
export async function buildWorker(config: Config): Promise<{ close(): Promise<void> }> {
  const logger = serviceLogger(config);
  const runtime = await openRuntime(config);
  const blobs = new FsBlobStore(join(config.dataDir, 'blobs'));
  const pool = new AnalysisPool(Math.max(config.workers, 1), config.analysisLimits);
  logger.info(aiRefinementLine(config.llm));
  const runner = new JobRunner(runtime.store, jobHandlers(runtime.store, blobs, pool, config), {
    concurrency: Math.max(config.workers, 1),
    leaseMs: config.jobLeaseMs,
    logger,
  });
  runner.start();
  return {
    async close() {
      await Promise.race([runner.stop(), new Promise((r) => setTimeout(r, SHUTDOWN_GRACE_MS).unref())]);
      await pool.close();
      await runtime.close();
    },
  };
}
