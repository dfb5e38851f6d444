// Every capability the rules found, grouped by namespace (the group with the strongest capability first),
// each with its weight, its ATT&CK techniques (linked to MITRE's pages) and MBC behaviours, and the
// functions it was found in.
import { useId, useState } from 'react';
import { Loaded } from '../../../components/status';
import { FunctionLink } from './function-link';
import { useOverview, type OverviewCapability } from './queries';
import { ScoreBadge } from './score';

/** MITRE's page of a technique: T1071.001 → …/techniques/T1071/001/. */
const attackUrl = (id: string) => `https://attack.mitre.org/techniques/${id.replace('.', '/')}/`;

export function Capabilities({ analysisId }: { analysisId: number }) {
  const overview = useOverview(analysisId);
  return (
    <section className="card capabilities" aria-labelledby="overview-capabilities">
      <h2 id="overview-capabilities">Capabilities</h2>
      <Loaded query={overview} what="capabilities">
        {(o) =>
          o.capabilities === null ? (
            <p className="muted">Capabilities were not generated: create the analysis with capabilities on.</p>
          ) : o.capabilities.length ? (
            <CapabilityGroups capabilities={o.capabilities} />
          ) : (
            <p className="muted">No capability rule matched this binary.</p>
          )
        }
      </Loaded>
    </section>
  );
}

const matches = (c: OverviewCapability, needle: string) =>
  [
    c.rule,
    c.namespace,
    ...c.attack.flatMap((a) => [a.id ?? '', a.technique]),
    ...c.mbc,
    ...c.functions.map((f) => f.name),
  ]
    .join('\n')
    .toLowerCase()
    .includes(needle);

function CapabilityGroups({ capabilities }: { capabilities: OverviewCapability[] }) {
  const id = useId();
  const [filter, setFilter] = useState('');
  const needle = filter.trim().toLowerCase();
  const shown = needle ? capabilities.filter((c) => matches(c, needle)) : capabilities;
  // The server sorts strongest first, so each group keeps that order and groups come in order of their best.
  const groups = new Map<string, OverviewCapability[]>();
  for (const c of shown) groups.set(c.namespace, [...(groups.get(c.namespace) ?? []), c]);
  return (
    <>
      <div className="toolbar">
        <label htmlFor={id}>Filter capabilities</label>
        <input
          id={id}
          type="search"
          value={filter}
          onChange={(e) => setFilter(e.target.value)}
          placeholder="rule, namespace, technique or function"
        />
        <span className="muted" role="status">
          {shown.length} of {capabilities.length}
        </span>
      </div>
      <table className="grid capability-table">
        <thead>
          <tr>
            <th scope="col" className="narrow">
              Weight
            </th>
            <th scope="col">Capability</th>
            <th scope="col">ATT&amp;CK</th>
            <th scope="col">MBC</th>
            <th scope="col">Found in</th>
          </tr>
        </thead>
        {[...groups].map(([namespace, rows]) => (
          <tbody key={namespace}>
            <tr className="group">
              <th scope="rowgroup" colSpan={5} className="mono">
                {namespace || 'no namespace'}
              </th>
            </tr>
            {rows.map((c) => (
              <CapabilityRow key={c.rule} capability={c} />
            ))}
          </tbody>
        ))}
      </table>
    </>
  );
}

function CapabilityRow({ capability: c }: { capability: OverviewCapability }) {
  return (
    <tr>
      <td>
        <ScoreBadge score={c.weight} label="weight" />
      </td>
      <td>{c.rule}</td>
      <td>
        <ul className="inline-list">
          {c.attack.map((a) => (
            <li key={`${a.tactic}:${a.technique}:${a.id}`}>
              {a.id ? (
                <a href={attackUrl(a.id)} target="_blank" rel="noreferrer" title={`${a.tactic}: ${a.technique}`}>
                  {a.id}
                </a>
              ) : null}{' '}
              <span className="muted">{a.technique || a.tactic}</span>
            </li>
          ))}
        </ul>
      </td>
      <td>
        <ul className="inline-list">
          {c.mbc.map((m) => (
            <li key={m} className="muted">
              {m}
            </li>
          ))}
        </ul>
      </td>
      <td>
        {c.functions.length ? (
          <ul className="inline-list">
            {c.functions.map((f) => (
              <li key={f.vaddr}>
                <FunctionLink id={f.function_id} name={f.name} />
              </li>
            ))}
          </ul>
        ) : (
          <span className="muted">whole file</span>
        )}
      </td>
    </tr>
  );
}
