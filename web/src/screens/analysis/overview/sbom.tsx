// The libraries identified in the binary (with the CycloneDX export) and their known vulnerabilities.
import { OptionalPart } from './optional-part';
import { DownloadButton } from '../../../components/download-button';
import { useSbom, useVulnerabilities, type Vulnerability } from './queries';

const SEVERITY_TONE: Record<Vulnerability['severity'], string> = {
  CRITICAL: 'danger',
  HIGH: 'danger',
  MEDIUM: 'warn',
  LOW: '',
  UNKNOWN: '',
};

export function Sbom({ analysisId }: { analysisId: number }) {
  const sbom = useSbom(analysisId);
  return (
    <section className="card" aria-labelledby="overview-sbom">
      <div className="section-head">
        <h2 id="overview-sbom">Software bill of materials</h2>
        {sbom.data && (
          <DownloadButton
            label="CycloneDX"
            path={`/v2/analyses/${analysisId}/sbom/cyclonedx`}
            name={`binlens-sbom-${analysisId}.cdx.json`}
            accept="application/json"
          />
        )}
      </div>
      <OptionalPart
        query={sbom}
        what="the SBOM"
        howToGet="The SBOM was not generated: create the analysis with SBOM on."
      >
        {(entries) => {
          const packages = entries.flatMap((e) => e.packages);
          const libraries = [...new Set(entries.flatMap((e) => e.imported_libs))];
          return (
            <>
              {packages.length ? (
                <table className="grid">
                  <thead>
                    <tr>
                      <th scope="col">Component</th>
                      <th scope="col">Version</th>
                    </tr>
                  </thead>
                  <tbody>
                    {packages.map((p) => (
                      <tr key={`${p.name}@${p.version}`}>
                        <td>{p.name}</td>
                        <td>{p.version}</td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              ) : (
                <p className="muted">No library identified in the binary.</p>
              )}
              <h3>Imported libraries</h3>
              {libraries.length ? (
                <ul className="inline-list">
                  {libraries.map((l) => (
                    <li key={l}>
                      <code>{l}</code>
                    </li>
                  ))}
                </ul>
              ) : (
                <p className="muted">None: the binary loads no shared library.</p>
              )}
            </>
          );
        }}
      </OptionalPart>
    </section>
  );
}

export function Vulnerabilities({ analysisId }: { analysisId: number }) {
  const vulnerabilities = useVulnerabilities(analysisId);
  return (
    <section className="card" aria-labelledby="overview-vulnerabilities">
      <h2 id="overview-vulnerabilities">Vulnerabilities</h2>
      <OptionalPart
        query={vulnerabilities}
        what="vulnerabilities"
        howToGet="Vulnerabilities were not looked up: create the analysis with vulnerabilities (CVEs) on."
      >
        {({ vulnerabilities: found }) =>
          found.length ? (
            <table className="grid">
              <thead>
                <tr>
                  <th scope="col">CVE</th>
                  <th scope="col">Severity</th>
                  <th scope="col">Component</th>
                  <th scope="col">Summary</th>
                </tr>
              </thead>
              <tbody>
                {found.map((v) => (
                  <tr key={`${v.cve_number}:${v.product}@${v.version}`}>
                    <td className="mono nowrap">{v.cve_number}</td>
                    <td className="nowrap">
                      <span className={`badge ${SEVERITY_TONE[v.severity]}`}>{v.severity}</span>
                      {v.score > 0 && <span className="muted"> {v.score.toFixed(1)}</span>}
                    </td>
                    <td>
                      {v.product} {v.version}
                    </td>
                    <td>{v.remarks}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          ) : (
            <p className="muted">No known vulnerability in the identified libraries.</p>
          )
        }
      </OptionalPart>
    </section>
  );
}
