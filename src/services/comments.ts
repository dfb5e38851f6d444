import { errors } from '../shared/errors.js';
import type { CommentRow, CommentSubject, Store } from '../store/index.js';
import { visibleAnalysis, visibleFunction, type Caller } from './access.js';

const MAX_COMMENT = 10_000;

/** What a comment is on, as a request names it: an analysis, or a function's decompilation. */
export type CommentTarget = { analysisId: number } | { functionId: number };

/** The lines of a decompilation a comment is about (the reference's DecompilationCommentContext). */
export interface CommentContext {
  start_line: number | null;
  end_line: number | null;
}

interface Resolved {
  on: CommentSubject;
  resource: { type: string; id: string };
}

const toWire = (c: CommentRow, { resource }: Resolved, username: string | undefined) => ({
  content: c.content,
  id: c.id,
  user_id: c.user_id,
  username,
  resource_type: resource.type,
  resource_id: resource.id,
  context: c.context === null ? null : (JSON.parse(c.context) as CommentContext),
  created_at: new Date(c.created_at).toISOString(),
  updated_at: new Date(c.updated_at).toISOString(),
});

const acceptable = (content: string) => content.trim().length > 0 && content.length <= MAX_COMMENT;

/**
 * Comments on analyses and on functions' decompilations: anyone who can see the analysis may comment; only the
 * author may edit or delete.
 */
export class CommentsService {
  constructor(private readonly store: Store) {}

  /** The subject, when the caller may see it (404 otherwise), and how responses name it. */
  private async resolve(caller: Caller, target: CommentTarget): Promise<Resolved> {
    if ('analysisId' in target) {
      await visibleAnalysis(this.store, caller, target.analysisId);
      return {
        on: { analysisId: target.analysisId, vaddr: null },
        resource: { type: 'analysis', id: String(target.analysisId) },
      };
    }
    const { f } = await visibleFunction(this.store, caller, target.functionId);
    return {
      on: { analysisId: f.analysis_id, vaddr: f.vaddr },
      resource: { type: 'ai_decompilation', id: String(target.functionId) },
    };
  }

  async list(caller: Caller, target: CommentTarget) {
    const r = await this.resolve(caller, target);
    const comments = await this.store.comments.list(r.on);
    // A handful of authors per subject: one lookup each.
    const authors = new Map(
      await Promise.all(
        [...new Set(comments.map((c) => c.user_id))].map(
          async (id) => [id, (await this.store.users.byId(id))?.username] as const,
        ),
      ),
    );
    return comments.map((c) => toWire(c, r, authors.get(c.user_id)));
  }

  async create(caller: Caller, target: CommentTarget, content: string, context?: CommentContext) {
    const r = await this.resolve(caller, target);
    if (!acceptable(content)) throw errors.commentCreateFailed();
    const stored = context === undefined ? null : JSON.stringify(context);
    return toWire(await this.store.comments.create(r.on, caller.id, content, stored), r, caller.username);
  }

  private async authored(caller: Caller, target: CommentTarget, commentId: number, failure: () => Error) {
    const r = await this.resolve(caller, target);
    const c = await this.store.comments.get(r.on, commentId);
    if (!c) throw failure();
    if (c.user_id !== caller.id) throw errors.forbidden();
    return r;
  }

  async update(caller: Caller, target: CommentTarget, commentId: number, content: string) {
    const r = await this.authored(caller, target, commentId, errors.commentUpdateFailed);
    if (!acceptable(content)) throw errors.commentUpdateFailed();
    const c = await this.store.comments.update(commentId, content);
    if (!c) throw errors.commentUpdateFailed();
    // Only the author edits a comment.
    return toWire(c, r, caller.username);
  }

  async delete(caller: Caller, target: CommentTarget, commentId: number) {
    await this.authored(caller, target, commentId, errors.commentDeleteFailed);
    if (!(await this.store.comments.delete(commentId))) throw errors.commentDeleteFailed();
    return true;
  }
}
