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
import { operation } from './schema.js';

const tags = ['AnalysesComments'];

export const commentsRoutes =
  (svc: CommentsService): FastifyPluginAsyncTypebox =>
  async (app) => {
    app.get(
      '/v2/analyses/:analysis_id/comments',
      operation(tags, 'getAnalysisComments', E.list, [404], { params: IdParam('analysis_id'), querystring: Tuning }),
      async (req) => ok(await svc.list(req.caller, { analysisId: req.params.analysis_id })),
    );

    app.post(
      '/v2/analyses/:analysis_id/comments',
      operation(tags, 'createAnalysisComment', E.one, [400, 404], {
        params: IdParam('analysis_id'),
        querystring: Tuning,
        body: CommentBase,
        code: 201,
      }),
      async (req, reply) =>
        reply
          .status(201)
          .send(ok(await svc.create(req.caller, { analysisId: req.params.analysis_id }, req.body.content))),
    );

    app.patch(
      '/v2/analyses/:analysis_id/comments/:comment_id',
      operation(tags, 'updateAnalysisComment', E.one, [400, 403, 404], {
        params: CommentParams,
        querystring: Tuning,
        body: CommentUpdateRequest,
      }),
      async (req) =>
        ok(
          await svc.update(req.caller, { analysisId: req.params.analysis_id }, req.params.comment_id, req.body.content),
        ),
    );

    app.delete(
      '/v2/analyses/:analysis_id/comments/:comment_id',
      operation(tags, 'deleteAnalysisComment', E.bool, [400, 403, 404], { params: CommentParams, querystring: Tuning }),
      async (req) => ok(await svc.delete(req.caller, { analysisId: req.params.analysis_id }, req.params.comment_id)),
    );
  };
