// Page geometry, colours and the text primitives every part of the report shares. Text is placed by its
// baseline, so a Courier value and a Helvetica label on one line sit on the same line.
import type PDFDocument from 'pdfkit';
import type { Tone } from './report-input.js';

export type Doc = InstanceType<typeof PDFDocument>;

/**
 * `margin` on every side of the content; the footer sits in the bottom margin. pdfkit's own bottom margin is
 * `pdfkitBottom`, far lower, so it never breaks a page by itself: ensureSpace does, where a block fits whole.
 */
export const PAGE = { margin: 42, footer: 20, pdfkitBottom: 8 } as const;
export const FONT = { regular: 'Helvetica', bold: 'Helvetica-Bold', mono: 'Courier', italic: 'Helvetica-Oblique' };
export const COLOR = {
  ink: '#1d232b',
  muted: '#66707c',
  heading: '#1f3a5f',
  rule: '#cfd6df',
  zebra: '#f3f5f8',
  empty: '#e9ecf0',
  good: '#2e7d32',
  warn: '#c77700',
  bad: '#c62828',
  neutral: '#455a64',
} as const;

export const toneColor = (tone: Tone): string => COLOR[tone];

/** A weight or score 0..1 as a colour: grey for nothing, then yellow, orange, red as it grows. */
export function heat(w: number): string {
  if (w <= 0) return COLOR.empty;
  if (w >= 0.8) return '#c62828';
  if (w >= 0.6) return '#ef6c00';
  if (w >= 0.3) return '#f9a825';
  return '#fdd835';
}

export const contentWidth = (doc: Doc): number => doc.page.width - 2 * PAGE.margin;
const bottom = (doc: Doc): number => doc.page.height - PAGE.margin - PAGE.footer;

/** Starts a new page unless `height` still fits below the cursor. */
export function ensureSpace(doc: Doc, height: number): void {
  if (doc.y + height > bottom(doc)) {
    doc.addPage();
    doc.y = PAGE.margin;
  }
}

export interface TextStyle {
  font?: string;
  size?: number;
  color?: string;
  align?: 'left' | 'right' | 'center';
  /** Wraps within the width when true; otherwise one line, cut with an ellipsis. */
  wrap?: boolean;
}

/** Text whose first baseline is at `baseline`; returns the height it took below that baseline's line. */
export function textAt(doc: Doc, s: string, x: number, baseline: number, width: number, style: TextStyle = {}): number {
  doc
    .font(style.font ?? FONT.regular)
    .fontSize(style.size ?? 8.5)
    .fillColor(style.color ?? COLOR.ink);
  const options = { width, align: style.align ?? 'left', baseline: 'alphabetic' as const, lineGap: 1 };
  if (!style.wrap) {
    doc.text(fit(doc, s, width), x, baseline, { ...options, lineBreak: false });
    return doc.currentLineHeight(true);
  }
  const height = doc.heightOfString(s, options);
  doc.text(s, x, baseline, options);
  return height;
}

/** `s` cut to `width` with an ellipsis, in the current font. */
function fit(doc: Doc, s: string, width: number): string {
  if (doc.widthOfString(s) <= width) return s;
  let n = s.length;
  while (n > 1 && doc.widthOfString(`${s.slice(0, n)}…`) > width) n--;
  return `${s.slice(0, n)}…`;
}

/** A section heading with a rule under it; kept with at least `keep` points of what follows. */
export function heading(doc: Doc, title: string, keep = 80, note?: string): void {
  ensureSpace(doc, 40 + keep);
  const x = PAGE.margin;
  const y = doc.y + 20;
  textAt(doc, title, x, y, contentWidth(doc), { font: FONT.bold, size: 12, color: COLOR.heading });
  if (note) {
    doc.font(FONT.bold).fontSize(12);
    const after = doc.widthOfString(title) + 8;
    textAt(doc, note, x + after, y, contentWidth(doc) - after, { size: 8.5, color: COLOR.muted });
  }
  doc
    .moveTo(x, y + 5)
    .lineTo(x + contentWidth(doc), y + 5)
    .lineWidth(0.6)
    .strokeColor(COLOR.rule)
    .stroke();
  doc.y = y + 12;
}

/** A muted line of prose (what a section lacks, or how to read it), across the page or in a column. */
export function note(
  doc: Doc,
  s: string,
  column: { x: number; width: number } = { x: PAGE.margin, width: contentWidth(doc) },
): void {
  ensureSpace(doc, 16);
  const h = textAt(doc, s, column.x, doc.y + 9, column.width, { color: COLOR.muted, wrap: true });
  doc.y += h + 6;
}

/** "Page n of m" and the binary on every page; drawn last, once the page count is known. */
export function footers(doc: Doc, left: string): void {
  const range = doc.bufferedPageRange();
  for (let i = 0; i < range.count; i++) {
    doc.switchToPage(range.start + i);
    const y = doc.page.height - PAGE.margin + 4;
    const x = PAGE.margin;
    const w = contentWidth(doc);
    doc
      .moveTo(x, y - 12)
      .lineTo(x + w, y - 12)
      .lineWidth(0.5)
      .strokeColor(COLOR.rule)
      .stroke();
    textAt(doc, left, x, y, w * 0.75, { size: 7.5, color: COLOR.muted });
    textAt(doc, `Page ${i + 1} of ${range.count}`, x + w * 0.75, y, w * 0.25, {
      size: 7.5,
      color: COLOR.muted,
      align: 'right',
    });
  }
}
