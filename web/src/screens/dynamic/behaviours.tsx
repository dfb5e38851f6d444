// What the run did in words, with its ATT&CK techniques, the processes that showed it and the functions of
// the static analysis whose calls did it (the server maps each event's call site to its function).
import { Link } from 'wouter';
import { hex } from '../../components/format';
import type { Ttps } from './views';

/** ATT&CK's page for a technique or sub-technique: T1055.002 → /techniques/T1055/002/. */
const attackUrl = (id: string) => `https://attack.mitre.org/techniques/${id.replace('.', '/')}/`;

export function Behaviours({ ttps, names }: { ttps: Ttps; names: Map<number, string> }) {
  if (ttps.ttps.length === 0) return <p className="muted">The run showed no behaviour a rule recognises.</p>;
  return (
    <table className="grid">
      <thead>
        <tr>
          <th scope="col">Behaviour</th>
          <th scope="col">ATT&amp;CK</th>
          <th scope="col">Score</th>
          <th scope="col">Processes</th>
          <th scope="col">Done by</th>
        </tr>
      </thead>
      <tbody>
        {[...ttps.ttps]
          .sort((a, b) => b.score - a.score)
          .map((t) => (
            <tr key={t.name}>
              <td>{t.name}</td>
              <td>
                {t.attack.map((a) => (
                  <div key={a.id}>
                    <a href={attackUrl(a.id)} target="_blank" rel="noreferrer">
                      {a.id}
                    </a>{' '}
                    {a.name}
                  </div>
                ))}
              </td>
              <td>{t.score}</td>
              <td>
                {t.occurrences.map((o) => (
                  <div key={o.pid}>
                    {names.get(o.pid) ?? 'process'} <span className="muted">pid {o.pid}</span>
                  </div>
                ))}
              </td>
              <td>
                {t.functions && t.functions.length > 0 ? (
                  t.functions.map((f) => (
                    <div key={f.function_id}>
                      <Link href={`/function/${f.function_id}`}>{f.function_name}</Link>{' '}
                      <span className="muted mono">{hex(f.function_vaddr)}</span>
                    </div>
                  ))
                ) : (
                  <span className="muted">Code outside this analysis</span>
                )}
              </td>
            </tr>
          ))}
      </tbody>
    </table>
  );
}
