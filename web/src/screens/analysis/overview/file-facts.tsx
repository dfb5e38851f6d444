// What the binary is (format, architecture, platform, linking, symbols) and its whole-file entropy, from the
// binary's details (size, functions and model are in the page's header).
import { EntropyGauge } from './entropy-gauge';
import type { BinaryDetails } from './queries';

const yesNo = (v: boolean) => (v ? 'yes' : 'no');

export function FileFacts({ details }: { details: BinaryDetails }) {
  const d = details;
  return (
    <section className="card" aria-labelledby="overview-file">
      <h2 id="overview-file">File</h2>
      <dl className="facts">
        <dt>Format</dt>
        <dd>
          {d.Class} · {d.type}
        </dd>
        <dt>Architecture</dt>
        <dd>
          {d.arch}, {d.bits}-bit <span className="muted">({d.machine})</span>
        </dd>
        <dt>Platform</dt>
        <dd>{d.sub_sys && d.sub_sys !== d.os ? `${d.os} · ${d.sub_sys}` : d.os}</dd>
        <dt>Language</dt>
        <dd>{d.language}</dd>
        <dt>Linking</dt>
        <dd>{d.static ? 'static' : 'dynamic'}</dd>
        <dt>Symbols stripped</dt>
        <dd>{yesNo(d.stripped)}</dd>
        <dt>Debug information</dt>
        <dd>{yesNo(d.debug)}</dd>
        <dt>First seen</dt>
        <dd>{new Date(d.first_seen).toLocaleString()}</dd>
      </dl>
      <EntropyGauge entropy={d.entropy} />
    </section>
  );
}
