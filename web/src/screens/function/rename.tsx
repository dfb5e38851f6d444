// Renaming a function and going back to an earlier name. Both refresh the function's own queries (under
// ['function', id]) and write the new name into its analysis's function list, which may hold 10^5 functions
// too many to read again for one name.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { api, unwrap } from '../../api/client';
import { ErrorNote, Loaded } from '../../components/status';
import { functionsListKey, type FunctionItem } from '../functions/list';
import { functionKey, useNameHistory, type NameEntry } from './queries';

function useNameChanged(id: number, analysisId: number) {
  const client = useQueryClient();
  return (name: string, source: FunctionItem['name_source_type']) => {
    client.setQueryData<FunctionItem[]>(functionsListKey(analysisId), (rows) =>
      rows?.map((f) => (f.id === id ? { ...f, name, name_source_type: source } : f)),
    );
    return client.invalidateQueries({ queryKey: functionKey(id) });
  };
}

export function RenameForm({ id, analysisId, name }: { id: number; analysisId: number; name: string }) {
  const [value, setValue] = useState(name);
  const changed = useNameChanged(id, analysisId);
  const rename = useMutation({
    mutationFn: (newName: string) =>
      unwrap(
        api.POST('/v2/functions/rename/{function_id}', {
          params: { path: { function_id: id } },
          body: { new_name: newName, new_mangled_name: newName },
        }),
      ),
    onSuccess: (_, newName) => changed(newName, 'USER'),
  });
  const wanted = value.trim();
  return (
    <form
      className="toolbar rename"
      onSubmit={(e) => {
        e.preventDefault();
        rename.mutate(wanted);
      }}
    >
      <label>
        Function name <input value={value} onChange={(e) => setValue(e.target.value)} spellCheck={false} />
      </label>
      <button type="submit" disabled={!wanted || wanted === name || rename.isPending}>
        Rename
      </button>
      {rename.error && <ErrorNote error={rename.error} />}
    </form>
  );
}

export function NameHistory({ id, analysisId }: { id: number; analysisId: number }) {
  const history = useNameHistory(id);
  const changed = useNameChanged(id, analysisId);
  const revert = useMutation({
    mutationFn: (entry: NameEntry) =>
      unwrap(
        api.POST('/v2/functions/history/{function_id}/{history_id}', {
          params: { path: { function_id: id, history_id: entry.history_id } },
        }),
      ),
    onSuccess: (_, entry) => changed(entry.function_name, entry.source_type),
  });
  return (
    <Loaded query={history} what="name history">
      {(entries) =>
        entries.length === 0 ? (
          <p className="muted">The function has kept its first name.</p>
        ) : (
          <>
            <table className="grid">
              <caption>Names, newest first</caption>
              <thead>
                <tr>
                  <th scope="col">Name</th>
                  <th scope="col">Source</th>
                  <th scope="col">By</th>
                  <th scope="col">When</th>
                  <th scope="col">
                    <span className="muted">Action</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {[...entries].reverse().map((e, i) => (
                  <tr key={e.history_id}>
                    <td className="mono">{e.function_name}</td>
                    <td>
                      <span className="badge">{e.source_type}</span>
                    </td>
                    <td>{e.change_made_by}</td>
                    <td>{new Date(e.created_at).toLocaleString()}</td>
                    <td>
                      {i === 0 ? (
                        <span className="muted">current</span>
                      ) : (
                        <button
                          type="button"
                          className="secondary"
                          disabled={revert.isPending}
                          onClick={() => revert.mutate(e)}
                        >
                          Revert
                        </button>
                      )}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
            {revert.error && <ErrorNote error={revert.error} />}
          </>
        )
      }
    </Loaded>
  );
}
