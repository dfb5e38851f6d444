// An analysis as a PDF a colleague wants to read. Page 1 answers "should I worry, and where do I look":
// the verdict and score, the ATT&CK tactics, the most suspicious functions with their reasons, the key facts.
// Page 2 holds the pictures (the call graph around the top function, entropy by section); then capabilities by
// tactic, the remaining tagged functions, libraries, vulnerabilities and similarity hashes. Data in, bytes out:
// the caller gathers the data and runs this off the event loop; the same input gives the same bytes.
import PDFDocument from 'pdfkit';
import { callGraph } from './call-graph.js';
import { entropyChart } from './entropy-chart.js';
import {
  COLOR,
  contentWidth,
  ensureSpace,
  FONT,
  footers,
  heading,
  heat,
  note,
  PAGE,
  textAt,
  toneColor,
  type Doc,
} from './layout.js';
import type { ReportInput } from './report-input.js';
import { facts, table, type Column } from './table.js';
import { tacticStrip } from './tactic-strip.js';
import { verdictPanel } from './verdict-panel.js';

/** The most suspicious functions on page 1; the rest follow the capabilities. */
const FIRST_PAGE_FUNCTIONS = 5;
/** Reasons per function on page 1; the capabilities section has them all. */
const FIRST_PAGE_TAGS = 6;
/** Long lists are cut in the PDF (the API has them whole): a report is read, not searched. */
const MAX_ROWS = 300;

const hex = (v: number) => `0x${v.toString(16)}`;
const notGenerated = (flag: string) => `Not generated for this analysis (analysis_config.${flag}).`;
const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

const TITLE_HEIGHT = 72;

function title(doc: Doc, r: ReportInput): void {
  const width = contentWidth(doc);
  doc.rect(0, 0, doc.page.width, TITLE_HEIGHT).fillColor(COLOR.heading).fill();
  textAt(doc, 'BINLENS ANALYSIS REPORT', PAGE.margin, 22, width, { font: FONT.bold, size: 7.5, color: '#b8c7db' });
  // Long file names shrink before they are cut.
  let size = 17;
  while (size > 11 && doc.font(FONT.bold).fontSize(size).widthOfString(r.binaryName) > width) size -= 0.5;
  textAt(doc, r.binaryName, PAGE.margin, 42, width, { font: FONT.bold, size, color: '#ffffff' });
  textAt(doc, r.subtitle, PAGE.margin, 59, width * 0.62, { size: 8.5, color: '#dce4ee' });
  textAt(
    doc,
    `Analysis ${r.analysisId} · ${r.generatedAt.replace('T', ' ').replace(/\.\d+Z$/, ' UTC')}`,
    PAGE.margin,
    59,
    width,
    {
      size: 8.5,
      color: '#dce4ee',
      align: 'right',
    },
  );
  doc.y = TITLE_HEIGHT + 14;
}

/** Score as a small bar and its value. */
const scoreColumn = <T extends { score: number }>(share: number): Column<T> => ({
  header: 'Score',
  width: share,
  text: () => '',
  draw: (doc, row, box) => {
    const bar = box.width - 24;
    doc
      .rect(box.x, box.baseline - 5.5, bar, 5)
      .fillColor(COLOR.empty)
      .fill();
    doc
      .rect(box.x, box.baseline - 5.5, Math.max(0.5, bar * row.score), 5)
      .fillColor(heat(row.score))
      .fill();
    textAt(doc, row.score.toFixed(2), box.x + bar + 2, box.baseline, 22, { size: 8, align: 'right' });
  },
});

/** Functions with their score and reasons, the strongest capability first; at most `maxTags` of them. */
function functionsTable(doc: Doc, rows: NonNullable<ReportInput['suspicious']>, maxTags = Infinity): void {
  const why = (tags: string[]) =>
    tags.length > maxTags
      ? `${tags.slice(0, maxTags).join(' · ')} · and ${tags.length - maxTags} more`
      : tags.join(' · ');
  table(doc, rows, [
    { header: 'Function', width: 0.25, font: FONT.mono, wrap: true, text: (f) => f.name },
    { header: 'Address', width: 0.14, font: FONT.mono, text: (f) => hex(f.vaddr) },
    scoreColumn(0.14),
    { header: 'Why: its capabilities, strongest first', width: 0.47, wrap: true, text: (f) => why(f.tags) },
  ]);
}

