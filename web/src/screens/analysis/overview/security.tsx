// The exploit mitigations the binary's format has (no RELRO row on a PE, no ASLR row on an ELF), each with
// its state, toned by what its absence means, and what it does.
import { Loaded } from '../../../components/status';
import { useOverview, type Overview } from './queries';

const TONE_CLASS: Record<Overview['security'][number]['tone'], string> = {
  good: 'ok',
  bad: 'danger',
  warn: 'warn',
  neutral: '',
};

export function Security({ analysisId }: { analysisId: number }) {
  const overview = useOverview(analysisId);
  return (
    <section className="card" aria-labelledby="overview-security">
      <h2 id="overview-security">Security features</h2>
      <Loaded query={overview} what="the security features">
        {(o) =>
          o.security.length ? (
            <table className="grid">
              <thead>
                <tr>
                  <th scope="col">Feature</th>
                  <th scope="col">State</th>
                  <th scope="col">What it does</th>
                </tr>
              </thead>
              <tbody>
                {o.security.map((m) => (
                  <tr key={m.feature}>
                    <th scope="row">{m.feature}</th>
                    <td>
                      <span className={`badge ${TONE_CLASS[m.tone]}`}>{m.state}</span>
                    </td>
                    <td className="muted">{m.meaning}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          ) : (
            <p className="muted">The format has none of the mitigations checked.</p>
          )
        }
      </Loaded>
    </section>
  );
}
