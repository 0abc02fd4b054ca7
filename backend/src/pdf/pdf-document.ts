/**
 * A new pdfkit document. pdfkit, its fonts and fontkit are required on the first PDF, not at
 * start: an API process that never prints would otherwise keep them in its heap, where every
 * mark-compact marks them under load (docs/performance.md,
 * "What the API's heap holds and what it promotes").
 */
let PdfKit: typeof import('pdfkit') | undefined;

export function pdfDocument(options: PDFKit.PDFDocumentOptions): PDFKit.PDFDocument {
  // Required here, not imported, so that it loads only when a document is first made.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  PdfKit ??= require('pdfkit') as typeof import('pdfkit');
  return new PdfKit(options);
}