function firstPage(doc: Doc, r: ReportInput): void {
  title(doc, r);
  verdictPanel(doc, r.verdict);
  if (r.tactics) {
    heading(doc, 'ATT&CK tactics', 60, 'in kill-chain order; colour is the strongest capability');
    tacticStrip(doc, r.tactics);
  }
  const top = r.suspicious?.slice(0, FIRST_PAGE_FUNCTIONS) ?? null;
  heading(
    doc,
    'Most suspicious functions',
    60,
    r.suspicious && r.suspicious.length > FIRST_PAGE_FUNCTIONS
      ? `top ${FIRST_PAGE_FUNCTIONS} of ${r.suspicious.length} tagged`
      : undefined,
  );
  if (!top) note(doc, notGenerated('generate_capabilities'));
  else if (top.length === 0) note(doc, 'No function carries a capability tag.');
  else functionsTable(doc, top, FIRST_PAGE_TAGS);
  keyFacts(doc, r);
}

/** File facts and protections side by side, then the digests across the page. */
function keyFacts(doc: Doc, r: ReportInput): void {
  heading(doc, 'Key facts', 120);
  const width = contentWidth(doc);
  const half = (width - 16) / 2;
  const top = doc.y;
  facts(doc, r.facts, { width: half, labelShare: 0.36 });
  const leftEnd = doc.y;
  doc.y = top;
  const right = { x: PAGE.margin + half + 16, width: half };
  if (r.security.length === 0) note(doc, 'No exploit mitigations apply to this format.', right);
  else
    table(
      doc,
      r.security,
      [
        { header: 'Protection', width: 0.36, font: FONT.bold, text: (s) => s.feature },
        { header: '', width: 0.16, font: FONT.bold, color: (s) => toneColor(s.tone), text: (s) => s.value },
        {
          header: 'What it means',
          width: 0.48,
          wrap: true,
          size: 7.5,
          color: () => COLOR.muted,
          text: (s) => s.meaning,
        },
      ],
      right,
    );
  doc.y = Math.max(leftEnd, doc.y) + 8;
  facts(doc, r.hashes, { labelShare: 0.12, valueFont: FONT.mono });
}

type Capability = NonNullable<ReportInput['capabilities']>[number];
/** A capability under one heading, with what places it there: a technique, or its namespace. */
type Placed = { capability: Capability; where: string };

/** Capabilities under each tactic in kill-chain order (one under each of its tactics), then those with none. */
function byTactic(caps: Capability[], tactics: ReportInput['tactics']): [string, Placed[], string][] {
  const groups = new Map<string, Placed[]>((tactics ?? []).map((t) => [t.tactic, []]));
  const other: Placed[] = [];
  for (const c of caps) {
    if (c.attack.length === 0) other.push({ capability: c, where: c.namespace });
    for (const a of c.attack) {
      const list = groups.get(a.tactic) ?? groups.set(a.tactic, []).get(a.tactic)!;
      const where = `${a.technique}${a.id ? ` [${a.id}]` : ''}`;
      if (!list.some((e) => e.capability === c && e.where === where)) list.push({ capability: c, where });
    }
  }
  return [
    ...[...groups].map(([tactic, list]): [string, Placed[], string] => [tactic, list, 'Technique']),
    ['No ATT&CK mapping', other, 'Namespace'],
  ];
}

function capabilitiesByTactic(doc: Doc, r: ReportInput): void {
  const caps = r.capabilities;
  const count = caps ? plural(caps.length, 'capability', 'capabilities') : undefined;
  heading(doc, 'Capabilities by ATT&CK tactic', 80, count);
  if (!caps) return note(doc, notGenerated('generate_capabilities'));
  if (caps.length === 0) return note(doc, 'No capability rule matched.');
  const functions = (fs: string[]) =>
    fs.length > 4 ? `${fs.slice(0, 4).join(', ')} and ${fs.length - 4} more` : fs.join(', ') || 'the file';
  for (const [group, entries, whereHeader] of byTactic(caps, r.tactics)) {
    if (entries.length === 0) continue;
    subheading(doc, group, Math.max(...entries.map((e) => e.capability.weight)));
    table(doc, entries.slice(0, MAX_ROWS), [
      { header: 'Capability', width: 0.33, wrap: true, text: (e) => e.capability.name },
      { header: whereHeader, width: 0.3, wrap: true, text: (e) => e.where },
      { header: 'Weight', width: 0.08, align: 'right', text: (e) => e.capability.weight.toFixed(2) },
      { header: 'Found in', width: 0.29, font: FONT.mono, wrap: true, text: (e) => functions(e.capability.functions) },
    ]);
  }
}

