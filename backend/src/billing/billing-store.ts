import { Injectable, type OnModuleDestroy } from '@nestjs/common';
import {
  BILLING_SETTINGS_STREAM,
  DEFAULT_BILLING_SETTINGS,
  documentNumber,
  doctorBillingStreamId,
  type AgingRow,
  type BillingSettings,
  type DoctorBillingDetails,
  type Invoice,
  type InvoiceEventData,
  type InvoiceStatus,
  type NumberKind,
} from '@alignerflow/domain';
import { DataSource, type QueryRunner } from 'typeorm';
import { CaseListCache, type ListVersion } from '../cases/case-list-cache.js';
import { EventStore, type RecordedEvent } from '../event-store/event-store.js';
import { LogListener } from '../event-store/log-listener.js';
import { InvoiceTexts } from './invoice-texts.js';

type Db = Pick<DataSource, 'query'> | QueryRunner;

export interface InvoiceFilter {
  /** Lower-case username; a Doctor's own always. */
  doctorKey?: string;
  status?: InvoiceStatus;
  /** YYYY-MM-DD, inclusive, on the issue date (UTC). */
  from?: string;
  to?: string;
  caseId?: string;
}

/** A stored invoice event as the domain's evolveInvoice reads it. */
export function toInvoiceEvent(recorded: RecordedEvent): InvoiceEventData {
  return { type: recorded.type, data: recorded.data } as InvoiceEventData;
}

/**
 * What a rewrite of invoice_view changes: a rebuild deletes and inserts every row in one
 * transaction (a new xmin), a command changes a row (announced anyway).
 */
const INVOICE_VIEW_SHAPE = `SELECT count(*) || '-' || coalesce(max(xmin::text::bigint), 0) AS shape FROM invoice_view`;

/** The SQL of billing: the number counters, invoice_view, and the settings streams. */
@Injectable()
export class BillingStore implements OnModuleDestroy {
  /** The JSON of each list asked for, kept until the next committed event (as GET /cases). */
  private readonly lists: CaseListCache;
  private readonly texts: InvoiceTexts;

  constructor(
    private readonly dataSource: DataSource,
    private readonly store: EventStore,
    log: LogListener,
  ) {
    this.lists = new CaseListCache(dataSource, log, INVOICE_VIEW_SHAPE);
    this.texts = new InvoiceTexts(dataSource);
  }

  onModuleDestroy(): void {
    this.lists.close();
  }

  /**
   * The next number of `kind` in `year`. Call inside the transaction that appends the numbered
   * event: the counter row stays locked until it commits (concurrent issuers queue, no duplicate)
   * and a rollback gives the number back (no gap).
   */
  async nextNumber(runner: QueryRunner, kind: NumberKind, year: number): Promise<string> {
    const [row]: { last: number }[] = await runner.query(
      `INSERT INTO billing_counters (kind, year, last) VALUES ($1, $2, 1)
       ON CONFLICT (kind, year) DO UPDATE SET last = billing_counters.last + 1
       RETURNING last`,
      [kind, year],
    );
    return documentNumber(kind, year, row.last);
  }

  /** A restore's numbers are kept: the counters move past the highest number it brings. */
  async raiseCounters(runner: QueryRunner, numbers: string[]): Promise<void> {
    const highest = new Map<string, { kind: string; year: number; last: number }>();
    for (const number of numbers) {
      const match = /^(INV|CN)-(\d{4})-(\d+)$/.exec(number);
      if (!match) continue;
      const key = `${match[1]}-${match[2]}`;
      const last = Number(match[3]);
      if ((highest.get(key)?.last ?? 0) < last)
        highest.set(key, { kind: match[1], year: Number(match[2]), last });
    }
    for (const { kind, year, last } of highest.values())
      await runner.query(
        `INSERT INTO billing_counters (kind, year, last) VALUES ($1, $2, $3)
         ON CONFLICT (kind, year) DO UPDATE SET last = greatest(billing_counters.last, excluded.last)`,
        [kind, year, last],
      );
  }

  /** The invoice's row; a restore may bring a case's invoice under another number, which replaces it. */
  async writeView(db: Db, invoice: Invoice, version: number): Promise<void> {
    await db.query(
      `WITH replaced AS (DELETE FROM invoice_view WHERE case_id = $2 AND number <> $1)
       INSERT INTO invoice_view (number, case_id, doctor_key, status, issued_at, due_at, balance, version, data)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9::jsonb)
       ON CONFLICT (number) DO UPDATE SET doctor_key = excluded.doctor_key, status = excluded.status,
         issued_at = excluded.issued_at, due_at = excluded.due_at, balance = excluded.balance,
         version = excluded.version, data = excluded.data
       WHERE invoice_view.version < excluded.version`,
      [
        invoice.number,
        invoice.caseId,
        invoice.doctorUsername.toLowerCase(),
        invoice.status,
        invoice.issuedAt,
        invoice.dueAt,
        invoice.balance,
        version,
        JSON.stringify(invoice),
      ],
    );
  }

  /** Newest first. */
  async list(filter: InvoiceFilter): Promise<Invoice[]> {
    const { where, params } = whereOf(filter);
    const rows: { data: Invoice }[] = await this.dataSource.query(
      `SELECT data FROM invoice_view ${where} ORDER BY issued_at DESC, number DESC`,
      params,
    );
    return rows.map((row) => row.data);
  }

