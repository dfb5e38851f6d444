// Memory the run dumped (code injected or unpacked, executables dropped): each one's bytes, and the child
// binary it became with its analysis once it has one (GET /v2/binaries/{id}/related lists them by dump name).
import { useQuery } from '@tanstack/react-query';
import { Link } from 'wouter';
import { ErrorNote } from '../../components/status';
import { basicQuery, useRelated, type Relative } from '../analysis/relations';
import { DownloadButton } from '../../components/download-button';
import { bytes, hex } from '../../components/format';
import { dumpPath, type Dump } from './views';

export function Dumps({ analysisId, dumps }: { analysisId: number; dumps: Dump[] }) {
  const basic = useQuery(basicQuery(analysisId));
  const { related } = useRelated(basic.data?.binary_id);
  if (dumps.length === 0)
    return <p className="muted">Nothing was dumped: no code was injected, unpacked or dropped.</p>;
  const childOf = (d: Dump) =>
    related.data?.children.find((c) => c.location === d.actual_filename || c.sha256 === d.extended_metadata.sha256);
  return (
    <>
      {(basic.error ?? related.error) && <ErrorNote error={basic.error ?? related.error} />}
      <table className="grid">
        <thead>
          <tr>
            <th scope="col">Dump</th>
            <th scope="col">Type</th>
            <th scope="col">Size</th>
            <th scope="col">Address</th>
            <th scope="col">SHA-256</th>
            <th scope="col">Analysis</th>
            <th scope="col">Bytes</th>
          </tr>
        </thead>
        <tbody>
          {dumps.map((d) => (
            <tr key={d.actual_filename}>
              <td>
                {d.filename_friendly}
                <div className="muted mono">{d.actual_filename}</div>
              </td>
              <td>{d.extended_metadata.type}</td>
              <td>{bytes(d.extended_metadata.size)}</td>
              <td className="mono">{d.base_address === 0 ? '—' : hex(d.base_address)}</td>
              <td className="mono" title={d.extended_metadata.sha256}>
                {d.extended_metadata.sha256.slice(0, 16)}…
              </td>
              <td>
                <ChildAnalysis child={childOf(d)} pending={related.isPending} />
              </td>
              <td>
                <DownloadButton path={dumpPath(analysisId, d.actual_filename)} name={d.actual_filename} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </>
  );
}

function ChildAnalysis({ child, pending }: { child: Relative | undefined; pending: boolean }) {
  if (child?.analysis_id != null)
    return <Link href={`/analyses/${child.analysis_id}`}>Analysis {child.analysis_id}</Link>;
  if (pending) return <span className="muted">…</span>;
  // A dump with no header (shellcode) has no model of its own: its analysis is one asked for by its SHA-256.
  return <span className="muted">{child ? 'Not analysed' : 'Not a binary yet'}</span>;
}