/** A tactic's name beside a swatch of its strongest capability's colour. */
function subheading(doc: Doc, text: string, weight: number): void {
  ensureSpace(doc, 60);
  const y = doc.y + 16;
  doc
    .rect(PAGE.margin, y - 8.5, 4, 11)
    .fillColor(heat(weight))
    .fill();
  textAt(doc, text, PAGE.margin + 9, y, contentWidth(doc), { font: FONT.bold, size: 9.5 });
  doc.y = y + 4;
}

function libraries(doc: Doc, r: ReportInput): void {
  heading(doc, 'Libraries', 50, r.libraries ? `${r.libraries.length} identified` : undefined);
  if (!r.libraries) note(doc, notGenerated('generate_sbom'));
  else if (r.libraries.length === 0) note(doc, 'No known library identified.');
  else
    table(doc, r.libraries.slice(0, MAX_ROWS), [
      { header: 'Library', width: 0.4, font: FONT.bold, text: (l) => l.name },
      { header: 'Version', width: 0.3, text: (l) => l.version },
      { header: 'Linkage', width: 0.3, text: (l) => l.linkage },
    ]);
  const found = Array.isArray(r.vulnerabilities) ? r.vulnerabilities : null;
  heading(doc, 'Vulnerabilities', 50, found ? `${found.length} known` : undefined);
  if (r.vulnerabilities === 'no database')
    note(
      doc,
      'Not checked: the vulnerability database is empty (an administrator loads it with binlens vulns import).',
    );
  else if (!found) note(doc, notGenerated('generate_cves'));
  else if (found.length === 0) note(doc, 'No known vulnerability in the identified libraries (local database).');
  else
    table(doc, found.slice(0, MAX_ROWS), [
      { header: 'CVE', width: 0.17, font: FONT.mono, text: (v) => v.cve },
      {
        header: 'Severity',
        width: 0.14,
        font: FONT.bold,
        color: (v) => (v.severity === 'CRITICAL' || v.severity === 'HIGH' ? COLOR.bad : COLOR.warn),
        text: (v) => `${v.severity} ${v.score.toFixed(1)}`,
      },
      { header: 'Library', width: 0.15, text: (v) => `${v.product} ${v.version}` },
      { header: 'Summary', width: 0.54, wrap: true, text: (v) => v.summary },
    ]);
}

function body(doc: Doc, r: ReportInput): void {
  firstPage(doc, r);
  // The pictures start page 2, unless page 1 ran over and page 2 has begun already.
  if (doc.bufferedPageRange().count === 1) {
    doc.addPage();
    doc.y = PAGE.margin;
  }
  heading(doc, 'Around the most suspicious function', 120, r.callGraph ? 'its callers and what it calls' : undefined);
  if (r.callGraph) callGraph(doc, r.callGraph);
  else note(doc, r.suspicious ? 'No function carries a capability tag.' : notGenerated('generate_capabilities'));
  heading(doc, 'Entropy by section', 120, `whole file ${r.fileEntropy.toFixed(2)} bits per byte`);
  if (r.sections === null) note(doc, 'The sample is no longer stored, so its sections cannot be measured.');
  else if (r.sections.length === 0) note(doc, 'The file has no sections.');
  else entropyChart(doc, r.sections, r.fileEntropy, r.fileSize);
  capabilitiesByTactic(doc, r);
  const rest = r.suspicious?.slice(FIRST_PAGE_FUNCTIONS) ?? [];
  if (rest.length) {
    heading(doc, 'More tagged functions', 60, `ranks ${FIRST_PAGE_FUNCTIONS + 1} to ${r.suspicious!.length}`);
    functionsTable(doc, rest);
  }
  libraries(doc, r);
  heading(doc, 'Similarity hashes', 50, 'to find relatives of this file');
  facts(doc, r.similarityHashes, { labelShare: 0.12, valueFont: FONT.mono });
}

export function renderReport(r: ReportInput): Promise<Uint8Array> {
  const created = new Date(r.generatedAt);
  const doc = new PDFDocument({
    size: 'A4',
    margins: { top: PAGE.margin, left: PAGE.margin, right: PAGE.margin, bottom: PAGE.pdfkitBottom },
    bufferPages: true,
    info: {
      Title: `Binlens report: ${r.binaryName}`,
      Creator: 'Binlens',
      Producer: 'Binlens',
      CreationDate: created,
      ModDate: created,
    },
  });
  const chunks: Buffer[] = [];
  const done = new Promise<Uint8Array>((resolve, reject) => {
    doc.on('data', (c: Buffer) => chunks.push(c));
    doc.on('end', () => resolve(new Uint8Array(Buffer.concat(chunks))));
    doc.on('error', reject);
  });
  body(doc, r);
  footers(doc, `${r.binaryName} · Binlens analysis ${r.analysisId}`);
  doc.end();
  return done;
}
