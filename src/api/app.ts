import fastifyMultipart from '@fastify/multipart';
import fastifySwagger from '@fastify/swagger';
import fastifySwaggerUi from '@fastify/swagger-ui';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import Fastify, { LogController, type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import type {
  AiDecompilationService,
  AnalysesService,
  AnalysisDataTypesService,
  AnalysisProgressService,
  AnalysisResultsService,
  BinariesService,
  RelatedBinariesService,
  FirmwareService,
  CollectionsV2Service,
  CollectionsV3Service,
  CommentsService,
  DataTypesService,
  FunctionBlocksService,
  FunctionSignaturesService,
  HealthService,
  FunctionNamesService,
  FunctionsService,
  FunctionMatchingService,
  UnstripService,
  SearchService,
  UploadsService,
  UnderstandingService,
  DynamicExecutionService,
  UsersService,
} from '../services/index.js';
import { API_INFO, API_TAGS, DOCS_UI } from './docs/index.js';
import { registerAuth } from './plugins/auth.js';
import { registerErrorHandling } from './plugins/errors.js';
import { registerRequestLog } from './plugins/request-log.js';
import { registerWebInterface } from './web-interface.js';
import { analysesRoutes } from './routes/analyses.js';
import { analysisEventsRoute } from './routes/analysis-events.js';
import { analysisResultsRoutes } from './routes/analysis-results.js';
import { binariesRoutes } from './routes/binaries.js';
import { firmwareRoutes } from './routes/firmware.js';
import { collectionsRoutes } from './routes/collections.js';
import { aiDecompilationRoutes, v3AiDecompilationRoutes } from './routes/ai-decompilation.js';
import { commentsRoutes } from './routes/comments.js';
import { dataTypesRoutes } from './routes/data-types.js';
import { functionNamesRoutes } from './routes/function-names.js';
import { functionsRoutes } from './routes/functions.js';
import { functionMatchingRoutes } from './routes/function-matching.js';
import { platformRoutes } from './routes/platform.js';
import { understandingRoutes } from './routes/understanding.js';
import { dynamicExecutionRoutes } from './routes/dynamic-execution.js';
import { searchRoutes } from './routes/search.js';
import { uploadRoutes } from './routes/upload.js';
import { v3Routes } from './routes/v3.js';
import { v3DataTypesRoutes } from './routes/v3-data-types.js';
import { validatorCompiler } from './validation.js';

export interface ApiServices {
  users: UsersService;
  uploads: UploadsService;
  analyses: AnalysesService;
  results: AnalysisResultsService;
  progress: AnalysisProgressService;
  comments: CommentsService;
  functions: FunctionsService;
  blocks: FunctionBlocksService;
  names: FunctionNamesService;
  binaries: BinariesService;
  relatedBinaries: RelatedBinariesService;
  firmware: FirmwareService;
  understanding: UnderstandingService;
  dynamicExecution: DynamicExecutionService;
  matching: FunctionMatchingService;
  unstrip: UnstripService;
  dataTypes: DataTypesService;
  decompilation: AiDecompilationService;
  analysisDataTypes: AnalysisDataTypesService;
  signatures: FunctionSignaturesService;
  collections: CollectionsV2Service;
  collectionsV3: CollectionsV3Service;
  search: SearchService;
  health: HealthService;
}

export interface ApiOptions {
  maxUploadBytes: number;
  /** Requests are logged (one line each) when given; tests run without. */
  logger?: FastifyBaseLogger;
}

/** JSON request bodies (files stream through multipart uploads, bounded by BINLENS_MAX_UPLOAD_BYTES). */
const MAX_BODY_BYTES = 16 * 1024 * 1024;

/** Builds the HTTP app without listening, so tests drive it through `inject()` and main() adds a socket. */
export async function buildApp(services: ApiServices, opts: ApiOptions): Promise<FastifyInstance> {
  const app = Fastify({
    ...(opts.logger ? { loggerInstance: opts.logger } : { logger: false }),
    // One line per request (request-log.ts) instead of Fastify's two.
    logController: new LogController({ disableRequestLogging: true }),
    bodyLimit: MAX_BODY_BYTES,
    // The response serializer's own Ajv (for anyOf branches) must know the contract's integer formats too.
    serializerOpts: { ajv: { formats: { int64: true, bigint: true, binary: true } } },
  }).withTypeProvider<TypeBoxTypeProvider>();
  app.setValidatorCompiler(validatorCompiler);
  registerErrorHandling(app, opts.maxUploadBytes, MAX_BODY_BYTES);
  registerRequestLog(app);

  await app.register(fastifySwagger, {
    openapi: {
      openapi: '3.1.0',
      info: API_INFO,
      tags: API_TAGS,
      components: {
        securitySchemes: {
          APIKey: {
            type: 'apiKey',
            in: 'header',
            name: 'Authorization',
            description: 'The API key as it is, no scheme: `binlens users create <name>` makes one.',
          },
        },
      },
      security: [{ APIKey: [] }],
    },
  });
  await app.register(fastifySwaggerUi, DOCS_UI);
  await app.register(fastifyMultipart, { limits: { fileSize: opts.maxUploadBytes, files: 1, fields: 16 } });
  registerAuth(app, services.users);

  await app.register(uploadRoutes(services.uploads));
  await app.register(analysesRoutes(services.analyses));
  await app.register(analysisResultsRoutes(services.results, services.analyses));
  await app.register(analysisEventsRoute(services.progress));
  await app.register(commentsRoutes(services.comments));
  await app.register(functionsRoutes(services.functions, services.blocks));
  await app.register(functionNamesRoutes(services.names));
  await app.register(binariesRoutes(services.binaries, services.relatedBinaries));
  await app.register(firmwareRoutes(services.firmware, services.uploads));
  await app.register(understandingRoutes(services.understanding));
  await app.register(dynamicExecutionRoutes(services.dynamicExecution));
  await app.register(functionMatchingRoutes(services.matching, services.unstrip));
  await app.register(dataTypesRoutes(services.dataTypes));
  await app.register(aiDecompilationRoutes(services.decompilation, services.comments));
  await app.register(collectionsRoutes(services.collections));
  await app.register(searchRoutes(services.search));
  await app.register(v3Routes(services.collectionsV3, services.search));
  await app.register(v3DataTypesRoutes(services.analysisDataTypes, services.signatures));
  await app.register(v3AiDecompilationRoutes(services.decompilation));
  await app.register(platformRoutes(services.users, opts.maxUploadBytes));

  await registerWebInterface(app);
  app.get('/openapi.json', { schema: { hide: true } }, async () => app.swagger());
  // Liveness: the process answers. Readiness: it can serve (database and blob store usable), 503 otherwise.
  app.get('/healthz', { schema: { hide: true } }, async () => ({ status: 'ok' }));
  app.get('/readyz', { schema: { hide: true } }, async (_req, reply) => {
    const r = await services.health.readiness();
    return reply.status(r.ready ? 200 : 503).send({ status: r.ready ? 'ready' : 'unavailable', checks: r.checks });
  });
  return app;
}
