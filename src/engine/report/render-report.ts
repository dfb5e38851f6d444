// An analysis as a PDF a colleague can read: summary and hashes, format and security features,
// capabilities with their ATT&CK ids, libraries and vulnerabilities, the most suspicious functions.
// Data in, bytes out; the caller gathers the data and runs this off the event loop.
import PDFDocument from 'pdfkit';

export interface ReportInput {
  binaryName: string;
  analysisId: number;
  /** ISO 8601; also the PDF's creation date, so the same input gives the same bytes. */
  generatedAt: string;
  summary: [label: string, value: string][];
  hashes: [label: string, value: string][];
  security: [label: string, value: string][];
  capabilities: { name: string; namespace: string; attack: string[]; functions: string[] }[];
  libraries: { name: string; version: string; linkage: string }[];
  vulnerabilities: {
    cve: string;
    product: string;
    version: string;
    severity: string;
    score: number;
    summary: string;
  }[];
  suspicious: { name: string; vaddr: number; score: number; tags: string[] }[];
}

const MARGIN = 50;
const BODY = 9.5;
/** Long lists are cut in the PDF (the API has them whole): a report is read, not searched. */
const MAX_ROWS = 400;

type Doc = InstanceType<typeof PDFDocument>;

function heading(doc: Doc, text: string): void {
  if (doc.y > doc.page.height - 160) doc.addPage();
  doc.moveDown(0.8).font('Helvetica-Bold').fontSize(13).fillColor('#1f3a5f').text(text);
  doc.moveDown(0.3).font('Helvetica').fontSize(BODY).fillColor('black');
}

function pairs(doc: Doc, rows: [string, string][]): void {
  for (const [label, value] of rows) {
    doc
      .font('Helvetica-Bold')
      .text(`${label}: `, { continued: true })
      .font('Courier')
      .text(value || '-');
    doc.font('Helvetica');
  }
}

function list(doc: Doc, lines: string[], empty: string): void {
  if (lines.length === 0) {
    doc.fillColor('#555555').text(empty).fillColor('black');
    return;
  }
  for (const line of lines.slice(0, MAX_ROWS)) doc.text(line, { indent: 8 });
  if (lines.length > MAX_ROWS)
    doc
      .fillColor('#555555')
      .text(`… and ${lines.length - MAX_ROWS} more`)
      .fillColor('black');
}

const hex = (v: number) => `0x${v.toString(16)}`;

function body(doc: Doc, r: ReportInput): void {
  doc.font('Helvetica-Bold').fontSize(18).text('Binlens analysis report');
  doc.font('Helvetica').fontSize(11).fillColor('#333333').text(`${r.binaryName} — analysis ${r.analysisId}`);
  doc.fontSize(BODY).text(`Generated ${r.generatedAt}`).fillColor('black');
  heading(doc, 'Summary');
  pairs(doc, r.summary);
  heading(doc, 'Hashes');
  pairs(doc, r.hashes);
  heading(doc, 'Format and security features');
  pairs(doc, r.security);
  heading(doc, `Capabilities (${r.capabilities.length})`);
  list(
    doc,
    r.capabilities.map((c) => {
      const attack = c.attack.length ? ` [${c.attack.join('; ')}]` : '';
      const where = c.functions.length
        ? ` — in ${c.functions.slice(0, 5).join(', ')}${c.functions.length > 5 ? ', …' : ''}`
        : '';
      return `${c.name} (${c.namespace})${attack}${where}`;
    }),
    'No capability rule matched.',
  );
  heading(doc, `Libraries (${r.libraries.length})`);
  list(
    doc,
    r.libraries.map((l) => `${l.name} ${l.version} (${l.linkage})`),
    'No known library identified.',
  );
  heading(doc, `Vulnerabilities (${r.vulnerabilities.length})`);
  list(
    doc,
    r.vulnerabilities.map(
      (v) => `${v.cve} ${v.severity} ${v.score.toFixed(1)} — ${v.product} ${v.version}: ${v.summary}`,
    ),
    'No known vulnerability in the identified libraries (local database).',
  );
  heading(doc, 'Most suspicious functions');
  list(
    doc,
    r.suspicious.map((f) => `${f.name} at ${hex(f.vaddr)} — score ${f.score.toFixed(2)}: ${f.tags.join(', ')}`),
    'No function carries a capability tag.',
  );
}

function footers(doc: Doc, r: ReportInput): void {
  const range = doc.bufferedPageRange();
  for (let i = 0; i < range.count; i++) {
    doc.switchToPage(range.start + i);
    // Text below the bottom margin would start a new page; the footer lives there.
    doc.page.margins.bottom = 0;
    const y = doc.page.height - MARGIN + 15;
    doc
      .fontSize(8)
      .fillColor('#777777')
      .text(`${r.binaryName} · page ${i + 1} of ${range.count}`, MARGIN, y, {
        width: doc.page.width - 2 * MARGIN,
        align: 'center',
        lineBreak: false,
      });
  }
}

export function renderReport(r: ReportInput): Promise<Uint8Array> {
  const created = new Date(r.generatedAt);
  const doc = new PDFDocument({
    size: 'A4',
    margin: MARGIN,
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
  footers(doc, r);
  doc.end();
  return done;
}
