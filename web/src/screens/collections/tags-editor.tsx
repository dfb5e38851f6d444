// A collection's tags: shown to everyone, added and removed by its owner (the list is replaced whole).
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { Link } from 'wouter';
import { api, unwrap } from '../../api/client';
import { ErrorNote } from '../../components/status';
import { parseTags } from './api';

export function TagsEditor({ id, tags, editable }: { id: number; tags: readonly string[]; editable: boolean }) {
  const client = useQueryClient();
  const [draft, setDraft] = useState('');
  const save = useMutation({
    mutationFn: (next: string[]) =>
      unwrap(
        api.PATCH('/v2/collections/{collection_id}/tags', {
          params: { path: { collection_id: id } },
          body: { tags: next },
        }),
      ),
    onSuccess: () => {
      setDraft('');
      void client.invalidateQueries({ queryKey: ['collections'] });
    },
  });
  const add = (e: FormEvent) => {
    e.preventDefault();
    save.mutate([...new Set([...tags, ...parseTags(draft)])]);
  };
  return (
    <>
      {tags.length === 0 ? (
        <p className="muted">No tags.</p>
      ) : (
        <ul className="tag-list" aria-label="Tags">
          {tags.map((t) => (
            <li key={t} className="badge">
              <Link href={`/search?kind=collections&tag=${encodeURIComponent(t)}`}>{t}</Link>
              {editable && (
                <button
                  type="button"
                  aria-label={`Remove tag ${t}`}
                  disabled={save.isPending}
                  onClick={() => save.mutate(tags.filter((x) => x !== t))}
                >
                  ×
                </button>
              )}
            </li>
          ))}
        </ul>
      )}
      {editable && (
        <form className="toolbar" onSubmit={add}>
          <label>
            New tags <input value={draft} placeholder="comma-separated" onChange={(e) => setDraft(e.target.value)} />
          </label>
          <button type="submit" disabled={save.isPending || parseTags(draft).length === 0}>
            Add tags
          </button>
        </form>
      )}
      {save.error && <ErrorNote error={save.error} />}
    </>
  );
}
