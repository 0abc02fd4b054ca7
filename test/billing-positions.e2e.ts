import { Client } from 'pg';
import { DataSource } from 'typeorm';
import { BillingStore, type InvoiceFilter } from '../backend/src/billing/billing-store';
import { InvoiceTexts } from '../backend/src/billing/invoice-texts';
import { startTestApp, type TestApp } from './support/test-app';

/** A row as invoice_view holds it; the list answers `data` as stored. */
function row(number: string, issuedAt: string, doctor: string, status: string) {
  const data = { number, caseId: `case-${number}`, doctorUsername: doctor, status, issuedAt };
  return [number, data.caseId, doctor, status, issuedAt, issuedAt, 100, 1, JSON.stringify(data)];
}

const INSERT = `INSERT INTO invoice_view (number, case_id, doctor_key, status, issued_at, due_at, balance, version, data)
  VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9::jsonb)`;

const numbersOf = (json: Buffer) =>
  (JSON.parse(json.toString()) as { number: string }[]).map((i) => i.number);

/**
 * GET /invoices reads only the invoice_view rows changed since its last read (invoice-texts.ts,
 * migration 044). Positions come from a sequence and may commit out of order: a row written by a
 * transaction still open at one read, under a position lower than rows seen then, must be in a
 * later read once committed.
 */
describe('the invoice list read by change position', () => {
  let lab: TestApp;
  let dataSource: DataSource;
  const clients: Client[] = [];
  const connect = async () => {
    const client = new Client({ connectionString: lab.databaseUrl });
    await client.connect();
    clients.push(client);
    return client;
  };

  beforeAll(async () => {
    lab = await startTestApp();
    dataSource = lab.app.get(DataSource);
  });
  afterAll(async () => {
    for (const client of clients) await client.end();
    await lab?.close();
  });

  it('sees a row committed after rows with higher positions', async () => {
    const texts = new InvoiceTexts(dataSource);
    const first = numbersOf(await texts.list());
    const slow = await connect();
    const quick = await connect();
    await slow.query('BEGIN');
    await slow.query(INSERT, row('INV-2031-00001', '2031-01-02T10:00:00.000Z', 'dr.a', 'open'));
    const [{ slowAt }] = (
      await slow.query(
        `SELECT changed_at_position::text AS "slowAt" FROM invoice_view_changes WHERE number = 'INV-2031-00001'`,
      )
    ).rows;
    await quick.query(INSERT, row('INV-2031-00002', '2031-01-01T10:00:00.000Z', 'dr.b', 'paid'));
    const [{ quickAt }] = await dataSource.query(
      `SELECT changed_at_position::text AS "quickAt" FROM invoice_view_changes WHERE number = 'INV-2031-00002'`,
    );
    expect(BigInt(quickAt)).toBeGreaterThan(BigInt(slowAt));

    expect(numbersOf(await texts.list())).toEqual(['INV-2031-00002', ...first]);
    // Read twice while the writer is open: the second read must not move past its position either.
    expect(numbersOf(await texts.list())).toEqual(['INV-2031-00002', ...first]);
    await slow.query('COMMIT');
    expect(numbersOf(await texts.list())).toEqual(['INV-2031-00001', 'INV-2031-00002', ...first]);
  });

  it('answers what the SQL filter selects, after updates and removals', async () => {
    const texts = new InvoiceTexts(dataSource);
    const store = lab.app.get(BillingStore);
    await texts.list();
    const writer = await connect();
    for (const [number, at, doctor, status] of [
      ['INV-2032-00001', '2032-03-01T00:00:00.000Z', 'dr.a', 'open'],
      ['INV-2032-00002', '2032-03-01T23:59:59.999Z', 'dr.b', 'open'],
      ['INV-2032-00003', '2032-03-02T00:00:00.000Z', 'dr.a', 'paid'],
      // Issued at one moment: the higher number first.
      ['INV-2032-00004', '2032-03-02T00:00:00.000Z', 'dr.a', 'void'],
    ])
      await writer.query(INSERT, row(number, at, doctor, status));
    await texts.list();
    await writer.query(`UPDATE invoice_view SET status = 'paid' WHERE number = 'INV-2032-00001'`);
    await writer.query(`DELETE FROM invoice_view WHERE number = 'INV-2031-00002'`);
    const filters: InvoiceFilter[] = [
      {},
      { doctorKey: 'dr.a' },
      { doctorKey: '' },
      { status: 'paid' },
      { from: '2032-03-01', to: '2032-03-01' },
      { from: '2032-03-02' },
      { to: '2032-03-01', doctorKey: 'dr.b', status: 'open' },
      { caseId: 'case-INV-2032-00003' },
    ];
    for (const filter of filters)
      expect(JSON.parse((await texts.list(filter)).toString())).toEqual(await store.list(filter));
    expect(numbersOf(await texts.list())).not.toContain('INV-2031-00002');
    expect(numbersOf(await texts.list({ status: 'paid' }))).toContain('INV-2032-00001');
  });

  it('answers the same bytes while nothing changed', async () => {
    const texts = new InvoiceTexts(dataSource);
    const before = await texts.list();
    expect(await texts.list()).toBe(before);
    await dataSource.query(`UPDATE invoice_view SET balance = balance WHERE number = 'INV-2032-00003'`);
    const after = await texts.list();
    expect(after).not.toBe(before);
    expect(after.equals(before)).toBe(true);
  });
});
