// One collection: its facts, tags and binaries (paged, searchable), and for its owner editing, deleting,
// and adding or removing binaries.
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from 'wouter';
import { api } from '../../api/client';
import { Loaded } from '../../components/status';
import { useMe, useModels } from './api';
import { DeleteCollectionButton, EditCollectionForm } from './edit-form';
import { Members, type Member } from './members';
import { unwrapPage } from '../../api/client';
import { Pager } from '../../components/pager';
import { TagsEditor } from './tags-editor';
import './collections.css';

const MEMBERS_PER_PAGE = 25;

export function CollectionScreen({ id }: { id: number }) {
  const [page, setPage] = useState(1);
  const [filter, setFilter] = useState('');
  const [editing, setEditing] = useState(false);
  const me = useMe();
  const models = useModels();
  const collection = useQuery({
    queryKey: ['collections', id, page, filter],
    queryFn: () =>
      unwrapPage(
        api.GET('/v2/collections/{collection_id}', {
          params: {
            path: { collection_id: id },
            query: {
              include_tags: true,
              include_binaries: true,
              page_size: MEMBERS_PER_PAGE,
              page_number: page,
              ...(filter ? { binary_search_str: filter } : {}),
            },
          },
        }),
      ),
    placeholderData: keepPreviousData,
  });

  return (
    <section className="page collections">
      <p>
        <Link href="/collections">← Collections</Link>
      </p>
      <Loaded query={collection} what="the collection">
        {({ data: c, hasNext }) => {
          const owner = me.data?.user_id === c.user_id;
          // Members come as objects with include_binaries; bare ids only in answers that leave them out.
          const members = (c.binaries ?? []).filter((b): b is Member => typeof b !== 'number');
          return (
            <>
              <h1>
                {c.collection_name} <span className="badge">{c.collection_scope.toLowerCase()}</span>
              </h1>
              {c.description && <p>{c.description}</p>}
              <dl className="facts">
                <dt>Model</dt>
                <dd className="mono">{models.data?.[c.model_id - 1] ?? `model ${c.model_id}`}</dd>
                <dt>Owner</dt>
                <dd>{owner ? 'you' : `user ${c.user_id}`}</dd>
                <dt>Created</dt>
                <dd>{new Date(c.created_at).toLocaleString()}</dd>
                <dt>Updated</dt>
                <dd>{new Date(c.updated_at).toLocaleString()}</dd>
              </dl>
              {owner && !editing && (
                <div className="toolbar">
                  <button type="button" onClick={() => setEditing(true)}>
                    Edit
                  </button>
                  <DeleteCollectionButton id={id} name={c.collection_name} />
                </div>
              )}
              {editing && <EditCollectionForm collection={c} onDone={() => setEditing(false)} />}

              <h2>Tags</h2>
              <TagsEditor id={id} tags={c.tags ?? []} editable={owner} />

              <h2>Binaries</h2>
              <div className="toolbar" role="search" aria-label="Filter the binaries">
                <label>
                  Filter by name{' '}
                  <input
                    type="search"
                    defaultValue={filter}
                    onKeyDown={(e) => {
                      if (e.key !== 'Enter') return;
                      setFilter(e.currentTarget.value.trim());
                      setPage(1);
                    }}
                  />
                </label>
              </div>
              <Members id={id} members={members} editable={owner} />
              <Pager page={page} hasNext={hasNext} onPage={setPage} label="Pages of binaries" />
            </>
          );
        }}
      </Loaded>
    </section>
  );
}
