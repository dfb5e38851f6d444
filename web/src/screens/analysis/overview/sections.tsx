// The binary's sections with their entropy: a bar per section on the 0–8 scale, coloured by band, the value
// written beside it. Sections without bytes in the file (.bss) have none; neither has any section once the
// sample is no longer stored.
import { Loaded } from '../../../components/status';
import { EntropyLegend, entropyBand, entropyShare } from './entropy-bands';
import { hex } from '../../../components/format';
import { useOverview, type Overview } from './queries';

type Section = Overview['sections'][number];

export function Sections({ analysisId }: { analysisId: number }) {
  const overview = useOverview(analysisId);
  return (
    <section className="card" aria-labelledby="overview-sections">
      <h2 id="overview-sections">Sections</h2>
      <Loaded query={overview} what="the sections">
        {(o) => (o.sections.length ? <SectionTable sections={o.sections} /> : <p className="muted">No section.</p>)}
      </Loaded>
    </section>
  );
}

function SectionTable({ sections }: { sections: Section[] }) {
  const sampleGone = sections.every((s) => s.entropy === null) && sections.some((s) => s.file_size > 0);
  return (
    <>
      <div className="table-scroll" tabIndex={0} role="region" aria-label="sections table">
        <table className="grid sections">
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col">Address</th>
              <th scope="col" className="number">
                Size
              </th>
              <th scope="col">File offset</th>
              <th scope="col" className="number">
                File size
              </th>
              <th scope="col">Access</th>
              <th scope="col" className="entropy-col">
                Entropy (bits per byte)
              </th>
            </tr>
          </thead>
          <tbody>
            {sections.map((s, i) => (
              // Names repeat in some binaries (and may be empty): the position keeps rows apart.
              <tr key={`${i}:${s.name}`}>
                <th scope="row" className="mono">
                  {s.name || <span className="muted">(unnamed)</span>}
                </th>
                <td className="mono">{hex(s.vaddr)}</td>
                <td className="number">{s.size.toLocaleString()}</td>
                <td className="mono">{s.file_size > 0 ? hex(s.file_offset) : <span className="muted">—</span>}</td>
                <td className="number">{s.file_size.toLocaleString()}</td>
                <td className="mono">{s.access}</td>
                <td>
                  <EntropyBar section={s} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {sampleGone ? (
        <p className="muted">Entropy is measured on the sample, which is no longer stored.</p>
      ) : (
        <EntropyLegend />
      )}
    </>
  );
}

function EntropyBar({ section }: { section: Section }) {
  const e = section.entropy;
  if (e === null)
    return <span className="muted">{section.file_size > 0 ? 'not measured' : 'no bytes in the file'}</span>;
  const band = entropyBand(e);
  return (
    <span className="section-entropy" title={band.meaning}>
      <span className="entropy-track" aria-hidden="true">
        <span className={band.className} style={{ width: entropyShare(e) }} />
      </span>
      <span className="entropy-value">{e.toFixed(2)}</span>
    </span>
  );
}
