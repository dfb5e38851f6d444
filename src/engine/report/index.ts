// The PDF report of an analysis (pdfkit): plain report data in, PDF bytes out. May import src/shared.
export * from './render-report.js';
