import { agingOf, BILLING_TEXTS, type Invoice } from '@alignerflow/domain';
import { BillingClock } from '../backend/src/billing/billing-clock';
import { caseAt, walkCase } from './support/case-road';
import { billingSettled, invoicesOf, newestFirst } from './support/billing';
import { useDemoUsers } from './support/demo-users';
import { sql } from './support/helpers';

/** api.md "Billing" over HTTP on a real PostgreSQL: issuing, payments, credits, voids, reads. */
describe('billing', () => {
  const users = useDemoUsers();
  const { admin, rep, designer, tech, drLee, drPatel } = users;
  const settle = () => billingSettled(users.lab.databaseUrl);

  /** A case of dr.lee priced `price`, walked to Delivery to Doctor, and its invoice once issued. */
  async function shipped(
    price: number | null,
    patientName = 'Jane Doe',
  ): Promise<{ id: string; invoices: Invoice[] }> {
    const item = await caseAt(users.byUsername, 'Delivery to Doctor', { price, patientName });
    await settle();
    return { id: item.id, invoices: await invoicesOf(admin, item.id) };
  }

  it('issues one invoice when a priced case enters Delivery to Doctor, in exact minor units', async () => {
    const { id, invoices } = await shipped(1100.5, 'Mary Ann Smith');
    expect(invoices).toHaveLength(1);
    const [invoice] = invoices;
    expect(invoice).toMatchObject({
      caseId: id,
      doctorUsername: 'dr.lee',
      patientInitials: 'M.A.S.',
      currency: 'USD',
      lines: [{ quantity: 1, unitAmount: 110050, amount: 110050, taxRate: 0 }],
      subtotal: 110050,
      total: 110050,
      balance: 110050,
      status: 'open',
    });
    expect(invoice.number).toMatch(new RegExp(`^INV-${new Date(invoice.issuedAt).getUTCFullYear()}-\\d{5}$`));
    // Shipping on to Completed, and the follower reading the log again, issue nothing more.
    const done = await rep.post(`/cases/${id}/advance`, { fromStatus: 'Delivery to Doctor' });
    expect(done).toMatchObject({ status: 200, body: { status: 'Completed' } });
    await settle();
    expect(await invoicesOf(admin, id)).toHaveLength(1);
  });

  it('issues none for a price of 0 or none, nor for a remake for a lab error', async () => {
    expect((await shipped(0)).invoices).toHaveLength(0);
    expect((await shipped(null)).invoices).toHaveLength(0);
    const original = await caseAt(users.byUsername, 'Completed', { price: 900 });
    const remake = await drLee.post(`/cases/${original.id}/reorders`, {
      kind: 'remake',
      reasonCode: 'lab_error',
      reason: 'Trimmed too short',
    });
    expect(remake.status).toBe(201);
    expect((await admin.put(`/cases/${remake.body.id}/pricing`, { price: 900 })).status).toBe(200);
    await walkCase(users.byUsername, remake.body.id, 'Delivery to Doctor');
    await settle();
    expect(await invoicesOf(admin, remake.body.id)).toHaveLength(0);
    expect(await invoicesOf(admin, original.id)).toHaveLength(1);
  });

  it('numbers invoices consecutively with no gap and no duplicate', async () => {
    const all: Invoice[] = (await admin.get('/invoices')).body;
    const byYear = new Map<string, number[]>();
    for (const { number } of all) {
      const [, year, sequence] = number.split('-');
      byYear.set(year, [...(byYear.get(year) ?? []), Number(sequence)]);
    }
    for (const sequences of byYear.values())
      expect(sequences.sort((a, b) => a - b)).toEqual(sequences.map((_, index) => index + 1));
  });

  describe('payments, credit notes and voids', () => {
    let invoice: Invoice;
    beforeAll(async () => {
      invoice = (await shipped(1000)).invoices[0];
    });
    const path = (suffix = '') => `/invoices/${invoice.number}${suffix}`;

    it('who may: Manager and Representative pay; others 403; another doctor 404', async () => {
      for (const client of [designer, tech, drLee])
        expect(await client.post(path('/payments'), { amount: 100, method: 'card' })).toMatchObject({
          status: 403,
        });
      expect(await drPatel.post(path('/payments'), { amount: 100, method: 'card' })).toMatchObject({
        status: 404,
        body: { error: BILLING_TEXTS.notFound },
      });
      expect((await drPatel.get(path())).status).toBe(404);
      expect((await drLee.get(path())).status).toBe(200);
    });

    it('refuses an amount below 1 or above the balance, and loses nothing', async () => {
      for (const amount of [0, -1, 100001, 12.5, 'x'])
        expect(await rep.post(path('/payments'), { amount, method: 'bank' })).toMatchObject({
          status: 400,
          body: { error: 'The amount must be between 0.01 and the balance.' },
        });
      expect((await admin.get(path())).body).toMatchObject({ paid: 0, balance: 100000 });
    });

    it('records a payment, a credit note (Manager, CN number), then paid at balance 0', async () => {
      const paid = await rep.post(path('/payments'), {
        amount: 60000,
        method: 'bank',
        reference: 'TX-1',
        receivedAt: '2026-03-03',
      });
      expect(paid).toMatchObject({ status: 200, body: { paid: 60000, balance: 40000, status: 'open' } });
      expect(paid.body.payments[0]).toMatchObject({
        amount: 60000,
        method: 'bank',
        reference: 'TX-1',
        recordedBy: 'rep',
      });
      expect((await rep.post(path('/credit-notes'), { amount: 100, reason: 'Goodwill' })).status).toBe(403);
      expect(await admin.post(path('/credit-notes'), { amount: 40001, reason: 'Goodwill' })).toMatchObject({
        status: 400,
        body: { error: 'The amount must be between 0.01 and the balance.' },
      });
      const credit = await admin.post(path('/credit-notes'), { amount: 10000, reason: 'Goodwill' });
      expect(credit.status).toBe(201);
      expect(credit.body.number).toMatch(/^CN-\d{4}-\d{5}$/);
      expect(credit.body).toMatchObject({ amount: 10000, reason: 'Goodwill' });
      expect(await admin.post(path('/void'), { reason: 'Wrong doctor' })).toMatchObject({
        status: 409,
        body: { error: 'Only an invoice without payments or credits can be voided.' },
      });
      const rest = await admin.post(path('/payments'), { amount: 30000, method: 'card' });
      expect(rest).toMatchObject({
        status: 200,
        body: { balance: 0, status: 'paid', credited: 10000, paid: 90000 },
      });
    });

    it('voids an untouched invoice, which keeps its number', async () => {
      const { invoices } = await shipped(500);
      const number = invoices[0].number;
      expect((await rep.post(`/invoices/${number}/void`, { reason: 'Sent twice' })).status).toBe(403);
      expect(await admin.post(`/invoices/${number}/void`, {})).toMatchObject({ status: 400 });
      expect(await admin.post(`/invoices/${number}/void`, { reason: 'Sent twice' })).toMatchObject({
        status: 200,
        body: { number, status: 'void', voidReason: 'Sent twice' },
      });
      expect(await rep.post(`/invoices/${number}/payments`, { amount: 1, method: 'cash' })).toMatchObject({
        status: 409,
      });
    });
  });

  it('a Doctor lists only their own invoices; Designers and Technicians none', async () => {
    await shipped(700);
    const own: Invoice[] = (await drLee.get('/invoices')).body;
    expect(own.length).toBeGreaterThan(0);
    expect(own.every((invoice) => invoice.doctorUsername === 'dr.lee')).toBe(true);
    expect((await drLee.get('/invoices?doctor=dr.patel')).body).toEqual([]);
    expect(
      (await drPatel.get('/invoices')).body.every(
        (invoice: Invoice) => invoice.doctorUsername === 'dr.patel',
      ),
    ).toBe(true);
    expect((await designer.get('/invoices')).status).toBe(403);
    expect((await tech.get('/invoices')).status).toBe(403);
    const open: Invoice[] = (await rep.get('/invoices?status=open&doctor=dr.lee')).body;
    expect(open.every((invoice) => invoice.status === 'open' && invoice.doctorUsername === 'dr.lee')).toBe(
      true,
    );
    const issued = open.map((invoice) => invoice.issuedAt);
    expect(issued).toEqual([...issued].sort().reverse());
    expect((await rep.get('/invoices?status=late')).status).toBe(400);
    expect((await rep.get('/invoices?from=yesterday')).status).toBe(400);
  });

  it('answers 304 to If-None-Match until an invoice changes, and never a list older than a change', async () => {
    const { invoices } = await shipped(300);
    const [invoice] = invoices;
    const first = await admin.get('/invoices');
    const tag = first.headers.get('etag')!;
    expect(tag).toBeTruthy();
    expect(await admin.get('/invoices', { 'if-none-match': tag })).toMatchObject({ status: 304 });
    // Another filter, or another doctor's scope, is another list with its own tag.
    const doctors = await Promise.all([drLee.get('/invoices'), drPatel.get('/invoices')]);
    expect(new Set([tag, ...doctors.map((answer) => answer.headers.get('etag'))]).size).toBe(3);

    expect(
      (await rep.post(`/invoices/${invoice.number}/payments`, { amount: 100, method: 'cash' })).status,
    ).toBe(200);
    const after = await admin.get('/invoices', { 'if-none-match': tag });
    expect(after.status).toBe(200);
    expect(after.headers.get('etag')).not.toBe(tag);
    expect(after.body.find((item: Invoice) => item.number === invoice.number).balance).toBe(30_000 - 100);
    expect(after.body).toHaveLength(first.body.length);
    const leeAfter: Invoice[] = (await drLee.get('/invoices')).body;
    expect(leeAfter.find((item) => item.number === invoice.number)!.balance).toBe(30_000 - 100);
  });

  it('lists newest first, the higher number first among invoices of one moment, also after a change', async () => {
    const [older] = (await shipped(100)).invoices;
    const numbers: string[] = [];
    for (const price of [110, 120, 130]) numbers.push((await shipped(price)).invoices[0].number);
    // One group commit can ship several cases: their invoices are issued at the same moment.
    const moment = new Date().toISOString();
    await sql(
      users.lab.databaseUrl,
      `UPDATE invoice_view SET issued_at = $1, data = jsonb_set(data, '{issuedAt}', to_jsonb($2::text))
        WHERE number = ANY($3)`,
      [moment, moment, numbers],
    );
    // A change the lists are read again after: a payment on an older invoice, which stays in place.
    expect(
      (await rep.post(`/invoices/${older.number}/payments`, { amount: 500, method: 'card' })).status,
    ).toBe(200);
    for (const [client, path] of [
      [admin, '/invoices'],
      [rep, '/invoices?doctor=dr.lee&status=open'],
      [drLee, '/invoices'],
    ] as const) {
      const listed: Invoice[] = (await client.get(path)).body;
      expect(listed.map((item) => item.number)).toEqual(
        [...listed].sort(newestFirst).map((item) => item.number),
      );
      expect(listed.slice(0, 4).map((item) => item.number)).toEqual(
        [...numbers].reverse().concat(older.number),
      );
      expect(listed[1].issuedAt).toBe(moment);
      expect(listed[3]).toMatchObject({ number: older.number, balance: 10_000 - 500 });
    }
  });

  it('statements add up, and another doctor’s is 404', async () => {
    const month = new Date().toISOString().slice(0, 7);
    const statement = (await drLee.get(`/billing/statements/dr.lee?month=${month}`)).body;
    expect(statement.closing).toBe(
      statement.opening + statement.invoiced - statement.paid - statement.credited,
    );
    expect(statement.entries.at(-1).balance).toBe(statement.closing);
    const open: Invoice[] = (await admin.get('/invoices?doctor=dr.lee')).body;
    const owed = open
      .filter((invoice) => invoice.status !== 'void')
      .reduce((sum, invoice) => sum + invoice.balance, 0);
    expect(statement.closing).toBe(owed);
    expect((await drPatel.get(`/billing/statements/dr.lee?month=${month}`)).status).toBe(404);
    expect((await rep.get('/billing/statements/dr.lee?month=2026-13')).status).toBe(400);
  });

  it('ages open balances by days past due with the injected clock', async () => {
    const { invoices } = await shipped(250);
    const due = new Date(invoices[0].dueAt);
    const clock = users.lab.app.get(BillingClock);
    try {
      clock.set(new Date(due.getTime() + 45 * 86_400_000));
      const aging = (await admin.get('/billing/aging')).body;
      const lee = aging.rows.find((row: { doctor: string }) => row.doctor === 'dr.lee');
      expect(lee.days31to60).toBeGreaterThanOrEqual(25000);
      expect(aging.totals.total).toBe(
        aging.rows.reduce((sum: number, row: { total: number }) => sum + row.total, 0),
      );
      // The server sums in SQL: the domain's rule over every invoice must say the same, day by day.
      const all: Invoice[] = (await admin.get('/invoices')).body;
      for (const days of [-1, 0, 1, 30, 31, 60, 61, 90, 91, 400]) {
        const at = new Date(due.getTime() + days * 86_400_000);
        clock.set(at);
        expect((await admin.get('/billing/aging')).body).toEqual(agingOf(all, at));
      }
      clock.set(new Date(due.getTime() - 86_400_000));
      const before = (await admin.get('/billing/aging')).body;
      expect(
        before.rows.find((row: { doctor: string }) => row.doctor === 'dr.lee').current,
      ).toBeGreaterThanOrEqual(25000);
    } finally {
      clock.set(undefined);
    }
    expect((await rep.get('/billing/aging')).status).toBe(403);
  });

  it('exports the invoices for QuickBooks Online and Xero', async () => {
    const { invoices } = await shipped(1234.56);
    const day = invoices[0].issuedAt.slice(0, 10);
    const quickbooks = await admin.get(`/billing/export.csv?format=quickbooks&from=${day}&to=${day}`);
    expect(quickbooks.status).toBe(200);
    expect(quickbooks.headers.get('content-type')).toMatch(/^text\/csv/);
    const [header, ...rows] = (quickbooks.body as string).trim().split('\r\n');
    expect(header).toBe(
      'InvoiceNo,Customer,InvoiceDate,DueDate,Item(Product/Service),ItemDescription,ItemQuantity,ItemRate,ItemAmount,ItemTaxAmount',
    );
    expect(rows).toContain(
      `${invoices[0].number},Smile Clinic,${day},${invoices[0].dueAt.slice(0, 10)},Clear Aligners,"Clear aligner treatment, case ${invoices[0].caseId}",1,1234.56,1234.56,0.00`,
    );
    const xero = await admin.get(`/billing/export.csv?format=xero&from=${day}&to=${day}`);
    expect((xero.body as string).split('\r\n')[0]).toBe(
      'ContactName,InvoiceNumber,InvoiceDate,DueDate,Description,Quantity,UnitAmount,AccountCode,TaxType,Currency',
    );
    expect(xero.body).toContain(`Smile Clinic,${invoices[0].number},${day}`);
    expect((await admin.get('/billing/export.csv?format=sage')).status).toBe(400);
    expect((await rep.get('/billing/export.csv?format=xero')).status).toBe(403);
  });

  it('settings and a doctor’s billing details shape the next invoice', async () => {
    expect((await rep.put('/billing/settings', { taxRate: 5 })).status).toBe(403);
    expect(await admin.put('/billing/settings', { taxRate: 5.555 })).toMatchObject({
      status: 400,
      body: { error: BILLING_TEXTS.taxRateInvalid },
    });
    const settings = {
      labName: 'Clear Lab',
      labAddress: '1 Main St',
      labTaxId: 'T-1',
      currency: 'EUR',
      taxRate: 10,
      paymentTermsDays: 14,
    };
    expect(await admin.put('/billing/settings', settings)).toMatchObject({ status: 200, body: settings });
    expect((await rep.get('/billing/settings')).body).toEqual(settings);
    const details = {
      clinicName: 'Lee Orthodontics',
      address: '2 High St',
      taxId: 'C-9',
      email: 'billing@lee.example',
      taxRate: 7.5,
    };
    expect((await drPatel.put('/users/dr.lee/billing', details)).status).toBe(403);
    expect(await drLee.put('/users/dr.lee/billing', details)).toMatchObject({ status: 200, body: details });
    expect((await rep.get('/users/dr.lee/billing')).body).toEqual(details);
    const [invoice] = (await shipped(100)).invoices;
    expect(invoice).toMatchObject({
      clinicName: 'Lee Orthodontics',
      currency: 'EUR',
      lines: [{ unitAmount: 10000, taxRate: 7.5 }],
      tax: 750,
      total: 10750,
    });
    expect(Date.parse(invoice.dueAt) - Date.parse(invoice.issuedAt)).toBe(14 * 86_400_000);
  });

  it('answers bad input with 400 and its text, never 500', async () => {
    const [invoice] = (await shipped(90)).invoices;
    const path = `/invoices/${invoice.number}`;
    const cases: [string, string, unknown][] = [
      ['post', `${path}/payments`, []],
      ['post', `${path}/payments`, { amount: { $gt: 1 }, method: 'card' }],
      ['post', `${path}/payments`, { amount: 100, method: 'card', receivedAt: '9999-99-99' }],
      ['post', `${path}/payments`, { amount: 100, method: 'card', receivedAt: 7 }],
      ['post', `${path}/payments`, { amount: 100, method: 'card', reference: 'x'.repeat(201) }],
      ['post', `${path}/payments`, { amount: 1e300, method: 'card' }],
      ['post', `${path}/credit-notes`, { amount: 100 }],
      ['post', `${path}/credit-notes`, { amount: 100, reason: 'x'.repeat(501) }],
      ['post', `${path}/void`, { reason: ['x'] }],
      ['put', '/billing/settings', { labName: 5 }],
      ['put', '/billing/settings', { currency: 'XYZ1' }],
      ['put', '/billing/settings', { paymentTermsDays: 1.5 }],
      ['put', '/users/dr.lee/billing', { taxRate: 101 }],
      ['get', '/invoices?from=2026-13-01', undefined],
      ['get', '/invoices?to=2026-02-31', undefined],
      ['get', '/billing/export.csv?format=quickbooks&from=2026-02-30', undefined],
      ['post', `${path}/payments`, { amount: 100, method: 'card', receivedAt: '2026-02-31' }],
      ['get', '/billing/statements/dr.lee?month=2026-1', undefined],
      ['get', '/billing/export.csv?format=xero&from=01/02/2026', undefined],
    ];
    for (const [method, url, body] of cases) {
      const answer = await admin.request(method.toUpperCase(), url, body);
      expect([method, url, answer.status, typeof answer.body?.error]).toEqual([method, url, 400, 'string']);
    }
    expect((await admin.get(path)).body).toMatchObject({ paid: 0, credited: 0, status: 'open' });
    expect((await admin.get('/invoices/INV-1999-99999')).status).toBe(404);
  });
});
