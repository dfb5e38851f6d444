// Worker-thread entry: the PDF report, so laying out pages never holds up the API's event loop.
import { renderReport, type ReportInput } from '../engine/report/index.js';

export default function renderPdf(input: ReportInput): Promise<Uint8Array> {
  return renderReport(input);
}
