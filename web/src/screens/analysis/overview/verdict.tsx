// The head of the overview: the file's verdict (its score out of 100 and label), how many capabilities point
// to each ATT&CK tactic, the analysis's own tags and the functions that score highest — with the PDF report.
import { Loaded } from '../../../components/status';
import { DownloadButton } from '../../../components/download-button';
import { FunctionLink } from './function-link';
import { isCapabilityTag, useOverview, useTags, type AnalysisTag, type Overview } from './queries';
import { ScoreBadge, scoreTone } from './score';

const SHOWN = 5;

type Verdict = NonNullable<Overview['verdict']>;

const LEVEL_TONE: Record<Verdict['level'], string> = { malicious: 'danger', suspicious: 'warn', low: '', none: 'ok' };

export function VerdictHead({ analysisId }: { analysisId: number }) {
  const overview = useOverview(analysisId);
  const tags = useTags(analysisId);
  return (
    <section className="card verdict" aria-labelledby="overview-verdict">
      <div className="section-head">
        <h2 id="overview-verdict">Verdict</h2>
        <DownloadButton
          label="PDF report"
          path={`/v2/analyses/${analysisId}/pdf`}
          name={`binlens-report-${analysisId}.pdf`}
          accept="application/pdf"
        />
      </div>
      <Loaded query={overview} what="the verdict">
        {(o) =>
          o.verdict ? (
            <>
              <VerdictScore verdict={o.verdict} capabilities={o.capabilities?.length ?? 0} />
              {o.verdict.level !== 'none' && <TacticStrip tactics={o.verdict.tactics} />}
            </>
          ) : (
            <p className="muted">Not assessed: capabilities were not generated for this analysis.</p>
          )
        }
      </Loaded>
      <Loaded query={tags} what="tags">
        {(t) => (
          <>
            <OwnTags tags={t.analysis_tags.filter((tag) => !isCapabilityTag(tag))} />
            <TopFunctions tags={t.analysis_tags.filter(isCapabilityTag)} />
          </>
        )}
      </Loaded>
    </section>
  );
}

function VerdictScore({ verdict, capabilities }: { verdict: Verdict; capabilities: number }) {
  const tactics = verdict.tactics.filter((t) => t.capabilities > 0).length;
  return (
    <p className="verdict-line">
      <span className={`verdict-score ${LEVEL_TONE[verdict.level]}`}>
        <strong>{verdict.score}</strong>
        <span className="of"> of 100</span>
      </span>
      <strong className="verdict-label">{verdict.label}</strong>
      <span className="muted">
        {capabilities === 0
          ? 'No capability rule matched this binary.'
          : `${capabilities} ${capabilities === 1 ? 'capability' : 'capabilities'}` +
            (tactics > 0 ? `, along ${tactics} ATT&CK ${tactics === 1 ? 'tactic' : 'tactics'}` : '') +
            '. The score combines the strongest capability of each tactic; it ranks attention, it does not prove intent.'}
      </span>
    </p>
  );
}

/** Every Enterprise tactic in kill-chain order, as the server lists them, with its count as a bar. */
function TacticStrip({ tactics }: { tactics: Verdict['tactics'] }) {
  const most = Math.max(1, ...tactics.map((t) => t.capabilities));
  return (
    <>
      <h3>Capabilities per ATT&amp;CK tactic</h3>
      <ol className="tactic-strip">
        {tactics.map((t) => (
          <li key={t.tactic} className={t.capabilities ? '' : 'none'}>
            <span className="tactic-name">{t.tactic}</span>
            <span className="tactic-count">{t.capabilities}</span>
            <span className="tactic-track" aria-hidden="true">
              <span
                className={`tactic-bar ${scoreTone(t.weight)}`}
                style={{ width: `${(t.capabilities / most) * 100}%` }}
              />
            </span>
          </li>
        ))}
      </ol>
    </>
  );
}

function OwnTags({ tags }: { tags: AnalysisTag[] }) {
  if (!tags.length) return null;
  return (
    <p>
      <span className="muted">Tags </span>
      {tags.map((t) => (
        <span key={`${t.origin}:${t.name}`} className="badge" title={`origin ${t.origin}`}>
          {t.name}
        </span>
      ))}
    </p>
  );
}

/** The functions whose capabilities score highest: where to start reading. */
function TopFunctions({ tags }: { tags: AnalysisTag[] }) {
  const functions = new Map<number, NonNullable<AnalysisTag['functions']>[number]>();
  for (const t of tags)
    for (const f of t.functions ?? []) if (f.function_vaddr !== null) functions.set(f.function_vaddr, f);
  const ranked = [...functions.values()].sort((a, b) => b.score - a.score).slice(0, SHOWN);
  if (!ranked.length) return null;
  return (
    <>
      <h3>Highest-scoring functions</h3>
      <ol className="scored">
        {ranked.map((f) => (
          <li key={f.function_vaddr}>
            <ScoreBadge score={f.score} /> <FunctionLink id={f.function_id} name={f.function_name} />
          </li>
        ))}
      </ol>
    </>
  );
}
