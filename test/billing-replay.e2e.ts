import type { Invoice } from '@alignerflow/domain';
import { DataSource } from 'typeorm';
import { EventStore } from '../backend/src/event-store/event-store';
import { ProjectionRebuilder } from '../backend/src/rebuild/projection-rebuilder';
import { billingSettled, invoicesOf } from './support/billing';
import { byUsername, caseAt } from './support/case-road';
import type { ApiClient } from './support/http';
import { startTestApp, type TestApp } from './support/test-app';

/** api.md "Billing": backup, restore and replay carry billing; a restore keeps the numbers. */
describe('billing through replay, backup and restore', () => {
  let lab: TestApp;
  let admin: ApiClient, rep: ApiClient;
  let road: Record<string, ApiClient>;
  const rows = async () =>
    lab.app
      .get(DataSource)
      .query(
        'SELECT number, case_id, doctor_key, status, issued_at, due_at, balance, version, data FROM invoice_view ORDER BY number',
      );

  beforeAll(async () => {
    lab = await startTestApp();
    const clients = await Promise.all(
      ['admin', 'rep', 'designer', 'tech', 'dr.lee'].map((name) => lab.login(name)),
    );
    [admin, rep] = clients;
    road = byUsername(...clients);
    // An invoice in every state: open, partly paid and credited, paid, void.
    const invoices: Invoice[] = [];
    for (const price of [100, 200, 300, 400]) {
      const item = await caseAt(road, 'Delivery to Doctor', { price });
      await billingSettled(lab.databaseUrl);
      invoices.push(...(await invoicesOf(admin, item.id)));
    }
    const [, partly, paid, voided] = invoices.map((invoice) => `/invoices/${invoice.number}`);
    expect((await rep.post(`${partly}/payments`, { amount: 5000, method: 'check' })).status).toBe(200);
    expect((await admin.post(`${partly}/credit-notes`, { amount: 1000, reason: 'Late' })).status).toBe(201);
    expect((await rep.post(`${paid}/payments`, { amount: 30000, method: 'card' })).status).toBe(200);
    expect((await admin.post(`${voided}/void`, { reason: 'Duplicate order' })).status).toBe(200);
  });
  afterAll(() => lab?.close());

  it('a replay gives identical billing read models, also after they were damaged', async () => {
    const before = await rows();
    expect(new Set(before.map((row: { status: string }) => row.status))).toEqual(
      new Set(['open', 'paid', 'void']),
    );
    const dataSource = lab.app.get(DataSource);
    await dataSource.query('DELETE FROM invoice_view WHERE number = $1', [before[0].number]);
    await dataSource.query(`UPDATE invoice_view SET balance = 1, status = 'open' WHERE number = $1`, [
      before[1].number,
    ]);
    await new ProjectionRebuilder(dataSource, lab.app.get(EventStore)).run();
    expect(await rows()).toEqual(before);
  });

  it('a restore brings the invoices back with their numbers and issues none again', async () => {
    const backup = await admin.get('/backup');
    expect(backup.status).toBe(200);
    const before: Invoice[] = (await admin.get('/invoices')).body;
    expect(backup.body.billing.invoices).toHaveLength(before.length);
    // The lab moves on after the backup: a payment and a new invoice the backup does not have.
    const [open] = before.filter((invoice) => invoice.status === 'open');
    expect((await rep.post(`/invoices/${open.number}/payments`, { amount: 1, method: 'cash' })).status).toBe(
      200,
    );
    const later = await caseAt(road, 'Delivery to Doctor', { price: 50 });
    await billingSettled(lab.databaseUrl);
    const [laterInvoice] = await invoicesOf(admin, later.id);

    expect((await admin.post('/restore', backup.body)).status).toBe(200);
    await billingSettled(lab.databaseUrl);
    const after: Invoice[] = (await admin.get('/invoices')).body;
    const restored = after.filter((invoice) => invoice.caseId !== later.id);
    expect(restored.map(({ number, balance, status }) => ({ number, balance, status }))).toEqual(
      before.map(({ number, balance, status }) => ({ number, balance, status })),
    );
    // The next number follows every number ever given, the one after the backup included.
    const next = await caseAt(road, 'Delivery to Doctor', { price: 60 });
    await billingSettled(lab.databaseUrl);
    const [nextInvoice] = await invoicesOf(admin, next.id);
    const sequence = (number: string) => Number(number.split('-')[2]);
    expect(sequence(nextInvoice.number)).toBe(sequence(laterInvoice.number) + 1);
    // A restore is replayed like everything else.
    const snapshot = await rows();
    await new ProjectionRebuilder(lab.app.get(DataSource), lab.app.get(EventStore)).run();
    expect(await rows()).toEqual(snapshot);
  });

  it('refuses a backup whose billing is malformed, and changes nothing', async () => {
    const backup = (await admin.get('/backup')).body;
    const before = await rows();
    const broken = { ...backup, billing: { invoices: [{ ...backup.billing.invoices[0], number: 'X-1' }] } };
    expect(await admin.post('/restore', broken)).toMatchObject({
      status: 400,
      body: { error: 'Invalid invoice at index 0.' },
    });
    expect(await rows()).toEqual(before);
  });
});
