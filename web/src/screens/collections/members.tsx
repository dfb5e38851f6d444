// A collection's binaries, a page at a time: each links to its analysis; its owner removes them and adds
// others found by name, SHA-256 or analysis id.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { Link } from 'wouter';
import { api, unwrap } from '../../api/client';
import type { paths } from '../../api/schema';
import { ErrorNote, Loaded } from '../../components/status';
import { changeMembers } from './api';

type CollectionData = NonNullable<
  paths['/v2/collections/{collection_id}']['get']['responses'][200]['content']['application/json']['data']
>;
export type Member = Exclude<NonNullable<CollectionData['binaries']>[number], number>;

interface Found {
  analysisId: number;
  binaryId: number;
  name: string;
  model: string;
}

const SHA_PART = /^[0-9a-f]{8,64}$/i;

/** The analysis a number names, if the caller can see it; otherwise binaries whose name or SHA-256 has the text. */
async function findBinaries(text: string): Promise<Found[]> {
  if (/^\d+$/.test(text)) {
    const analysis = await unwrap(
      api.GET('/v2/analyses/{analysis_id}/basic', { params: { path: { analysis_id: Number(text) } } }),
    ).catch(() => null);
    if (analysis)
      return [
        {
          analysisId: Number(text),
          binaryId: analysis.binary_id,
          name: analysis.binary_name,
          model: analysis.model_name,
        },
      ];
  }
  const query = SHA_PART.test(text) ? { partial_sha256: text } : { partial_name: text };
  const found = await unwrap(api.GET('/v2/search/binaries', { params: { query: { ...query, page_size: 10 } } }));
  return found.results.map((b) => ({
    analysisId: b.analysis_id,
    binaryId: b.binary_id,
    name: b.binary_name,
    model: b.model_name,
  }));
}

function BinaryFinder({ id }: { id: number }) {
  const client = useQueryClient();
  const [text, setText] = useState('');
  const [asked, setAsked] = useState('');
  const [added, setAdded] = useState<ReadonlySet<number>>(new Set());
  const found = useQuery({
    queryKey: ['collections', 'find-binaries', asked],
    queryFn: () => findBinaries(asked),
    enabled: asked !== '',
  });
  const add = useMutation({
    mutationFn: (binaryId: number) => changeMembers(id, { add: [binaryId] }),
    onSuccess: (_, binaryId) => {
      setAdded(new Set(added).add(binaryId));
      void client.invalidateQueries({ queryKey: ['collections', id] });
    },
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    setAsked(text.trim());
  };
  return (
    <div className="finder">
      <h3>Add binaries</h3>
      <form className="toolbar" role="search" aria-label="Find binaries to add" onSubmit={submit}>
        <label>
          Find{' '}
          <input
            type="search"
            size={36}
            value={text}
            placeholder="name, SHA-256 or analysis id"
            onChange={(e) => setText(e.target.value)}
          />
        </label>
        <button type="submit" disabled={!text.trim()}>
          Find
        </button>
      </form>
      {asked && (
        <Loaded query={found} what="binaries">
          {(results) =>
            results.length === 0 ? (
              <p className="muted">No binary matches “{asked}”.</p>
            ) : (
              <table className="grid" aria-label="Binaries found">
                <thead>
                  <tr>
                    <th scope="col">Binary</th>
                    <th scope="col">Model</th>
                    <th scope="col">Add</th>
                  </tr>
                </thead>
                <tbody>
                  {results.map((b) => (
                    <tr key={b.analysisId}>
                      <td>
                        <Link href={`/analyses/${b.analysisId}`}>{b.name}</Link>{' '}
                        <span className="muted">(analysis {b.analysisId})</span>
                      </td>
                      <td className="mono">{b.model}</td>
                      <td>
                        {added.has(b.binaryId) ? (
                          <span className="ok">Added</span>
                        ) : (
                          <button
                            type="button"
                            aria-label={`Add ${b.name} (analysis ${b.analysisId})`}
                            disabled={add.isPending}
                            onClick={() => add.mutate(b.binaryId)}
                          >
                            Add
                          </button>
                        )}
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            )
          }
        </Loaded>
      )}
      {add.error && <ErrorNote error={add.error} />}
    </div>
  );
}

export function Members({ id, members, editable }: { id: number; members: readonly Member[]; editable: boolean }) {
  const client = useQueryClient();
  const remove = useMutation({
    mutationFn: (binaryId: number) => changeMembers(id, { remove: [binaryId] }),
    onSuccess: () => client.invalidateQueries({ queryKey: ['collections', id] }),
  });
  return (
    <>
      {members.length === 0 ? (
        <p className="muted">No binaries here.</p>
      ) : (
        <table className="grid" aria-label="Binaries of the collection">
          <thead>
            <tr>
              <th scope="col">Binary</th>
              <th scope="col">SHA-256</th>
              <th scope="col">Analysed</th>
              {editable && <th scope="col">Remove</th>}
            </tr>
          </thead>
          <tbody>
            {members.map((b) => (
              <tr key={b.binary_id}>
                <td>
                  <Link href={`/analyses/${b.analysis_id}`}>{b.binary_name}</Link>
                </td>
                <td className="mono" title={b.sha_256_hash}>
                  {b.sha_256_hash.slice(0, 16)}…
                </td>
                <td>{new Date(b.created_at).toLocaleString()}</td>
                {editable && (
                  <td>
                    <button
                      type="button"
                      className="secondary"
                      aria-label={`Remove ${b.binary_name}`}
                      disabled={remove.isPending}
                      onClick={() => remove.mutate(b.binary_id)}
                    >
                      Remove
                    </button>
                  </td>
                )}
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {remove.error && <ErrorNote error={remove.error} />}
      {editable && <BinaryFinder id={id} />}
    </>
  );
}
