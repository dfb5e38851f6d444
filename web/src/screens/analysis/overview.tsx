// The overview tab of an analysis: what the binary is and what the analysis found in it, at a glance — the
// verdict, the file and its hashes, mitigations, imports and exports, sections with their entropy,
// capabilities, libraries and vulnerabilities — with the exports (PDF report, CycloneDX) and the comments.
// Parts an analysis makes only when asked say how to get them instead of failing.
import { Loaded } from '../../components/status';
import { Capabilities } from './overview/capabilities';
import { Comments } from './overview/comments';
import { FileFacts } from './overview/file-facts';
import { Hashes } from './overview/hashes';
import { useBasic, useBinaryDetails } from './overview/queries';
import { Sbom, Vulnerabilities } from './overview/sbom';
import { Sections } from './overview/sections';
import { Security } from './overview/security';
import { Symbols } from './overview/symbols';
import { VerdictHead } from './overview/verdict';
import './overview/overview.css';

export function OverviewTab({ analysisId }: { analysisId: number }) {
  const basic = useBasic(analysisId);
  return (
    <div className="overview">
      <VerdictHead analysisId={analysisId} />
      <Loaded query={basic} what="the binary">
        {(b) => <Binary binaryId={b.binary_id} />}
      </Loaded>
      <div className="split">
        <Security analysisId={analysisId} />
        <Symbols analysisId={analysisId} />
      </div>
      <Sections analysisId={analysisId} />
      <Capabilities analysisId={analysisId} />
      <div className="split">
        <Sbom analysisId={analysisId} />
        <Vulnerabilities analysisId={analysisId} />
      </div>
      <Comments analysisId={analysisId} />
    </div>
  );
}

function Binary({ binaryId }: { binaryId: number }) {
  const details = useBinaryDetails(binaryId);
  return (
    <Loaded query={details} what="the binary's details">
      {(d) => (
        <div className="split">
          <FileFacts details={d} />
          <Hashes details={d} />
        </div>
      )}
    </Loaded>
  );
}
