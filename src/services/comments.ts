import { errors } from '../shared/errors.js';
import type { CommentRow, Store } from '../store/index.js';
import { visibleAnalysis, type Caller } from './access.js';

const MAX_COMMENT = 10_000;

const toWire = (c: CommentRow) => ({
  content: c.content,
  id: c.id,
  user_id: c.user_id,
  resource_type: 'analysis',
  resource_id: String(c.analysis_id),
  context: null,
  created_at: new Date(c.created_at).toISOString(),
  updated_at: new Date(c.updated_at).toISOString(),
});

const acceptable = (content: string) => content.trim().length > 0 && content.length <= MAX_COMMENT;

/** Comments on analyses: anyone who can see the analysis may comment; only the author may edit or delete. */
export class CommentsService {
  constructor(private readonly store: Store) {}

  async list(caller: Caller, analysisId: number) {
    await visibleAnalysis(this.store, caller, analysisId);
    return (await this.store.comments.list(analysisId)).map(toWire);
  }

  async create(caller: Caller, analysisId: number, content: string) {
    await visibleAnalysis(this.store, caller, analysisId);
    if (!acceptable(content)) throw errors.commentCreateFailed();
    return toWire(await this.store.comments.create(analysisId, caller.id, content));
  }

  private async authored(caller: Caller, analysisId: number, commentId: number, failure: () => Error) {
    await visibleAnalysis(this.store, caller, analysisId);
    const c = await this.store.comments.get(analysisId, commentId);
    if (!c) throw failure();
    if (c.user_id !== caller.id) throw errors.forbidden();
    return c;
  }

  async update(caller: Caller, analysisId: number, commentId: number, content: string) {
    await this.authored(caller, analysisId, commentId, errors.commentUpdateFailed);
    if (!acceptable(content)) throw errors.commentUpdateFailed();
    const c = await this.store.comments.update(commentId, content);
    if (!c) throw errors.commentUpdateFailed();
    return toWire(c);
  }

  async delete(caller: Caller, analysisId: number, commentId: number) {
    await this.authored(caller, analysisId, commentId, errors.commentDeleteFailed);
    if (!(await this.store.comments.delete(commentId))) throw errors.commentDeleteFailed();
    return true;
  }
}
