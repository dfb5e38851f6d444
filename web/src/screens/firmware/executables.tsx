// The executables found in the image: each a child binary of it, analysed with the model of its CPU.
import { Link } from 'wouter';
import { DownloadButton } from '../../components/download-button';
import { bytes } from '../../components/format';
import { filePath, type Executable } from './model';

export function AnalysisLink({ analysisId, name }: { analysisId: number | null; name: string }) {
  if (analysisId === null) return <span className="muted">Not analysed</span>;
  return (
    <Link href={`/analyses/${analysisId}`} aria-label={`Analysis ${analysisId} of ${name}`}>
      Analysis {analysisId}
    </Link>
  );
}

export function Executables({ task, binaries }: { task: string; binaries: Executable[] }) {
  if (binaries.length === 0) return <p className="muted">No executable was found in the image.</p>;
  return (
    <table className="grid">
      <thead>
        <tr>
          <th scope="col">Where</th>
          <th scope="col">Type</th>
          <th scope="col">Size</th>
          <th scope="col">SHA-256</th>
          <th scope="col">Analysis</th>
          <th scope="col">File</th>
        </tr>
      </thead>
      <tbody>
        {binaries.map((b) => (
          <tr key={b.path}>
            <td className="mono">{b.location}</td>
            <td>{b.type}</td>
            <td>{bytes(b.size)}</td>
            <td className="mono fw-hash" title={b.sha256}>
              {b.sha256.slice(0, 16)}…
            </td>
            <td>
              <AnalysisLink analysisId={b.analysis_id} name={b.location} />
            </td>
            <td>
              <DownloadButton path={filePath(task, b.sha256)} name={b.path} />
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
