import { Type } from '@sinclair/typebox';
import { Envelope, Nullable } from './envelope.js';

export const CommentBase = Type.Object({ content: Type.String() });
export const CommentUpdateRequest = Type.Object({ content: Type.String() });

export const CommentResponse = Type.Object({
  content: Type.String(),
  id: Type.Integer(),
  user_id: Type.Integer(),
  /** Binlens extension: readers see who wrote a comment without a user lookup they may not be allowed. */
  username: Type.Optional(Type.String({ description: "Binlens extension: the author's username" })),
  resource_type: Type.String(),
  resource_id: Type.String(),
  context: Type.Optional(Nullable(Type.Object({}, { additionalProperties: true }))),
  created_at: Type.String({ format: 'date-time' }),
  updated_at: Type.String({ format: 'date-time' }),
});

export const CommentParams = Type.Object({ analysis_id: Type.Integer(), comment_id: Type.Integer({ minimum: 1 }) });

export const CommentEnvelopes = {
  one: Envelope(Nullable(CommentResponse)),
  list: Envelope(Nullable(Type.Array(CommentResponse))),
  bool: Envelope(Nullable(Type.Boolean())),
};
