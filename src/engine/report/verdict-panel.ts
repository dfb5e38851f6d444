// The first thing on page 1: the score in a tile coloured by verdict, the evidence behind it, and a gauge
// that shows where the score sits between the verdict bands.
import { VERDICT_THRESHOLDS, type Verdict } from '../capabilities/verdict.js';
import { COLOR, contentWidth, FONT, heat, PAGE, textAt, type Doc } from './layout.js';

const HEIGHT = 96;
const TILE = 118;
const EVIDENCE_LINES = 4;
const CAVEAT =
  'The score weighs each ATT&CK tactic once, at its strongest capability; capabilities without a tactic count as ' +
  'one more. A heuristic to order attention, not a detection.';

const LEVEL_COLOR: Record<Verdict['level'], string> = {
  malicious: COLOR.bad,
  suspicious: COLOR.warn,
  low: COLOR.good,
  none: COLOR.neutral,
};
const percent = (score: number) => String(Math.round(score * 100));

export function verdictPanel(doc: Doc, verdict: Verdict | null): void {
  const x = PAGE.margin;
  const y = doc.y;
  const width = contentWidth(doc);
  const color = verdict ? LEVEL_COLOR[verdict.level] : COLOR.muted;
  doc.roundedRect(x, y, width, HEIGHT, 4).lineWidth(0.8).strokeColor(color).stroke();
  doc.roundedRect(x, y, TILE, HEIGHT, 4).fillColor(color).fill();

  const white = { color: '#ffffff', align: 'center' as const };
  textAt(doc, 'OVERALL SCORE', x, y + 16, TILE, { ...white, font: FONT.bold, size: 7.5 });
  textAt(doc, verdict ? percent(verdict.score) : '—', x, y + 53, TILE, { ...white, font: FONT.bold, size: 36 });
  if (verdict) textAt(doc, 'out of 100', x, y + 66, TILE, { ...white, size: 7.5 });
  textAt(doc, verdict ? verdict.label : 'Not assessed', x + 4, y + 84, TILE - 8, {
    ...white,
    font: FONT.bold,
    size: 10,
  });

  const left = x + TILE + 14;
  const inner = width - TILE - 28;
  textAt(doc, `Verdict: ${verdict ? verdict.label : 'not assessed'}`, left, y + 19, inner, {
    font: FONT.bold,
    size: 13,
    color,
  });
  if (!verdict) {
    textAt(
      doc,
      'Capabilities were not generated for this analysis (analysis_config.generate_capabilities), so there is ' +
        'nothing to judge the binary by. Run the analysis again with them to get a verdict.',
      left,
      y + 38,
      inner,
      { color: COLOR.muted, wrap: true },
    );
    return void (doc.y = y + HEIGHT + 10);
  }
  evidence(doc, verdict, left, y + 34, inner);
  gauge(doc, verdict.score, left, y + HEIGHT - 22, inner);
  textAt(doc, CAVEAT, x, y + HEIGHT + 10, width, { size: 7, color: COLOR.muted });
  doc.y = y + HEIGHT + 12;
}

function evidence(doc: Doc, verdict: Verdict, x: number, y: number, width: number): void {
  if (verdict.evidence.length === 0) {
    textAt(
      doc,
      'No capability rule matched. That is no proof of innocence: rules see only what they describe.',
      x,
      y,
      width,
      {
        color: COLOR.muted,
        wrap: true,
      },
    );
    return;
  }
  // Four lines fit above the gauge: four lines of evidence, or three and a line saying how many more.
  const shown = verdict.evidence.slice(
    0,
    verdict.evidence.length > EVIDENCE_LINES ? EVIDENCE_LINES - 1 : EVIDENCE_LINES,
  );
  shown.forEach((e, i) => {
    const baseline = y + i * 11;
    doc
      .circle(x + 2.5, baseline - 2.8, 2.2)
      .fillColor(heat(e.weight))
      .fill();
    textAt(doc, e.group, x + 9, baseline, 118, { font: FONT.bold, size: 8 });
    textAt(doc, `${e.rule} (weight ${e.weight})`, x + 129, baseline, width - 129, { size: 8 });
  });
  const more = verdict.evidence.length - shown.length;
  if (more > 0)
    textAt(
      doc,
      `and ${more} weaker line${more > 1 ? 's' : ''} of evidence`,
      x + 129,
      y + shown.length * 11,
      width - 129,
      {
        size: 7.5,
        color: COLOR.muted,
      },
    );
}

/** The 0..100 scale in its verdict bands, with a marker at the score. */
function gauge(doc: Doc, score: number, x: number, y: number, width: number): void {
  const bands = [...VERDICT_THRESHOLDS].reverse();
  bands.forEach((band, i) => {
    const from = i === 0 ? 0 : band.from;
    const to = bands[i + 1]?.from ?? 1;
    const tint = { low: '#c8e6c9', suspicious: '#ffe0b2', malicious: '#ffcdd2', none: COLOR.empty }[band.level];
    doc
      .rect(x + from * width, y, (to - from) * width, 6)
      .fillColor(tint)
      .fill();
    textAt(doc, band.label, x + from * width, y + 15, (to - from) * width, {
      size: 6.5,
      color: COLOR.muted,
      align: 'center',
    });
  });
  const at = x + score * width;
  doc
    .polygon([at - 4, y - 5], [at + 4, y - 5], [at, y + 1])
    .fillColor(COLOR.ink)
    .fill();
  doc
    .rect(at - 0.6, y, 1.2, 6)
    .fillColor(COLOR.ink)
    .fill();
}
