// Registry operations of the run, by process, in run order.
import { useCapped } from './capped';
import type { Registry as RegistryView } from './views';

export function Registry({ registry, names }: { registry: RegistryView; names: Map<number, string> }) {
  const { shown, rest } = useCapped(
    Object.entries(registry).flatMap(([pid, ops]) => ops.map((op) => ({ pid: Number(pid), op }))),
  );
  if (shown.length === 0) return <p className="muted">The run touched no registry key.</p>;
  return (
    <>
      <table className="grid">
        <thead>
          <tr>
            <th scope="col">Process</th>
            <th scope="col">Operation</th>
            <th scope="col">Key</th>
            <th scope="col">Value name</th>
            <th scope="col">Value</th>
          </tr>
        </thead>
        <tbody>
          {shown.map(({ pid, op }, i) => (
            <tr key={i}>
              <td>
                {names.get(pid) ?? 'process'} <span className="muted">pid {pid}</span>
              </td>
              <td>{op.method}</td>
              <td className="mono">{op.key}</td>
              <td className="mono">{op.value_name ?? '—'}</td>
              <td className="mono">{op.value ?? '—'}</td>
            </tr>
          ))}
        </tbody>
      </table>
      {rest}
    </>
  );
}
