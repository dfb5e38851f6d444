// Every collection the caller can see: search, narrowing filters and paging, all kept in the URL, and the
// form for a new one.
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Link, useLocation, useSearch } from 'wouter';
import { api } from '../../api/client';
import type { operations } from '../../api/schema';
import { Loaded } from '../../components/status';
import { CreateCollectionForm } from './create-form';
import { unwrapPage } from '../../api/client';
import { Pager } from '../../components/pager';
import './collections.css';

type Filter = NonNullable<NonNullable<operations['listCollections']['parameters']['query']>['filters']>[number];

const PAGE = 20;
const FILTERS: { value: Filter; label: string }[] = [
  { value: 'user_only', label: 'Mine' },
  { value: 'team_only', label: 'My team’s' },
  { value: 'public_only', label: 'Public' },
  { value: 'official_only', label: 'Official' },
  { value: 'hide_empty', label: 'Hide empty' },
];

export function CollectionsScreen() {
  const search = new URLSearchParams(useSearch());
  const [, navigate] = useLocation();
  const [creating, setCreating] = useState(false);
  const text = search.get('q') ?? '';
  const filters = search.getAll('filter') as Filter[];
  const page = Math.max(1, Number(search.get('page') ?? 1));
  const list = useQuery({
    queryKey: ['collections', 'list', text, filters, page],
    queryFn: () =>
      unwrapPage(
        api.GET('/v2/collections', {
          params: { query: { search_term: text, filters, limit: PAGE, offset: (page - 1) * PAGE } },
        }),
      ),
    placeholderData: keepPreviousData,
  });

  /** The URL with these parameters changed (an empty list removes one), back on page 1 unless it is `page`. */
  const update = (change: Record<string, string[]>) => {
    const next = new URLSearchParams(search);
    for (const [key, values] of Object.entries(change)) {
      next.delete(key);
      for (const v of values) if (v) next.append(key, v);
    }
    if (!('page' in change)) next.delete('page');
    navigate(`/collections?${next.toString()}`, { replace: true });
  };

  return (
    <section className="page collections">
      <h1>Collections</h1>
      <div className="toolbar" role="search">
        <label>
          Search{' '}
          <input
            type="search"
            defaultValue={text}
            placeholder="name or description"
            onKeyDown={(e) => e.key === 'Enter' && update({ q: [e.currentTarget.value.trim()] })}
            onBlur={(e) => e.currentTarget.value.trim() !== text && update({ q: [e.currentTarget.value.trim()] })}
          />
        </label>
        <fieldset className="inline">
          <legend>Show</legend>
          {FILTERS.map((f) => (
            <label key={f.value}>
              <input
                type="checkbox"
                checked={filters.includes(f.value)}
                onChange={(e) =>
                  update({ filter: e.target.checked ? [...filters, f.value] : filters.filter((x) => x !== f.value) })
                }
              />{' '}
              {f.label}
            </label>
          ))}
        </fieldset>
        {!creating && (
          <button type="button" onClick={() => setCreating(true)}>
            New collection
          </button>
        )}
      </div>
      {creating && <CreateCollectionForm onCancel={() => setCreating(false)} />}
      <Loaded query={list} what="collections">
        {({ data, hasNext }) =>
          data.results.length === 0 ? (
            <p className="muted">No collections{text || filters.length ? ' match' : ' yet'}.</p>
          ) : (
            <>
              <table className="grid" aria-label="Collections">
                <thead>
                  <tr>
                    <th scope="col">Name</th>
                    <th scope="col">Scope</th>
                    <th scope="col">Owner</th>
                    <th scope="col">Model</th>
                    <th scope="col" className="num">
                      Binaries
                    </th>
                    <th scope="col">Tags</th>
                    <th scope="col">Created</th>
                  </tr>
                </thead>
                <tbody>
                  {data.results.map((c) => (
                    <tr key={c.collection_id}>
                      <td>
                        <Link href={`/collections/${c.collection_id}`}>{c.collection_name}</Link>
                        {c.official_collection && <span className="badge ok official">official</span>}
                        {c.description && <div className="muted description">{c.description}</div>}
                      </td>
                      <td>{c.collection_scope.toLowerCase()}</td>
                      <td>{c.collection_owner}</td>
                      <td className="mono">{c.model_name}</td>
                      <td className="num">{c.collection_size}</td>
                      <td>
                        {(c.collection_tags ?? []).map((t) => (
                          <Link
                            key={t}
                            className="badge"
                            href={`/search?kind=collections&tag=${encodeURIComponent(t)}`}
                          >
                            {t}
                          </Link>
                        ))}
                      </td>
                      <td>{new Date(c.creation).toLocaleDateString()}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
              <Pager
                page={page}
                hasNext={hasNext}
                onPage={(p) => update({ page: [String(p)] })}
                label="Pages of collections"
              />
            </>
          )
        }
      </Loaded>
    </section>
  );
}
