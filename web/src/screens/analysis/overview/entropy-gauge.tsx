// The whole file's entropy on the band-coloured scale, the value marked and its meaning written out (the
// legend is under the sections' bars, which use the same colours).
import { ENTROPY_BANDS, entropyBand, entropyShare } from './entropy-bands';

export function EntropyGauge({ entropy }: { entropy: number }) {
  return (
    <figure className="entropy-gauge">
      <figcaption>
        Entropy <strong>{entropy.toFixed(2)}</strong> bits per byte: {entropyBand(entropy).meaning}
      </figcaption>
      <div className="entropy-scale" aria-hidden="true">
        {ENTROPY_BANDS.map((b) => (
          <span key={b.className} className={b.className} style={{ width: entropyShare(b.to - b.from) }} />
        ))}
        <span className="marker" style={{ left: entropyShare(entropy) }} />
      </div>
    </figure>
  );
}
