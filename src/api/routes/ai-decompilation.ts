import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import {
  AcceptTypeSuggestionsBody,
  AcceptTypeSuggestionsOutput,
  AiDecompilationEnvelopes as E,
  AiDecompilationRatingBody,
  BaseResponse,
  CommentEnvelopes as C,
  CommentUpdateRequest,
  FunctionCommentCreateRequest,
  IdParam,
  Tuning,
} from '../../contracts/index.js';
import type { AiDecompilationService, CommentsService } from '../../services/index.js';
import { ok } from '../envelope.js';
import { allErrorsValidatorCompiler } from '../validation.js';
import { operation, v3Operation } from './schema.js';

const FunctionId = IdParam('function_id');
const CommentOfFunction = Type.Object({ function_id: Type.Integer(), comment_id: Type.Integer({ minimum: 1 }) });
const tags = ['FunctionsAIDecompilation'];

/**
 * AI decompilation of a function: request (POST) → poll (GET or …/status) → read; comments on its lines and
 * each user's rating. The whole-analysis request is a Binlens extension beside the data-types one.
 */
export const aiDecompilationRoutes =
  (svc: AiDecompilationService, comments: CommentsService): FastifyPluginAsyncTypebox =>
  async (app) => {
    const one = '/v2/functions/:function_id/ai-decompilation';
    const target = (id: number) => ({ functionId: id });

    app.post(
      one,
      operation(tags, 'createAiDecompilationTask', BaseResponse, [404, 409], { params: FunctionId, code: 201 }),
      async (req, reply) => reply.status(201).send(ok(await svc.request(req.caller, req.params.function_id))),
    );

    app.get(
      one,
      operation(tags, 'getAiDecompilationTaskResult', E.task, [404], {
        params: FunctionId,
        querystring: Type.Object({
          summarise: Type.Optional(Type.Boolean({ default: true })),
          generate_inline_comments: Type.Optional(Type.Boolean({ default: true })),
        }),
      }),
      async (req) => ok(await svc.result(req.caller, req.params.function_id)),
    );

    app.get(
      `${one}/status`,
      operation(tags, 'getAiDecompilationTaskStatus', E.status, [404], { params: FunctionId }),
      async (req) => ok(await svc.status(req.caller, req.params.function_id)),
    );

    app.get(
      `${one}/rating`,
      operation(tags, 'getAiDecompilationRating', E.rating, [404], { params: FunctionId }),
      async (req) => ok(await svc.rating(req.caller, req.params.function_id)),
    );

    app.patch(
      `${one}/rating`,
      operation(tags, 'upsertAiDecompilationRating', BaseResponse, [404], {
        params: FunctionId,
        body: AiDecompilationRatingBody,
        code: 201,
      }),
      async (req, reply) => reply.status(201).send(ok(await svc.rate(req.caller, req.params.function_id, req.body))),
    );

    app.get(
      `${one}/comments`,
      operation(tags, 'getAiDecompilationComments', C.list, [404], { params: FunctionId, querystring: Tuning }),
      async (req) => ok(await comments.list(req.caller, target(req.params.function_id))),
    );

    app.post(
      `${one}/comments`,
      operation(tags, 'createAiDecompilationComment', C.one, [400, 404], {
        params: FunctionId,
        querystring: Tuning,
        body: FunctionCommentCreateRequest,
        code: 201,
      }),
      async (req, reply) =>
        reply
          .status(201)
          .send(
            ok(await comments.create(req.caller, target(req.params.function_id), req.body.content, req.body.context)),
          ),
    );

    app.patch(
      `${one}/comments/:comment_id`,
      operation(tags, 'updateAiDecompilationComment', C.one, [400, 403, 404], {
        params: CommentOfFunction,
        querystring: Tuning,
        body: CommentUpdateRequest,
      }),
      async (req) =>
        ok(await comments.update(req.caller, target(req.params.function_id), req.params.comment_id, req.body.content)),
    );

    app.delete(
      `${one}/comments/:comment_id`,
      operation(tags, 'deleteAiDecompilationComment', C.bool, [400, 403, 404], {
        params: CommentOfFunction,
        querystring: Tuning,
      }),
      async (req) => ok(await comments.delete(req.caller, target(req.params.function_id), req.params.comment_id)),
    );

    app.post(
      '/v2/analyses/:analysis_id/functions/ai-decompilation',
      operation(tags, 'decompileAnalysisFunctions', E.analysis, [404, 409], {
        params: IdParam('analysis_id'),
        code: 201,
      }),
      async (req, reply) => reply.status(201).send(ok(await svc.requestAll(req.caller, req.params.analysis_id))),
    );
  };

/** /v3: accepting the types a decompilation suggests; errors are /v3 bodies (api/v3-errors.ts). */
export const v3AiDecompilationRoutes =
  (svc: AiDecompilationService): FastifyPluginAsyncTypebox =>
  async (app) => {
    app.setValidatorCompiler(allErrorsValidatorCompiler);
    app.post(
      '/v3/functions/:function_id/ai-decompilation/type-suggestions/accept',
      v3Operation(tags, 'v3AcceptAiDecompilationTypeSuggestions', AcceptTypeSuggestionsOutput, [403, 404, 409], {
        params: Type.Object({ function_id: Type.Integer({ format: 'int64', minimum: 1 }) }),
        body: AcceptTypeSuggestionsBody,
      }),
      async (req) => svc.acceptTypeSuggestions(req.caller, req.params.function_id, req.body.keys),
    );
  };
