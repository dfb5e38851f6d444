// Shannon entropy (bits per byte, 0–8) and what such values usually mean: the bands the whole-file gauge and
// the section bars are coloured by, and their legend, so colour is never the only carrier.
export const ENTROPY_MAX = 8;

export const ENTROPY_BANDS = [
  { from: 0, to: 4.5, meaning: 'text, tables, padding', className: 'band-low' },
  { from: 4.5, to: 6.5, meaning: 'machine code', className: 'band-code' },
  { from: 6.5, to: 7.5, meaning: 'dense data', className: 'band-dense' },
  { from: 7.5, to: ENTROPY_MAX, meaning: 'compressed or encrypted', className: 'band-packed' },
];

export const entropyBand = (bits: number) => ENTROPY_BANDS.find((b) => bits < b.to) ?? ENTROPY_BANDS.at(-1)!;

/** A value's place on the 0–8 scale, as a CSS length. */
export const entropyShare = (bits: number) => `${(Math.min(bits, ENTROPY_MAX) / ENTROPY_MAX) * 100}%`;

export function EntropyLegend() {
  return (
    <ul className="entropy-legend">
      {ENTROPY_BANDS.map((b) => (
        <li key={b.className}>
          <span className={`swatch ${b.className}`} aria-hidden="true" /> {b.from}–{b.to}: {b.meaning}
        </li>
      ))}
    </ul>
  );
}
