// One search box over binaries, functions, collections and tags. The query, the kind, a tag filter and
// the page live in the URL (?q=…&kind=…&tag=…&page=…) so a search can be linked.
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { FormEvent, ReactNode } from 'react';
import { Link, useLocation, useSearch } from 'wouter';
import { api } from '../api/client';
import { Loaded } from '../components/status';
import type { operations } from '../api/schema';
import { unwrapPage } from '../api/client';
import { Pager } from '../components/pager';

const KINDS = [
  ['binaries', 'Binaries'],
  ['functions', 'Functions'],
  ['collections', 'Collections'],
  ['tags', 'Tags'],
] as const;
type Kind = (typeof KINDS)[number][0];

const PAGE_SIZE = 25;
const SHA_PART = /^[0-9a-f]{8,64}$/i;

interface Asked {
  kind: Kind;
  q: string;
  tag: string;
  page: number;
}

const href = (a: Partial<Asked>) => {
  const p = new URLSearchParams();
  if (a.q) p.set('q', a.q);
  p.set('kind', a.kind ?? 'binaries');
  if (a.tag) p.set('tag', a.tag);
  if (a.page && a.page > 1) p.set('page', String(a.page));
  return `/search?${p.toString()}`;
};

const date = (iso: string) => new Date(iso).toLocaleDateString();

function TagBadges({ tags, kind }: { tags: readonly string[] | null | undefined; kind: Kind }) {
  return (
    <>
      {(tags ?? []).map((t) => (
        <Link key={t} className="badge" href={href({ kind, tag: t })}>
          {t}
        </Link>
      ))}
    </>
  );
}

