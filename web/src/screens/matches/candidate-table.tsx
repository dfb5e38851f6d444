// Query functions, each with its candidates: a row group per function, a candidate picked for comparison
// by its name.
import { Link } from 'wouter';
import type { Candidate, QueryRow } from './candidates';
import { hex } from '../../components/format';

export const percent = (v: number | null) => (v === null ? '—' : `${Number(v.toFixed(1))}%`);

export interface Pick {
  queryId: number;
  key: string;
}

function Evidence({ candidate }: { candidate: Candidate }) {
  return (
    <>
      {candidate.suggestedBy.map((s) => (
        <span key={s} className="badge ok">
          {s}
        </span>
      ))}
      {candidate.fn?.debug && <span className="badge">symbol name</span>}
    </>
  );
}

export function CandidateTable({
  rows,
  picked,
  onPick,
}: {
  rows: readonly QueryRow[];
  picked: Pick | null;
  onPick: (p: Pick) => void;
}) {
  return (
    <div className="candidates-box">
      <table className="grid candidates" aria-label="Candidates by query function">
        <thead>
          <tr>
            <th scope="col">Query function</th>
            <th scope="col">Candidate</th>
            <th scope="col">Binary</th>
            <th scope="col" className="num">
              Similarity
            </th>
            <th scope="col" className="num">
              Confidence
            </th>
            <th scope="col">Evidence</th>
          </tr>
        </thead>
        {rows.map((row) => (
          <tbody key={row.fn.id}>
            {row.candidates.map((c, i) => {
              const isPicked = picked?.queryId === row.fn.id && picked.key === c.key;
              return (
                <tr key={c.key} className={isPicked ? 'picked' : undefined}>
                  {i === 0 && (
                    <th scope="rowgroup" rowSpan={row.candidates.length}>
                      <span className="mono">{row.fn.name}</span>
                      <span className="muted mono"> {hex(row.fn.vaddr)}</span>
                      {row.names.length > 0 && (
                        <span className="names muted">
                          Likely names: {row.names.map((n) => `${n.name} ${percent(n.confidence)}`).join(', ')}
                        </span>
                      )}
                    </th>
                  )}
                  <td>
                    <button
                      type="button"
                      className="link mono"
                      aria-pressed={isPicked}
                      onClick={() => onPick({ queryId: row.fn.id, key: c.key })}
                    >
                      {c.name}
                    </button>
                    {c.name === row.fn.name && <span className="badge ok">current name</span>}
                  </td>
                  <td>{c.fn ? <Link href={`/analyses/${c.fn.analysis_id}`}>{c.fn.binary_name}</Link> : '—'}</td>
                  <td className="num">{percent(c.similarity)}</td>
                  <td className="num">{percent(c.confidence)}</td>
                  <td>
                    <Evidence candidate={c} />
                  </td>
                </tr>
              );
            })}
          </tbody>
        ))}
      </table>
    </div>
  );
}
