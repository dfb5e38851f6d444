// A new collection: name, description, scope, tags and the model it is labelled with.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { useLocation } from 'wouter';
import { api, unwrap } from '../../api/client';
import { ErrorNote } from '../../components/status';
import { parseTags, useModels } from './api';
import { Field } from '../../components/field';
import { CollectionFields, type CollectionDraft } from './fields';

export function CreateCollectionForm({ onCancel }: { onCancel: () => void }) {
  const client = useQueryClient();
  const [, navigate] = useLocation();
  const models = useModels();
  const [draft, setDraft] = useState<CollectionDraft>({ name: '', description: '', scope: 'PRIVATE' });
  const [tags, setTags] = useState('');
  const [model, setModel] = useState(1);
  const create = useMutation({
    mutationFn: () =>
      unwrap(
        api.POST('/v2/collections', {
          body: {
            collection_name: draft.name.trim(),
            description: draft.description.trim(),
            collection_scope: draft.scope,
            tags: parseTags(tags),
            model_id: model,
          },
        }),
      ),
    onSuccess: (created) => {
      void client.invalidateQueries({ queryKey: ['collections'] });
      navigate(`/collections/${created.collection_id}`);
    },
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    create.mutate();
  };
  return (
    <form className="card collection-form" onSubmit={submit} aria-labelledby="new-collection">
      <h2 id="new-collection">New collection</h2>
      <CollectionFields value={draft} onChange={setDraft} />
      <Field
        label="Tags"
        control={(id) => (
          <input id={id} value={tags} placeholder="comma-separated" onChange={(e) => setTags(e.target.value)} />
        )}
      />
      <Field
        label="Model"
        control={(id) => (
          <select id={id} value={model} onChange={(e) => setModel(Number(e.target.value))}>
            {(models.data ?? []).map((m, i) => (
              <option key={m} value={i + 1}>
                {m}
              </option>
            ))}
          </select>
        )}
      />
      <p className="muted">The model labels the collection for model filters; binaries of any model may join it.</p>
      {create.error && <ErrorNote error={create.error} />}
      <div className="toolbar">
        <button type="submit" disabled={create.isPending || !draft.name.trim()}>
          Create collection
        </button>
        <button type="button" className="secondary" onClick={onCancel}>
          Cancel
        </button>
      </div>
    </form>
  );
}
