import type { InvoiceStatus } from '@alignerflow/domain';
import type { DataSource, QueryRunner } from 'typeorm';

/** What a list selects (billing-store.ts InvoiceFilter), applied here to the cached rows. */
export interface TextFilter {
  doctorKey?: string;
  status?: InvoiceStatus;
  /** YYYY-MM-DD, inclusive, on the issue date (UTC). */
  from?: string;
  to?: string;
  caseId?: string;
}

/** One invoice as this process holds it: the columns a filter and the order read, and its text. */
interface Entry {
  number: string;
  /** The issue time in UTC, fixed width ("YYYY-MM-DDTHH:MI:SS.US"), a space and the number. */
  order: string;
  doctorKey: string;
  status: string;
  caseId: string;
  position: string;
  json: Buffer;
}

interface ChangedRow {
  number: string;
  position: string;
  issued: string | null;
  doctor_key: string | null;
  status: string | null;
  case_id: string | null;
  doc: string | null;
}

const OPEN = Buffer.from('[');
const COMMA = Buffer.from(',');
const CLOSE = Buffer.from(']');
/** More changes than this at once (a first read, a rebuild): sort everything rather than insert each. */
const RESORT_OVER = 64;
const MAX_SCOPES = 64;
const MAX_NOTES = 32;

/** Newest first, then the higher number: the order of invoice_view_issued. */
function before(a: string, b: string): boolean {
  return a > b;
}

/**
 * GET /invoices answers every invoice of the lab as it is stored: megabytes whose rows change a
 * few at a time. This process keeps every invoice_view row (its text, and the columns a filter
 * reads) in the list's order, and each read first asks the database what changed since the
 * position it last saw (migration 044: every write of a row, a removal included, gives its number
 * a new change position from one sequence in invoice_view_changes), through an index. No
 * change: the list built last time is answered as it is, the same bytes. Every read still goes to
 * the database, so a change written by another API process is seen once it is committed.
 *
 * Positions are drawn before their transaction commits, so a row may become visible after rows
 * with higher positions. Re-reading a fixed window of recent positions would miss a writer that
 * stays open longer than the window; instead each read first notes the last position drawn and
 * then a transaction id assigned after it (invoice_view_horizon), and the position this process
 * may skip up to only moves to such a note once a snapshot's xmin has passed the note's id: every
 * transaction that could hold a position up to it has ended, so that snapshot saw all of them.
 * Until then the rows above the previous point are read again (a handful: the writes since the
 * oldest transaction still running). test/billing-positions.e2e.ts holds a writer open across
 * reads to check it.
 */
export class InvoiceTexts {
  private readonly entries = new Map<string, Entry>();
  /** The entries in the list's order. */
  private ordered: Entry[] = [];
  /** Every row with a position up to this is in `entries` as it will stay (until rewritten). */
  private settled = '0';
  private notes: { drawn: string; bound: bigint }[] = [];
  /** Moves whenever a read changed `entries`: a scope's body built at the same count is current. */
  private changes = 0;
  private readonly bodies = new Map<string, { changes: number; json: Buffer }>();
  private refreshing: Promise<void> = Promise.resolve();

  constructor(private readonly dataSource: DataSource) {}

  /** The JSON array of the invoices `filter` selects, newest first. */
  async list(filter: TextFilter = {}): Promise<Buffer> {
    // One refresh at a time: each starts from the state the previous one left.
    const refreshed = this.refreshing.then(() => this.refresh());
    this.refreshing = refreshed.catch(() => undefined);
    await refreshed;
    const scope = JSON.stringify(filter);
    const cached = this.bodies.get(scope);
    if (cached?.changes === this.changes) return cached.json;
    const json = this.join(filter);
    this.bodies.delete(scope);
    if (this.bodies.size >= MAX_SCOPES) this.bodies.delete(this.bodies.keys().next().value!);
    this.bodies.set(scope, { changes: this.changes, json });
    return json;
  }

