// The owner's changes to a collection: name, description and scope, or deleting it.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { useLocation } from 'wouter';
import { api, unwrap, unwrapNullable } from '../../api/client';
import { ErrorNote } from '../../components/status';
import type { Scope } from './api';
import { CollectionFields, type CollectionDraft } from './fields';

interface Editable {
  collection_id: number;
  collection_name: string;
  description: string;
  collection_scope: Scope;
}

export function EditCollectionForm({ collection, onDone }: { collection: Editable; onDone: () => void }) {
  const client = useQueryClient();
  const [draft, setDraft] = useState<CollectionDraft>({
    name: collection.collection_name,
    description: collection.description,
    scope: collection.collection_scope,
  });
  const save = useMutation({
    mutationFn: () =>
      unwrap(
        api.PATCH('/v2/collections/{collection_id}', {
          params: { path: { collection_id: collection.collection_id } },
          body: {
            collection_name: draft.name.trim(),
            description: draft.description.trim(),
            collection_scope: draft.scope,
          },
        }),
      ),
    onSuccess: () => {
      void client.invalidateQueries({ queryKey: ['collections'] });
      onDone();
    },
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    save.mutate();
  };
  return (
    <form className="card collection-form" onSubmit={submit} aria-labelledby="edit-collection">
      <h2 id="edit-collection">Edit collection</h2>
      <CollectionFields value={draft} onChange={setDraft} />
      {save.error && <ErrorNote error={save.error} />}
      <div className="toolbar">
        <button type="submit" disabled={save.isPending || !draft.name.trim()}>
          Save
        </button>
        <button type="button" className="secondary" onClick={onDone}>
          Cancel
        </button>
      </div>
    </form>
  );
}

export function DeleteCollectionButton({ id, name }: { id: number; name: string }) {
  const client = useQueryClient();
  const [, navigate] = useLocation();
  const remove = useMutation({
    mutationFn: () =>
      unwrapNullable(api.DELETE('/v2/collections/{collection_id}', { params: { path: { collection_id: id } } })),
    onSuccess: () => {
      client.removeQueries({ queryKey: ['collections', id] });
      void client.invalidateQueries({ queryKey: ['collections'] });
      navigate('/collections');
    },
  });
  return (
    <>
      <button
        type="button"
        className="secondary danger"
        disabled={remove.isPending}
        onClick={() => confirm(`Delete the collection “${name}”? Its binaries' analyses stay.`) && remove.mutate()}
      >
        Delete collection
      </button>
      {remove.error && <ErrorNote error={remove.error} />}
    </>
  );
}
