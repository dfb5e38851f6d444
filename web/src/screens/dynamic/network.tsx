// The run's network activity as the service reports it: the DNS questions with their answers (from the
// emulator's documentation range), and what is known of each host.
import type { Network as NetworkView } from './views';

export function Network({ network }: { network: NetworkView }) {
  return (
    <>
      <h4>DNS</h4>
      {network.dns.length === 0 ? (
        <p className="muted">No name was resolved.</p>
      ) : (
        <table className="grid">
          <thead>
            <tr>
              <th scope="col">Host</th>
              <th scope="col">Type</th>
              <th scope="col">Answers</th>
            </tr>
          </thead>
          <tbody>
            {network.dns.map((d) => (
              <tr key={`${d.host}-${d.type}`}>
                <td className="mono">{d.host}</td>
                <td>{d.type}</td>
                <td className="mono">
                  {d.answers.length === 0 ? '—' : d.answers.map((a) => `${a.data} (${a.type})`).join(', ')}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {network.metadata.length > 0 && (
        <>
          <h4>Hosts</h4>
          <table className="grid">
            <thead>
              <tr>
                <th scope="col">Host</th>
                <th scope="col">Country</th>
                <th scope="col">AS</th>
              </tr>
            </thead>
            <tbody>
              {network.metadata.map((m) => (
                <tr key={m.host}>
                  <td className="mono">{m.host}</td>
                  <td>{m.country_code}</td>
                  <td>{m.ASN}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </>
      )}
    </>
  );
}