function Table({ label, head, children }: { label: string; head: readonly string[]; children: ReactNode }) {
  return (
    <table className="grid" aria-label={label}>
      <thead>
        <tr>
          {head.map((h) => (
            <th key={h} scope="col">
              {h}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>{children}</tbody>
    </table>
  );
}

type Operation = 'searchBinaries' | 'searchFunctions' | 'searchCollections' | 'searchTags';
type Results<O extends Operation> = NonNullable<
  operations[O]['responses'][200]['content']['application/json']['data']
>['results'];

/** A page of results, by kind. */
type Found =
  | { kind: 'binaries'; results: Results<'searchBinaries'> }
  | { kind: 'functions'; results: Results<'searchFunctions'> }
  | { kind: 'collections'; results: Results<'searchCollections'> }
  | { kind: 'tags'; results: Results<'searchTags'> };

async function search({ kind, q, tag, page }: Asked): Promise<{ found: Found; hasNext: boolean }> {
  const paging = { page, page_size: PAGE_SIZE };
  const tags = tag ? [tag] : undefined;
  switch (kind) {
    case 'binaries': {
      const text = SHA_PART.test(q) ? { partial_sha256: q } : { partial_name: q };
      const { data, hasNext } = await unwrapPage(
        api.GET('/v2/search/binaries', { params: { query: { ...paging, ...text, tags } } }),
      );
      return { found: { kind, results: data.results }, hasNext };
    }
    case 'functions': {
      const { data, hasNext } = await unwrapPage(
        api.GET('/v2/search/functions', { params: { query: { ...paging, partial_name: q } } }),
      );
      return { found: { kind, results: data.results }, hasNext };
    }
    case 'collections': {
      const { data, hasNext } = await unwrapPage(
        api.GET('/v2/search/collections', { params: { query: { ...paging, partial_collection_name: q, tags } } }),
      );
      return { found: { kind, results: data.results }, hasNext };
    }
    case 'tags': {
      const { data, hasNext } = await unwrapPage(
        api.GET('/v2/search/tags', { params: { query: { ...paging, partial_name: q } } }),
      );
      return { found: { kind, results: data.results }, hasNext };
    }
  }
}

function ResultTable({ found }: { found: Found }) {
  switch (found.kind) {
    case 'binaries':
      return (
        <Table label="Binaries found" head={['Binary', 'SHA-256', 'Model', 'Owner', 'Tags', 'Created']}>
          {found.results.map((b) => (
            <tr key={b.binary_id}>
              <td>
                <Link href={`/analyses/${b.analysis_id}`}>{b.binary_name}</Link>
              </td>
              <td className="mono" title={b.sha_256_hash}>
                {b.sha_256_hash.slice(0, 16)}…
              </td>
              <td className="mono">{b.model_name}</td>
              <td>{b.owned_by}</td>
              <td>
                <TagBadges tags={b.tags} kind="binaries" />
              </td>
              <td>{date(b.created_at)}</td>
            </tr>
          ))}
        </Table>
      );
    case 'functions':
      return (
        <Table label="Functions found" head={['Function', 'Binary', 'Model', 'Owner', 'Created']}>
          {found.results.map((f) => (
            <tr key={f.function_id}>
              <td className="mono">
                <Link href={`/function/${f.function_id}`}>{f.function_name}</Link>
              </td>
              <td>{f.binary_name}</td>
              <td className="mono">{f.model_name}</td>
              <td>{f.owned_by}</td>
              <td>{date(f.created_at)}</td>
            </tr>
          ))}
        </Table>
      );
    case 'collections':
      return (
        <Table
          label="Collections found"
          head={['Collection', 'Scope', 'Binaries', 'Model', 'Owner', 'Tags', 'Updated']}
        >
          {found.results.map((c) => (
            <tr key={c.collection_id}>
              <td>
                <Link href={`/collections/${c.collection_id}`}>{c.collection_name}</Link>
                {c.description && <div className="muted">{c.description}</div>}
              </td>
              <td>{c.scope.toLowerCase()}</td>
              <td>{c.size ?? '—'}</td>
              <td className="mono">{c.model_name}</td>
              <td>{c.owned_by}</td>
              <td>
                <TagBadges tags={c.tags} kind="collections" />
              </td>
              <td>{date(c.last_updated_at)}</td>
            </tr>
          ))}
        </Table>
      );
    case 'tags':
      return (
        <Table label="Tags found" head={['Tag', 'Tagged']}>
          {found.results.map((t) => (
            <tr key={t.tag_id}>
              <td>{t.tag}</td>
              <td>
                <Link href={href({ kind: 'binaries', tag: t.tag })}>binaries</Link>
                {', '}
                <Link href={href({ kind: 'collections', tag: t.tag })}>collections</Link>
              </td>
            </tr>
          ))}
        </Table>
      );
  }
}

export function SearchScreen() {
  const params = new URLSearchParams(useSearch());
  const [, navigate] = useLocation();
  const kindParam = params.get('kind');
  const asked: Asked = {
    kind: KINDS.some(([k]) => k === kindParam) ? (kindParam as Kind) : 'binaries',
    q: params.get('q') ?? '',
    // Only binaries and collections can be narrowed to a tag.
    tag: kindParam === 'binaries' || kindParam === 'collections' ? (params.get('tag') ?? '') : '',
    page: Math.max(1, Number(params.get('page') ?? 1) || 1),
  };
  const results = useQuery({
    queryKey: ['search', asked],
    queryFn: () => search(asked),
    placeholderData: keepPreviousData,
  });
  const submit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const q = String(new FormData(e.currentTarget).get('q') ?? '').trim();
    navigate(href({ ...asked, q, page: 1 }));
  };
  return (
    <section className="page">
      <h1>Search</h1>
      <form className="toolbar" role="search" onSubmit={submit}>
        <label>
          Search{' '}
          <input
            key={asked.q}
            type="search"
            name="q"
            size={40}
            defaultValue={asked.q}
            placeholder={asked.kind === 'binaries' ? 'name or SHA-256' : 'name'}
          />
        </label>
        <button type="submit">Search</button>
      </form>
      <nav className="tabs" aria-label="What to search">
        {KINDS.map(([k, label]) => (
          <Link
            key={k}
            href={href({ kind: k, q: asked.q, tag: asked.tag })}
            aria-current={k === asked.kind ? 'page' : undefined}
          >
            {label}
          </Link>
        ))}
      </nav>
      {asked.tag && (
        <p>
          Tagged <span className="badge">{asked.tag}</span>{' '}
          <Link href={href({ kind: asked.kind, q: asked.q })}>Any tag</Link>
        </p>
      )}
      <Loaded query={results} what="results">
        {({ found, hasNext }) =>
          found.results.length === 0 && asked.page === 1 ? (
            <p className="muted">Nothing found.</p>
          ) : (
            <>
              <ResultTable found={found} />
              <Pager
                page={asked.page}
                hasNext={hasNext}
                onPage={(page) => navigate(href({ ...asked, page }))}
                label="Pages of results"
              />
            </>
          )
        }
      </Loaded>
    </section>
  );
}
