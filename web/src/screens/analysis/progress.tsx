// An analysis as it runs: its stages and log lines followed live over the server-sent events of
// GET /v2/analyses/{id}/events, and its status pushed to the page's queries when it changes.
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { followEvents } from '../../api/events';

interface Stage {
  stage: string;
  status: string;
  timestamp: string;
  progress?: number;
}
interface LogLine {
  timestamp: string;
  line: string;
}

/**
 * Live stages and log of a running analysis (the stream replays what happened before it was opened); keyed
 * by the analysis where it is used, so another analysis starts from an empty list.
 */
export function LiveProgress({ analysisId }: { analysisId: number }) {
  const [stages, setStages] = useState<Stage[]>([]);
  const [log, setLog] = useState<LogLine[]>([]);
  const queries = useQueryClient();
  useEffect(() => {
    const stop = new AbortController();
    followEvents(
      `/v2/analyses/${analysisId}/events`,
      (e) => {
        if (e.event === 'stage') setStages((s) => [...s, e.data as Stage]);
        else if (e.event === 'log') setLog((l) => [...l, e.data as LogLine]);
        else if (e.event === 'status') void queries.invalidateQueries({ queryKey: ['analysis', analysisId] });
      },
      stop.signal,
    ).catch(() => {
      // Aborted on leaving the page, or the connection dropped: the status query still polls.
    });
    return () => stop.abort();
  }, [analysisId, queries]);

  const latest = new Map(stages.map((s) => [s.stage, s]));
  const percent = [...latest.values()].at(-1)?.progress;
  return (
    <div className="card live" aria-live="polite">
      <h2>Analysing…</h2>
      {percent !== undefined && (
        <label>
          {Math.round(percent)} %
          <progress max={100} value={percent} />
        </label>
      )}
      <ol className="stages">
        {[...latest.values()].map((s) => (
          <li key={s.stage}>
            <strong>{s.stage.toLowerCase().replace('_', ' ')}</strong>: {s.status.toLowerCase()}
            {s.progress !== undefined && ` (${Math.round(s.progress)} %)`}
          </li>
        ))}
      </ol>
      <LogView lines={log.map((l) => l.line)} />
    </div>
  );
}

export function LogView({ lines }: { lines: string[] }) {
  return (
    <pre className="code log" aria-label="Analysis log" tabIndex={0}>
      {lines.join('\n') || 'No log lines yet.'}
    </pre>
  );
}
