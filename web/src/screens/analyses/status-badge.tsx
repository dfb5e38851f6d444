/** An analysis status (Uploaded, Queued, Processing, Complete, Error) as a coloured badge. */
export function StatusBadge({ status }: { status: string }) {
  const tone = status === 'Complete' ? 'ok' : status === 'Error' ? 'danger' : 'warn';
  return <span className={`badge ${tone}`}>{status}</span>;
}
