// Capability weights and function scores (0..1, docs/tags.md) as the interface shows them: 0–100, coloured
// at the bands of the verdict (80 and over: likely malicious; 60 to 79: suspicious).
export const scoreTone = (score: number) => (score >= 0.8 ? 'danger' : score >= 0.6 ? 'warn' : '');

const percent = (score: number) => Math.round(score * 100);

export function ScoreBadge({ score, label = 'score' }: { score: number; label?: string }) {
  return (
    <span className={`badge ${scoreTone(score)}`} title={`${label} ${percent(score)} of 100`}>
      {percent(score)}
    </span>
  );
}
