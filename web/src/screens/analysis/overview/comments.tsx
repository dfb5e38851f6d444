// Notes on the analysis: everyone who sees it reads them; each author may delete their own.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useId, useState, type FormEvent } from 'react';
import { api, unwrap } from '../../../api/client';
import { ErrorNote, Loaded } from '../../../components/status';
import { commentsKey, useComments, useMe, type Comment } from './queries';

export function Comments({ analysisId }: { analysisId: number }) {
  const comments = useComments(analysisId);
  const me = useMe();
  return (
    <section className="card comments" aria-labelledby="overview-comments">
      <h2 id="overview-comments">Comments</h2>
      <Loaded query={comments} what="comments">
        {(list) =>
          list.length ? (
            <ul>
              {list.map((c) => (
                <CommentItem key={c.id} analysisId={analysisId} comment={c} own={c.user_id === me.data?.user_id} />
              ))}
            </ul>
          ) : (
            <p className="muted">No comments yet.</p>
          )
        }
      </Loaded>
      <AddComment analysisId={analysisId} />
    </section>
  );
}

function CommentItem({ analysisId, comment, own }: { analysisId: number; comment: Comment; own: boolean }) {
  const client = useQueryClient();
  const remove = useMutation({
    mutationFn: () =>
      unwrap(
        api.DELETE('/v2/analyses/{analysis_id}/comments/{comment_id}', {
          params: { path: { analysis_id: analysisId, comment_id: comment.id } },
        }),
      ),
    onSuccess: () => client.invalidateQueries({ queryKey: commentsKey(analysisId) }),
  });
  const created = new Date(comment.created_at).toLocaleString();
  return (
    <li>
      <div className="comment-head">
        <span className="muted">
          {own ? 'You' : (comment.username ?? `User ${comment.user_id}`)}, {created}
          {comment.updated_at !== comment.created_at && ' (edited)'}
        </span>
        {own && (
          <button
            type="button"
            className="secondary"
            onClick={() => remove.mutate()}
            disabled={remove.isPending}
            aria-label={`Delete your comment of ${created}`}
          >
            Delete
          </button>
        )}
      </div>
      <p className="comment-text">{comment.content}</p>
      {remove.error && <ErrorNote error={remove.error} />}
    </li>
  );
}

function AddComment({ analysisId }: { analysisId: number }) {
  const client = useQueryClient();
  const id = useId();
  const [content, setContent] = useState('');
  const add = useMutation({
    mutationFn: (text: string) =>
      unwrap(
        api.POST('/v2/analyses/{analysis_id}/comments', {
          params: { path: { analysis_id: analysisId } },
          body: { content: text },
        }),
      ),
    onSuccess: () => {
      setContent('');
      return client.invalidateQueries({ queryKey: commentsKey(analysisId) });
    },
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (content.trim()) add.mutate(content.trim());
  };
  return (
    <form className="add-comment" onSubmit={submit}>
      <label htmlFor={id}>Comment</label>
      <textarea id={id} rows={3} value={content} onChange={(e) => setContent(e.target.value)} />
      <div>
        <button type="submit" disabled={add.isPending || !content.trim()}>
          Add comment
        </button>
      </div>
      {add.error && <ErrorNote error={add.error} />}
    </form>
  );
}
