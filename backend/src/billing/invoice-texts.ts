import type { DataSource } from 'typeorm';

/**
 * A row's stamp: its xmin moves with every write of the row (a command, a rebuild re-inserting
 * it, a restore replacing it), so an equal stamp means the same text; the version guards against
 * a transaction id reused after wraparound. Digits and a dot: no space in it. A row's key is its
 * stamp, a space and its number.
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
  /** Each invoice's text as UTF-8, by the key of the row it was read from. */
  private readonly texts = new Map<string, Buffer>();
  /** The key each number's text is cached under. */
  private readonly keyOf = new Map<string, string>();

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
        const listed = keys ? keys.split('\n') : [];
        // Taken now: a read of another list meanwhile may replace a text this one still lists.
        const found = listed.map((key) => this.texts.get(key));
        const stale = listed
          .filter((_, index) => !found[index])
          .map((key) => key.slice(key.indexOf(' ') + 1));
        if (stale.length) {
          const fresh: { key: string; number: string; doc: string }[] = await runner.query(
            `SELECT ${STAMP} || ' ' || number AS key, number, doc FROM invoice_view WHERE number = ANY($1)`,
            [stale],
          );
          const read = new Map<string, Buffer>();
          for (const { key, number, doc } of fresh) {
            const json = Buffer.from(doc);
            read.set(key, json);
            const old = this.keyOf.get(number);
            if (old !== undefined) this.texts.delete(old);
            this.keyOf.set(number, key);
            this.texts.set(key, json);
          }
          for (const [index, key] of listed.entries()) found[index] ??= read.get(key);
        }
        // The whole list names every invoice there is: forget the others (deleted or renumbered).
        if (!where && this.texts.size > listed.length) {
          const current = new Set(listed);
          for (const [number, key] of this.keyOf)
            if (!current.has(key)) {
              this.keyOf.delete(number);
              this.texts.delete(key);
            }
        }
        const parts: Buffer[] = [OPEN];
        for (const json of found) {
          if (parts.length > 1) parts.push(COMMA);
          parts.push(json!);
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
