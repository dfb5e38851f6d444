// The call graph one step around the most suspicious function: its callers on the left, what it calls on the
// right in call order. Imports are shaded (they are what the function asks the system to do); a function's
// border takes its score's colour.
import { COLOR, contentWidth, ensureSpace, FONT, heat, PAGE, textAt, type Doc } from './layout.js';
import type { CallGraphNode, ReportInput } from './report-input.js';

const MAX_CALLERS = 10;
const MAX_CALLEES = 22;
const NODE = 13;
const STEP = 16;
const SIDE = 150;
const FOCUS = { width: 150, height: 46 };
const IMPORT_FILL = '#e3ecf7';

const hex = (v: number) => `0x${v.toString(16)}`;

export function callGraph(doc: Doc, graph: NonNullable<ReportInput['callGraph']>): void {
  const callers = capped(graph.callers, MAX_CALLERS, 'caller');
  const callees = capped(graph.callees, MAX_CALLEES, 'callee');
  if (graph.indirectCalls) callees.push(`${graph.indirectCalls} indirect call${graph.indirectCalls > 1 ? 's' : ''}`);
  const rows = Math.max(callers.length, callees.length, 3);
  const height = rows * STEP;
  ensureSpace(doc, height + 40);
  const width = contentWidth(doc);
  const top = doc.y + 16;
  const left = PAGE.margin;
  const right = PAGE.margin + width - SIDE;
  const focusX = PAGE.margin + (width - FOCUS.width) / 2;
  const focusY = top + height / 2 - FOCUS.height / 2;

  columnTitle(doc, 'Called by', left, top - 6);
  columnTitle(doc, 'Calls', right, top - 6);
  const column = (nodes: (CallGraphNode | string)[], x: number, edgeX: (y: number) => void) =>
    nodes.forEach((n, i) => {
      const y = top + (height - nodes.length * STEP) / 2 + i * STEP;
      edgeX(y + NODE / 2);
      node(doc, n, x, y);
    });
  column(callers, left, (y) => arrow(doc, left + SIDE, y, focusX, focusY + FOCUS.height / 2));
  column(callees, right, (y) => arrow(doc, focusX + FOCUS.width, focusY + FOCUS.height / 2, right, y));
  if (callers.length === 0)
    textAt(doc, 'no known caller', left, top + height / 2 + 3, SIDE, { size: 7.5, color: COLOR.muted });
  if (callees.length === 0)
    textAt(doc, 'calls nothing', right, top + height / 2 + 3, SIDE, { size: 7.5, color: COLOR.muted });
  focus(doc, graph.focus, focusX, focusY);
  doc.y = top + height + 6;
  legend(doc);
}

/** The first `max` nodes, and a line for the rest. */
function capped(nodes: CallGraphNode[], max: number, what: string): (CallGraphNode | string)[] {
  if (nodes.length <= max) return [...nodes];
  const more = nodes.length - (max - 1);
  return [...nodes.slice(0, max - 1), `… ${more} more ${what}s`];
}

function columnTitle(doc: Doc, title: string, x: number, y: number): void {
  textAt(doc, title.toUpperCase(), x, y, SIDE, { font: FONT.bold, size: 7, color: COLOR.muted });
}

function node(doc: Doc, n: CallGraphNode | string, x: number, y: number): void {
  if (typeof n === 'string') {
    textAt(doc, n, x + 5, y + NODE - 3.5, SIDE - 10, { size: 7.5, color: COLOR.muted, font: FONT.italic });
    return;
  }
  const tagged = !n.external && n.score > 0;
  doc
    .roundedRect(x, y, SIDE, NODE, 2)
    .lineWidth(tagged ? 1.4 : 0.6)
    .fillAndStroke(n.external ? IMPORT_FILL : '#ffffff', tagged ? heat(n.score) : COLOR.rule);
  textAt(doc, n.name, x + 5, y + NODE - 3.5, SIDE - (tagged ? 36 : 10), { font: FONT.mono, size: 7.5 });
  if (tagged)
    textAt(doc, n.score.toFixed(2), x + SIDE - 32, y + NODE - 3.5, 28, { size: 7, color: COLOR.muted, align: 'right' });
}

function focus(doc: Doc, n: CallGraphNode, x: number, y: number): void {
  doc.roundedRect(x, y, FOCUS.width, FOCUS.height, 4).lineWidth(2).fillAndStroke('#fff8f6', heat(n.score));
  const w = FOCUS.width - 12;
  textAt(doc, n.name, x + 6, y + 15, w, { font: FONT.bold, size: 9, align: 'center' });
  textAt(doc, n.vaddr === null ? '' : hex(n.vaddr), x + 6, y + 27, w, { font: FONT.mono, size: 7.5, align: 'center' });
  textAt(doc, `score ${n.score.toFixed(2)}`, x + 6, y + 39, w, { size: 7.5, color: COLOR.muted, align: 'center' });
}

/** A line from (x1, y1) to (x2, y2) ending in an arrowhead. */
function arrow(doc: Doc, x1: number, y1: number, x2: number, y2: number): void {
  const mid = (x1 + x2) / 2;
  doc
    .moveTo(x1, y1)
    .bezierCurveTo(mid, y1, mid, y2, x2 - 4, y2)
    .lineWidth(0.6)
    .strokeColor('#9aa5b1')
    .stroke();
  doc
    .polygon([x2, y2], [x2 - 5, y2 - 2.5], [x2 - 5, y2 + 2.5])
    .fillColor('#9aa5b1')
    .fill();
}

function legend(doc: Doc): void {
  const y = doc.y + 8;
  let x = PAGE.margin;
  doc
    .roundedRect(x, y - 7, 16, 8, 1.5)
    .lineWidth(0.6)
    .fillAndStroke(IMPORT_FILL, COLOR.rule);
  textAt(doc, 'import (a library or system call)', x + 20, y, 150, { size: 7, color: COLOR.muted });
  x += 160;
  doc
    .roundedRect(x, y - 7, 16, 8, 1.5)
    .lineWidth(1.4)
    .fillAndStroke('#ffffff', heat(0.9));
  textAt(doc, 'function with capabilities (border: its score, shown at right)', x + 20, y, 260, {
    size: 7,
    color: COLOR.muted,
  });
  doc.y = y + 8;
}
