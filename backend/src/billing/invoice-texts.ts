import type { DataSource } from 'typeorm';

/** The stored text of one invoice, as UTF-8, and the stamp of the row it was read from. */
interface CachedText {
  stamp: string;
  json: Buffer;
}

/**
 * A row's stamp: its xmin moves with every write of the row (a command, a rebuild re-inserting
 * it, a restore replacing it), so an equal stamp means the same text; the version guards against
 * a transaction id reused after wraparound. Digits and a dot: no space in it.
 */
const STAMP = `xmin::text || '.' || version`;
const OPEN = Buffer.from('[');
const COMMA = Buffer.from(',');
const CLOSE = Buffer.from(']');

/**
 * GET /invoices answers every invoice of the lab as it is stored: megabytes whose rows change a
 * few at a time. This process keeps each invoice's stored text (invoice_view.doc) by number, and a
 * list is read as its numbers and row stamps in the list's order (one text, ordered by the
 * aggregate's own ORDER BY: newest first, then the higher number), the texts of the rows whose
 * stamp this process has not seen, and the cached texts joined in that order. Every read goes to
 * the database, so a change written by another API process is seen once it is committed. Both
 * queries run in one read-only snapshot: a row rewritten or deleted between them cannot leave
 * the list with a text missing or older than its stamp.
 */
export class InvoiceTexts {
  private readonly texts = new Map<string, CachedText>();

  constructor(private readonly dataSource: DataSource) {}

  /** The JSON array of the rows `where` selects, newest first. */
  async list(where: string, params: unknown[]): Promise<Buffer> {
    const runner = this.dataSource.createQueryRunner();
    await runner.connect();
    try {
      await runner.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
      try {
        // Numbers are INV-YYYY-NNNNN (a restore checks them): no line break in one.
        const [{ keys }]: { keys: string | null }[] = await runner.query(
          `SELECT string_agg(${STAMP} || ' ' || number, E'\\n' ORDER BY issued_at DESC, number DESC) AS keys
             FROM invoice_view ${where}`,
          params,
        );
        const rows = (keys ? keys.split('\n') : []).map((key) => {
          const space = key.indexOf(' ');
          return { stamp: key.slice(0, space), number: key.slice(space + 1) };
        });
        const stale = rows.filter((row) => this.texts.get(row.number)?.stamp !== row.stamp);
        if (stale.length) {
          const fresh: { number: string; stamp: string; doc: string }[] = await runner.query(
            `SELECT number, ${STAMP} AS stamp, doc FROM invoice_view WHERE number = ANY($1)`,
            [stale.map((row) => row.number)],
          );
          for (const { number, stamp, doc } of fresh)
            this.texts.set(number, { stamp, json: Buffer.from(doc) });
        }
        // The whole list names every invoice there is: forget the others (deleted or renumbered).
        if (!where && this.texts.size > rows.length) {
          const listed = new Set(rows.map((row) => row.number));
          for (const number of this.texts.keys()) if (!listed.has(number)) this.texts.delete(number);
        }
        const parts: Buffer[] = [OPEN];
        for (const [index, row] of rows.entries()) {
          if (index) parts.push(COMMA);
          parts.push(this.texts.get(row.number)!.json);
        }
        parts.push(CLOSE);
        return Buffer.concat(parts);
      } finally {
        await runner.query('COMMIT');
      }
    } finally {
      await runner.release();
    }
  }
}
