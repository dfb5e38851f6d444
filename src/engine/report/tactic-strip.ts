// The ATT&CK tactics in kill-chain order, seven to a row, each cell coloured by the strongest capability
// that maps to it: where along an attack's course the binary's behaviour lies, at a glance.
import { COLOR, contentWidth, ensureSpace, FONT, heat, PAGE, textAt, type Doc } from './layout.js';
import type { ReportInput } from './report-input.js';

const PER_ROW = 7;
const GAP = 4;
const CELL_HEIGHT = 34;
const LEGEND: [string, number][] = [
  ['none', 0],
  ['under 0.3', 0.1],
  ['0.3 to 0.6', 0.3],
  ['0.6 to 0.8', 0.6],
  ['0.8 and over', 0.9],
];

/** Dark fills carry white text. */
const onFill = (w: number) => (w >= 0.6 ? '#ffffff' : COLOR.ink);

export function tacticStrip(doc: Doc, tactics: NonNullable<ReportInput['tactics']>): void {
  const rows = Math.ceil(tactics.length / PER_ROW);
  ensureSpace(doc, rows * (CELL_HEIGHT + GAP) + 18);
  const width = contentWidth(doc);
  const cell = (width - (PER_ROW - 1) * GAP) / PER_ROW;
  const top = doc.y;
  tactics.forEach((t, i) => {
    const x = PAGE.margin + (i % PER_ROW) * (cell + GAP);
    const y = top + Math.floor(i / PER_ROW) * (CELL_HEIGHT + GAP);
    doc.roundedRect(x, y, cell, CELL_HEIGHT, 3).fillColor(heat(t.weight)).fill();
    const color = t.capabilities ? onFill(t.weight) : COLOR.muted;
    textAt(doc, t.tactic, x + 4, y + 10, cell - 8, { font: FONT.bold, size: 7, color, wrap: true });
    const count = t.capabilities ? `${t.capabilities} capabilit${t.capabilities > 1 ? 'ies' : 'y'}` : '—';
    textAt(doc, count, x + 4, y + CELL_HEIGHT - 4.5, cell - 8, { size: 6.5, color });
  });
  doc.y = top + rows * (CELL_HEIGHT + GAP) + 2;
  legend(doc);
}

function legend(doc: Doc): void {
  const y = doc.y + 7;
  let x = PAGE.margin;
  textAt(doc, 'Strongest capability weight:', x, y, 120, { size: 7, color: COLOR.muted });
  x += 104;
  for (const [label, w] of LEGEND) {
    doc
      .rect(x, y - 6, 9, 7)
      .fillColor(heat(w))
      .fill();
    textAt(doc, label, x + 12, y, 60, { size: 7, color: COLOR.muted });
    doc.font(FONT.regular).fontSize(7);
    x += 22 + doc.widthOfString(label);
  }
  doc.y = y + 6;
}
