// The PDF report of an analysis (pdfkit): plain report data in, PDF bytes out. May import src/shared and the
// verdict's types and bands from engine/capabilities.
export * from './report-input.js';
export * from './render-report.js';
