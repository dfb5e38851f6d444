import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import {
  CommentBase,
  CommentEnvelopes as E,
  CommentParams,
  CommentUpdateRequest,
  IdParam,
  Tuning,
} from '../../contracts/index.js';
import type { CommentsService } from '../../services/index.js';
import { ok } from '../envelope.js';
import { responses, security } from './schema.js';

const tags = ['AnalysesComments'];

export const commentsRoutes =
  (svc: CommentsService): FastifyPluginAsyncTypebox =>
  async (app) => {
    app.get(
      '/v2/analyses/:analysis_id/comments',
      {
        schema: {
          operationId: 'getAnalysisComments',
          tags,
          security,
          params: IdParam('analysis_id'),
          querystring: Tuning,
          response: responses(200, E.list, [404]),
        },
      },
      async (req) => ok(await svc.list(req.caller, req.params.analysis_id)),
    );

    app.post(
      '/v2/analyses/:analysis_id/comments',
      {
        schema: {
          operationId: 'createAnalysisComment',
          tags,
          security,
          params: IdParam('analysis_id'),
          querystring: Tuning,
          body: CommentBase,
          response: responses(201, E.one, [400, 404]),
        },
      },
      async (req, reply) =>
        reply.status(201).send(ok(await svc.create(req.caller, req.params.analysis_id, req.body.content))),
    );

    app.patch(
      '/v2/analyses/:analysis_id/comments/:comment_id',
      {
        schema: {
          operationId: 'updateAnalysisComment',
          tags,
          security,
          params: CommentParams,
          querystring: Tuning,
          body: CommentUpdateRequest,
          response: responses(200, E.one, [400, 403, 404]),
        },
      },
      async (req) => ok(await svc.update(req.caller, req.params.analysis_id, req.params.comment_id, req.body.content)),
    );

    app.delete(
      '/v2/analyses/:analysis_id/comments/:comment_id',
      {
        schema: {
          operationId: 'deleteAnalysisComment',
          tags,
          security,
          params: CommentParams,
          querystring: Tuning,
          response: responses(200, E.bool, [400, 403, 404]),
        },
      },
      async (req) => ok(await svc.delete(req.caller, req.params.analysis_id, req.params.comment_id)),
    );
  };
