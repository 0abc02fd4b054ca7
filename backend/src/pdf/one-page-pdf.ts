import type { FastifyReply } from 'fastify';
import { pdfDocument } from './pdf-document.js';

/** The paper sizes a printed document comes in. */
export const PAGE_SIZES = ['A4', 'Letter'] as const;
export type PageSize = (typeof PAGE_SIZES)[number];

/** `?size=` of a PDF route: A4 unless Letter is asked for (any letter case). */
export function parsePageSize(value: unknown): PageSize {
  return typeof value === 'string' && value.toLowerCase() === 'letter' ? 'Letter' : 'A4';
}

export const FONTS = { regular: 'Helvetica', bold: 'Helvetica-Bold' } as const;
const MARGIN = 48;

export interface Column {
  /** Share of the usable width, 0–1. */
  width: number;
  align?: 'left' | 'right';
}

/**
 * A document that must fit on one page (invoices, statements, device statements): each block
 * asks for its height first and is measured with pdfkit's own text metrics, so nothing ever
 * flows onto a second page; a table shows the rows that fit and says how many more there are.
 */
export class OnePagePdf {
  readonly doc: PDFKit.PDFDocument;
  private readonly done: Promise<Buffer>;
  private pages = 1;

  constructor(size: PageSize, title: string) {
    this.doc = pdfDocument({ size, margin: MARGIN, info: { Title: title }, autoFirstPage: true });
    const chunks: Buffer[] = [];
    this.doc.on('data', (chunk: Buffer) => chunks.push(chunk));
    this.done = new Promise((resolve, reject) => {
      this.doc.on('end', () => resolve(Buffer.concat(chunks)));
      this.doc.on('error', reject);
    });
    this.doc.on('pageAdded', () => this.pages++);
    this.doc.font(FONTS.regular).fontSize(10);
  }

  get width(): number {
    return this.doc.page.width - 2 * MARGIN;
  }

  /** What is left above the bottom margin. */
  get room(): number {
    return this.doc.page.height - MARGIN - this.doc.y;
  }

  /** A paragraph, clipped to the room left (ellipsis) rather than flowing onto a new page. */
  text(value: string, options: { size?: number; bold?: boolean; align?: 'left' | 'right' } = {}): this {
    this.doc.font(options.bold ? FONTS.bold : FONTS.regular).fontSize(options.size ?? 10);
    const height = this.doc.heightOfString(value, { width: this.width });
    const fits = height <= this.room;
    this.doc.text(value, MARGIN, this.doc.y, {
      width: this.width,
      align: options.align ?? 'left',
      ...(fits ? {} : { height: Math.max(this.room, 0), ellipsis: true }),
    });
    return this;
  }

  gap(points = 8): this {
    this.doc.y = Math.min(this.doc.y + points, this.doc.page.height - MARGIN);
    return this;
  }

  /** Two blocks side by side (e.g. the lab's and the clinic's details). */
  columns(left: string[], right: string[]): this {
    const half = this.width / 2 - 8;
    const top = this.doc.y;
    this.doc.font(FONTS.regular).fontSize(10);
    this.doc.text(left.filter(Boolean).join('\n'), MARGIN, top, { width: half });
    const leftBottom = this.doc.y;
    this.doc.text(right.filter(Boolean).join('\n'), MARGIN + half + 16, top, { width: half });
    this.doc.y = Math.max(leftBottom, this.doc.y);
    this.doc.x = MARGIN;
    return this;
  }

  /** A table with a bold header; rows that would not fit are counted in a last line instead. */
  table(columns: Column[], header: string[], rows: string[][], reserve = 0): this {
    const rowHeight = 14;
    this.row(columns, header, true);
    const fitting = Math.max(0, Math.floor((this.room - reserve) / rowHeight));
    const shown = rows.length <= fitting ? rows : rows.slice(0, Math.max(0, fitting - 1));
    for (const row of shown) this.row(columns, row, false);
    if (shown.length < rows.length) this.text(`… and ${rows.length - shown.length} more`, { size: 9 });
    return this;
  }

  private row(columns: Column[], cells: string[], bold: boolean): void {
    const top = this.doc.y;
    let x = MARGIN;
    this.doc.font(bold ? FONTS.bold : FONTS.regular).fontSize(9);
    columns.forEach((column, index) => {
      const width = column.width * this.width;
      this.doc.text(cells[index] ?? '', x, top, {
        width: width - 4,
        align: column.align ?? 'left',
        lineBreak: false,
        ellipsis: true,
        height: 12,
      });
      x += width;
    });
    this.doc.x = MARGIN;
    this.doc.y = top + 14;
  }

  /** Ends the document: its bytes. Fails if anything flowed onto a second page. */
  async finish(): Promise<Buffer> {
    this.doc.end();
    const bytes = await this.done;
    if (this.pages !== 1) throw new Error(`A one-page document came out with ${this.pages} pages`);
    return bytes;
  }
}

/** A PDF answer, shown inline (the browser's viewer) and downloadable under `filename`. */
export function sendPdf(response: FastifyReply, filename: string, bytes: Buffer): void {
  response
    .status(200)
    .type('application/pdf')
    .header('Content-Disposition', `inline; filename="${filename}"`)
    .header('Cache-Control', 'no-store')
    .send(bytes);
}
