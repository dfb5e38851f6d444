// One run's state in a line: not run, its progress while it runs, how it ended.
import { ApiError } from '../../api/client';
import { ErrorNote } from '../../components/status';
import { isActive } from './runs';

interface RunAnswer {
  status?: string | null;
  progress: number;
  total_time?: number | null;
  error_message?: string | null;
}

export function RunStatus({
  label,
  answer,
  error,
  summary,
  onCancel,
}: {
  label: string;
  answer: RunAnswer | undefined;
  error: unknown;
  /** What a completed run found. */
  summary: string;
  onCancel?: () => void;
}) {
  // Unstripping is the owner's; others may still match, so this is no failure.
  if (error instanceof ApiError && error.status === 403)
    return <p className="muted run-status">{label}: only the analysis's owner can run it.</p>;
  if (error) return <ErrorNote error={error} />;
  if (!answer || answer.status === 'UNINITIALISED') return <p className="muted run-status">{label}: not run yet.</p>;
  const time = answer.total_time == null ? '' : ` in ${answer.total_time} s`;
  if (isActive(answer.status))
    return (
      <div className="run-status running" role="status">
        <span>
          {label}: {answer.status === 'PENDING' ? 'queued' : 'running'}, {answer.progress}%
        </span>
        <progress value={answer.progress} max={100} aria-label={`${label} progress`} />
        {onCancel && (
          <button type="button" className="secondary" onClick={onCancel}>
            Cancel {label}
          </button>
        )}
      </div>
    );
  if (answer.status === 'COMPLETED')
    return (
      <p className="run-status" role="status">
        {label}: done{time}, {summary}.
      </p>
    );
  return (
    <p className="run-status error" role="status">
      {label}: {answer.status?.toLowerCase()}
      {answer.error_message ? `: ${answer.error_message}` : ''}.
    </p>
  );
}
