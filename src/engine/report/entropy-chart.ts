// Entropy by section as bars on a 0–8 bits-per-byte scale: packed or encrypted content stands out as a bar
// past the 7.2 line, where compressed or random data sits and code and tables do not.
import { COLOR, contentWidth, ensureSpace, FONT, PAGE, textAt, type Doc } from './layout.js';
import type { ReportInput } from './report-input.js';

/** Sections smaller than this say little: 100 distinct bytes cannot reach more than 6.6 bits. */
const MIN_SECTION_BYTES = 256;
const MAX_BARS = 20;
const HIGH = 7.2;
const ROW = 13;
/** Widths of the columns beside the bars. */
const COLUMN = { name: 92, access: 22, size: 62, value: 30 };

const barColor = (e: number) => (e >= HIGH ? COLOR.bad : e >= 6.5 ? '#f9a825' : '#5b8bd0');
const size = (n: number) =>
  n >= 1 << 20 ? `${(n / (1 << 20)).toFixed(1)} MiB` : n >= 1024 ? `${(n / 1024).toFixed(1)} KiB` : `${n} B`;

export function entropyChart(
  doc: Doc,
  sections: NonNullable<ReportInput['sections']>,
  fileEntropy: number,
  fileSize: number,
): void {
  const shown = sections.filter((s) => s.size >= MIN_SECTION_BYTES).slice(0, MAX_BARS);
  const rows: { name: string; size: number; entropy: number; access?: string; bold?: boolean }[] = [
    { name: 'whole file', size: fileSize, entropy: fileEntropy, bold: true },
    ...shown,
  ];
  ensureSpace(doc, (rows.length + 2) * ROW + 20);
  const x = PAGE.margin;
  const bar0 = x + COLUMN.name + COLUMN.access + COLUMN.size + 8;
  const barWidth = contentWidth(doc) - COLUMN.name - COLUMN.access - COLUMN.size - COLUMN.value - 16;
  const scale = (e: number) => bar0 + (e / 8) * barWidth;
  const top = doc.y + 4;
  const chartBottom = top + rows.length * ROW;

  for (const tick of [0, 2, 4, 6, 8]) {
    doc.moveTo(scale(tick), top).lineTo(scale(tick), chartBottom).lineWidth(0.4).strokeColor(COLOR.rule).stroke();
    textAt(doc, String(tick), scale(tick) - 10, chartBottom + 9, 20, {
      size: 6.5,
      color: COLOR.muted,
      align: 'center',
    });
  }
  doc
    .moveTo(scale(HIGH), top - 2)
    .lineTo(scale(HIGH), chartBottom)
    .lineWidth(0.8)
    .dash(2, { space: 2 })
    .strokeColor(COLOR.bad)
    .stroke()
    .undash();

  rows.forEach((r, i) => {
    const y = top + i * ROW;
    const baseline = y + ROW - 3.5;
    const font = r.bold ? FONT.bold : FONT.mono;
    textAt(doc, r.name, x, baseline, COLUMN.name, { font, size: 7.5 });
    if (r.access)
      textAt(doc, r.access, x + COLUMN.name, baseline, COLUMN.access, { font, size: 7.5, color: COLOR.muted });
    textAt(doc, size(r.size), x + COLUMN.name + COLUMN.access, baseline, COLUMN.size, {
      size: 7.5,
      color: COLOR.muted,
      align: 'right',
    });
    doc
      .rect(bar0, y + 2.5, Math.max(0.5, scale(r.entropy) - bar0), ROW - 5)
      .fillColor(barColor(r.entropy))
      .fill();
    textAt(doc, r.entropy.toFixed(2), scale(8) + 4, baseline, COLUMN.value, {
      size: 7.5,
      font: r.bold ? FONT.bold : undefined,
    });
  });
  textAt(doc, 'bits per byte', bar0, chartBottom + 18, barWidth, { size: 6.5, color: COLOR.muted, align: 'center' });
  textAt(doc, `packed or encrypted past ${HIGH}`, scale(HIGH) - 140, top - 4, 136, {
    size: 6.5,
    color: COLOR.bad,
    align: 'right',
  });
  doc.y = chartBottom + 24;
  const small = sections.filter((s) => s.size < MIN_SECTION_BYTES).length;
  const over = sections.length - small - shown.length;
  const notDrawn = [
    small
      ? `${small} section${small > 1 ? 's' : ''} under ${MIN_SECTION_BYTES} bytes (too small for entropy to mean much)`
      : '',
    over ? `${over} more section${over > 1 ? 's' : ''}` : '',
  ].filter(Boolean);
  const legend = `Access: r read, w write, x execute.${notDrawn.length ? ` Not drawn: ${notDrawn.join('; ')}.` : ''}`;
  doc.y += 4 + textAt(doc, legend, x, doc.y + 4, contentWidth(doc), { size: 7, color: COLOR.muted, wrap: true });
}
