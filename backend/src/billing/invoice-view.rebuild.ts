import { foldInvoice, INVOICE_STREAM_PREFIX, type Invoice } from '@alignerflow/domain';
import type { DataSource } from 'typeorm';
import { EventStore, withTransaction, type RecordedEvent } from '../event-store/event-store.js';
import { toInvoiceEvent } from './billing-store.js';

const STREAMS_PER_READ = 2000;
const ROWS_PER_WRITE = 2000;

/**
 * invoice_view from the log alone, for the replay (`npm run replay`, the admin rebuild): every
 * invoice stream folded by the domain's evolveInvoice, written in one transaction that holds the
 * table against invoice commands meanwhile (they write their row with their events, so none is
 * lost: a command waiting on the lock writes its newer row after). Answers the invoices written.
 */
export async function rebuildInvoiceView(dataSource: DataSource, store: EventStore): Promise<number> {
  return withTransaction(dataSource, async (runner) => {
    await runner.query('LOCK TABLE invoice_view IN EXCLUSIVE MODE');
    const streams: { stream_id: string }[] = await runner.query(
      `SELECT DISTINCT stream_id FROM events WHERE stream_id LIKE $1`,
      [`${INVOICE_STREAM_PREFIX}%`],
    );
    const folded: { invoice: Invoice; version: number }[] = [];
    for (let start = 0; start < streams.length; start += STREAMS_PER_READ) {
      const chunk = streams.slice(start, start + STREAMS_PER_READ);
      const events = await store.readStreamsAfter(
        chunk.map((row) => ({ streamId: row.stream_id, version: 0 })),
        runner,
      );
      const byStream = new Map<string, RecordedEvent[]>();
      for (const event of events)
        byStream.set(event.streamId, [...(byStream.get(event.streamId) ?? []), event]);
      for (const stream of byStream.values()) {
        const invoice = foldInvoice(stream.map(toInvoiceEvent));
        if (invoice) folded.push({ invoice, version: stream.length });
      }
    }
    await runner.query('DELETE FROM invoice_view');
    for (let start = 0; start < folded.length; start += ROWS_PER_WRITE) {
      const rows = folded.slice(start, start + ROWS_PER_WRITE);
      await runner.query(
        `INSERT INTO invoice_view (number, case_id, doctor_key, status, issued_at, due_at, balance, version, data)
         SELECT r.data->>'number', r.data->>'caseId', lower(r.data->>'doctorUsername'), r.data->>'status',
                (r.data->>'issuedAt')::timestamptz, (r.data->>'dueAt')::timestamptz,
                (r.data->>'balance')::bigint, r.version, r.data
           FROM jsonb_to_recordset($1::jsonb) AS r(data jsonb, version int)`,
        [JSON.stringify(rows.map(({ invoice, version }) => ({ data: invoice, version })))],
      );
    }
    return folded.length;
  });
}
