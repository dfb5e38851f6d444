// Entropy of a byte range (0–8 bits per byte) as a small bar beside its value, with the word an analyst
// would use for the two ends: padding, and compressed or encrypted data.
import './firmware.css';

const MAX = 8;
/** Above this the range is almost surely compressed or encrypted (plain code and text stay well below). */
const HIGH = 7.5;
const LOW = 0.5;

export function Entropy({ value }: { value: number }) {
  const meaning = value >= HIGH ? 'compressed or encrypted' : value <= LOW ? 'padding' : null;
  return (
    <span className="entropy">
      <span className="entropy-bar" aria-hidden="true">
        <span className={value >= HIGH ? 'high' : undefined} style={{ width: `${(value / MAX) * 100}%` }} />
      </span>
      <span>
        {value.toFixed(2)}
        {meaning && <span className="muted"> ({meaning})</span>}
      </span>
    </span>
  );
}
