import { STATEMENT_TEXTS, type StatementItem } from '@alignerflow/domain';
import { pdfDocument } from '../pdf/pdf-document.js';

export type Paper = 'A4' | 'LETTER';

const MARGIN = 56;

/**
 * The statement as a one-page PDF. The text is measured before it is written: should the lab's
 * own texts run long, the font shrinks until everything fits on the one page.
 */
export function statementPdf(items: StatementItem[], paper: Paper, caseId: string): Promise<Buffer> {
  const doc = pdfDocument({
    size: paper,
    margin: MARGIN,
    info: { Title: `${STATEMENT_TEXTS.title} ${caseId}`, Author: 'AlignerFlow' },
  });
  const chunks: Buffer[] = [];
  doc.on('data', (chunk: Buffer) => chunks.push(chunk));
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });
  const width = doc.page.width - 2 * MARGIN;
  // A little kept back: the measure and the writing round line heights differently.
  const room = (doc.page.height - 2 * MARGIN) * 0.97;
  let size = 11;
  while (size > 6 && height(doc, items, size, width) > room) size -= 0.5;
  doc
    .font('Helvetica-Bold')
    .fontSize(size + 5)
    .text(STATEMENT_TEXTS.title, { width });
  doc
    .font('Helvetica')
    .fontSize(size - 1)
    .text(STATEMENT_TEXTS.subtitle, { width });
  for (const item of items) {
    doc.moveDown(0.6);
    doc.font('Helvetica-Bold').fontSize(size).text(item.heading, { width });
    doc.font('Helvetica').fontSize(size);
    for (const line of item.lines) doc.text(line, { width });
  }
  doc.end();
  return done;
}

function height(doc: PDFKit.PDFDocument, items: StatementItem[], size: number, width: number): number {
  let total = doc
    .font('Helvetica-Bold')
    .fontSize(size + 5)
    .heightOfString(STATEMENT_TEXTS.title, { width });
  total += doc
    .font('Helvetica')
    .fontSize(size - 1)
    .heightOfString(STATEMENT_TEXTS.subtitle, { width });
  for (const item of items) {
    total += doc.currentLineHeight(true) * 0.6;
    total += doc.font('Helvetica-Bold').fontSize(size).heightOfString(item.heading, { width });
    doc.font('Helvetica').fontSize(size);
    for (const line of item.lines) total += doc.heightOfString(line, { width });
  }
  return total;
}