  /**
   * GET /invoices as it is sent: its ETag, and its JSON built once per change of the log from the
   * invoices' stored texts, of which only the rows changed since the last read are read again
   * (invoice-texts.ts; the filter applies there, as whereOf does in SQL).
   */
  listVersion(filter: InvoiceFilter): Promise<ListVersion> {
    return this.lists.version(JSON.stringify(filter), () => this.texts.list(filter));
  }

  async byNumber(number: string): Promise<Invoice | undefined> {
    const [row]: { data: Invoice }[] = await this.dataSource.query(
      'SELECT data FROM invoice_view WHERE number = $1',
      [number],
    );
    return row?.data;
  }

  /**
   * Open balances by doctor and days past due, summed by PostgreSQL with the buckets of the
   * domain's agingBucket (days counted in UTC days, as daysPastDue does); test/billing.e2e.ts
   * checks the answer against the rule. The sums read only the row's columns; each doctor's name
   * and clinic come from their latest open invoice alone, through the (doctor_key, issued_at)
   * index, so no document of the other thousands is opened.
   */
  async aging(now: Date): Promise<AgingRow[]> {
    const rows: (Record<Exclude<keyof AgingRow, 'doctor' | 'clinicName'>, string> & {
      doctor: string;
      clinic: string;
    })[] = await this.dataSource.query(
      `WITH open AS (
         SELECT doctor_key, balance,
                floor(extract(epoch FROM $1::timestamptz) / 86400) - floor(extract(epoch FROM due_at) / 86400) AS days
           FROM invoice_view WHERE status = 'open' AND balance <> 0),
       sums AS (
         SELECT doctor_key,
                sum(balance) FILTER (WHERE days <= 0)::text AS current,
                sum(balance) FILTER (WHERE days BETWEEN 1 AND 30)::text AS "days1to30",
                sum(balance) FILTER (WHERE days BETWEEN 31 AND 60)::text AS "days31to60",
                sum(balance) FILTER (WHERE days BETWEEN 61 AND 90)::text AS "days61to90",
                sum(balance) FILTER (WHERE days > 90)::text AS "over90",
                sum(balance)::text AS total
           FROM open GROUP BY doctor_key)
       SELECT latest.doctor, latest.clinic, sums.*
         FROM sums, LATERAL (
           SELECT data->>'doctorUsername' AS doctor, data->>'clinicName' AS clinic FROM invoice_view v
            WHERE v.doctor_key = sums.doctor_key AND v.status = 'open' AND v.balance <> 0
            ORDER BY v.issued_at DESC, v.number DESC LIMIT 1) latest
        ORDER BY latest.doctor`,
      [now.toISOString()],
    );
    return rows.map((row) => ({
      doctor: row.doctor,
      clinicName: row.clinic,
      current: Number(row.current ?? 0),
      days1to30: Number(row.days1to30 ?? 0),
      days31to60: Number(row.days31to60 ?? 0),
      days61to90: Number(row.days61to90 ?? 0),
      over90: Number(row.over90 ?? 0),
      total: Number(row.total ?? 0),
    }));
  }

  /** The open invoices, for reminders. */
  async open(): Promise<Invoice[]> {
    const rows: { data: Invoice }[] = await this.dataSource.query(
      `SELECT data FROM invoice_view WHERE status = 'open' ORDER BY due_at`,
    );
    return rows.map((row) => row.data);
  }

  /** The lab's settings: the last BillingSettingsChanged, else the defaults. */
  async settings(db?: QueryRunner): Promise<BillingSettings & { version: number }> {
    const events = await this.store.readStream(BILLING_SETTINGS_STREAM, db);
    const last = events.at(-1);
    return {
      ...DEFAULT_BILLING_SETTINGS,
      ...(last?.data as BillingSettings | undefined),
      version: events.length,
    };
  }

  async doctorDetails(
    username: string,
    db?: QueryRunner,
  ): Promise<{ details: DoctorBillingDetails | null; version: number }> {
    const events = await this.store.readStream(doctorBillingStreamId(username), db);
    return {
      details: (events.at(-1)?.data as DoctorBillingDetails | undefined) ?? null,
      version: events.length,
    };
  }
}

function whereOf(filter: InvoiceFilter): { where: string; params: unknown[] } {
  const conditions: string[] = [];
  const params: unknown[] = [];
  const add = (sql: string, value: unknown) => {
    params.push(value);
    conditions.push(sql.replace('?', `$${params.length}`));
  };
  if (filter.doctorKey !== undefined) add('doctor_key = ?', filter.doctorKey);
  if (filter.status) add('status = ?', filter.status);
  if (filter.from) add(`issued_at >= (?::date)::timestamp AT TIME ZONE 'UTC'`, filter.from);
  if (filter.to) add(`issued_at < ((?::date) + 1)::timestamp AT TIME ZONE 'UTC'`, filter.to);
  if (filter.caseId) add('case_id = ?', filter.caseId);
  return { where: conditions.length ? `WHERE ${conditions.join(' AND ')}` : '', params };
}