  private async refresh(): Promise<void> {
    const runner = this.dataSource.createQueryRunner();
    await runner.connect();
    try {
      const [note]: { drawn: string; bound: string }[] = await runner.query(
        'SELECT drawn::text, bound FROM invoice_view_horizon()',
      );
      await runner.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
      try {
        await this.read(runner, { drawn: note.drawn, bound: BigInt(note.bound) });
      } finally {
        await runner.query('COMMIT');
      }
    } finally {
      await runner.release();
    }
  }

  /** Inside one snapshot: its xmin first (the statement that takes it), then the rows changed. */
  private async read(runner: QueryRunner, note: { drawn: string; bound: bigint }): Promise<void> {
    const [{ xmin }]: { xmin: string }[] = await runner.query(
      'SELECT pg_snapshot_xmin(pg_current_snapshot())::text AS xmin',
    );
    const since = this.settled;
    const rows: ChangedRow[] = await runner.query(
      `SELECT c.number, c.changed_at_position::text AS position,
              to_char(v.issued_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US') AS issued,
              v.doctor_key, v.status, v.case_id, v.doc
         FROM invoice_view_changes c LEFT JOIN invoice_view v ON v.number = c.number
        WHERE c.changed_at_position > $1`,
      [since],
    );
    this.apply(rows);
    // The notes whose transactions have all ended by this snapshot: it saw every position up to them.
    // A transaction left open for long keeps every note pending: the older ones settle first,
    // so past the cap the newest replaces the last rather than piling up.
    if (this.notes.length >= MAX_NOTES) this.notes[this.notes.length - 1] = note;
    else this.notes.push(note);
    const passed = BigInt(xmin);
    for (const { drawn, bound } of this.notes)
      if (bound <= passed && BigInt(drawn) > BigInt(this.settled)) this.settled = drawn;
    this.notes = this.notes.filter(({ bound }) => bound > passed);
  }

  private apply(rows: ChangedRow[]): void {
    // A number without a row in this snapshot was removed.
    const present = rows.filter((row) => row.doc !== null);
    const removed = rows.filter((row) => row.doc === null).map((row) => row.number);
    const moved = new Set<string>();
    const added: Entry[] = [];
    for (const number of removed) if (this.entries.delete(number)) moved.add(number);
    for (const row of present) {
      const old = this.entries.get(row.number);
      if (old?.position === row.position) continue; // read again before its note settled
      const entry: Entry = {
        number: row.number,
        order: `${row.issued} ${row.number}`,
        doctorKey: row.doctor_key!,
        status: row.status!,
        caseId: row.case_id!,
        position: row.position,
        json: Buffer.from(row.doc!),
      };
      this.entries.set(row.number, entry);
      if (old) moved.add(row.number);
      added.push(entry);
    }
    if (!moved.size && !added.length) return;
    this.changes++;
    const kept = moved.size ? this.ordered.filter((entry) => !moved.has(entry.number)) : this.ordered;
    if (added.length > RESORT_OVER) {
      kept.push(...added);
      this.ordered = kept.sort((a, b) => (before(a.order, b.order) ? -1 : a.order === b.order ? 0 : 1));
      return;
    }
    this.ordered = kept;
    for (const entry of added) {
      let low = 0;
      let high = this.ordered.length;
      while (low < high) {
        const middle = (low + high) >>> 1;
        if (before(this.ordered[middle].order, entry.order)) low = middle + 1;
        else high = middle;
      }
      this.ordered.splice(low, 0, entry);
    }
  }

  /**
   * The selected texts joined into one buffer. Writing them to the socket as separate chunks
   * instead was measured (docs/performance.md › Billing) and did not pay.
   */
  private join(filter: TextFilter): Buffer {
    const { doctorKey, status, from, to, caseId } = filter;
    const parts: Buffer[] = [OPEN];
    for (const entry of this.ordered) {
      if (doctorKey !== undefined && entry.doctorKey !== doctorKey) continue;
      if (status && entry.status !== status) continue;
      if (caseId && entry.caseId !== caseId) continue;
      // The UTC issue date (the order's first ten characters), inclusive at both ends.
      if (from && entry.order.slice(0, 10) < from) continue;
      if (to && entry.order.slice(0, 10) > to) continue;
      if (parts.length > 1) parts.push(COMMA);
      parts.push(entry.json);
    }
    parts.push(CLOSE);
    return Buffer.concat(parts);
  }
}
