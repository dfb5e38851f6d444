// Aligned tables: a header row, zebra rows, cells on one baseline, text cut or wrapped to its column, and
// the header repeated when a table runs onto another page.
import { COLOR, contentWidth, ensureSpace, FONT, PAGE, textAt, type Doc } from './layout.js';

export interface Column<T> {
  header: string;
  /** Share of the table's width. */
  width: number;
  align?: 'left' | 'right' | 'center';
  font?: string;
  /** Font size, when smaller than the table's (explanations beside values). */
  size?: number;
  /** Wrap long text onto more lines instead of cutting it. */
  wrap?: boolean;
  text: (row: T) => string;
  color?: (row: T) => string;
  /** Draws the cell itself (a bar, a swatch) in the box given, after the text if there is any. */
  draw?: (doc: Doc, row: T, box: { x: number; width: number; baseline: number }) => void;
}

export interface TableOptions {
  x?: number;
  width?: number;
  /** Header row; off for label/value tables. */
  header?: boolean;
  size?: number;
}

const PAD_X = 4;
const PAD_Y = 3.5;

/** Draws rows from the cursor down, breaking pages between rows; leaves the cursor under the table. */
export function table<T>(doc: Doc, rows: T[], columns: Column<T>[], options: TableOptions = {}): void {
  const x0 = options.x ?? PAGE.margin;
  const width = options.width ?? contentWidth(doc);
  const size = options.size ?? 8.5;
  const total = columns.reduce((s, c) => s + c.width, 0);
  const widths = columns.map((c) => (c.width / total) * width);
  const lefts = widths.map((_, i) => x0 + widths.slice(0, i).reduce((s, w) => s + w, 0));
  const line = size * 1.25;
  const baseline = (top: number) => top + PAD_Y + size * 0.8;

  const header = () => {
    const top = doc.y;
    const height = line + 2 * PAD_Y;
    columns.forEach((c, i) =>
      textAt(doc, c.header, lefts[i]! + PAD_X, baseline(top), widths[i]! - 2 * PAD_X, {
        font: FONT.bold,
        size: size - 0.5,
        color: COLOR.muted,
        align: c.align,
      }),
    );
    doc
      .moveTo(x0, top + height)
      .lineTo(x0 + width, top + height)
      .lineWidth(0.8)
      .strokeColor(COLOR.heading)
      .stroke();
    doc.y = top + height;
  };

  const heightOf = (row: T) =>
    Math.max(
      line,
      ...columns.map((c, i) => {
        if (!c.wrap) return line;
        doc.font(c.font ?? FONT.regular).fontSize(c.size ?? size);
        return doc.heightOfString(c.text(row), { width: widths[i]! - 2 * PAD_X, lineGap: 1 });
      }),
    ) +
    2 * PAD_Y;

  if (options.header !== false) {
    ensureSpace(doc, 2 * (line + 2 * PAD_Y));
    header();
  }
  rows.forEach((row, r) => {
    const height = heightOf(row);
    const page = doc.bufferedPageRange().count;
    ensureSpace(doc, height);
    if (options.header !== false && doc.bufferedPageRange().count !== page) header();
    const top = doc.y;
    if (r % 2 === 1) doc.rect(x0, top, width, height).fillColor(COLOR.zebra).fill();
    columns.forEach((c, i) => {
      const cell = { x: lefts[i]! + PAD_X, width: widths[i]! - 2 * PAD_X, baseline: baseline(top) };
      const text = c.text(row);
      if (text)
        textAt(doc, text, cell.x, cell.baseline, cell.width, {
          font: c.font,
          size: c.size ?? size,
          color: c.color?.(row),
          align: c.align,
          wrap: c.wrap,
        });
      c.draw?.(doc, row, cell);
    });
    doc.y = top + height;
  });
  doc
    .moveTo(x0, doc.y)
    .lineTo(x0 + width, doc.y)
    .lineWidth(0.5)
    .strokeColor(COLOR.rule)
    .stroke();
}

/** Label/value rows: bold muted labels, values in `valueFont` (Courier for digests). */
export function facts(
  doc: Doc,
  rows: [string, string][],
  options: TableOptions & { labelShare?: number; valueFont?: string } = {},
): void {
  const share = options.labelShare ?? 0.3;
  table(
    doc,
    rows,
    [
      { header: '', width: share, font: FONT.bold, color: () => COLOR.muted, text: ([label]) => label },
      { header: '', width: 1 - share, font: options.valueFont, wrap: true, text: ([, value]) => value || '—' },
    ],
    { ...options, header: false },
  );
}
