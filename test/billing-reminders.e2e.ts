import { EMAIL_TEXTS, type Invoice } from '@alignerflow/domain';
import { AtRiskScanner } from '../backend/src/notifications/at-risk/at-risk-scanner';
import { billingSettled, invoicesOf } from './support/billing';
import { byUsername, caseAt } from './support/case-road';
import { eventually, sql } from './support/helpers';
import type { ApiClient } from './support/http';
import { SmtpSink } from './support/smtp-sink';
import { startTestApp, type TestApp } from './support/test-app';

const DAY = 86_400_000;
const LEE = 'lee@clinic.example.test';

/** api.md "Billing": one reminder, by email (and push), seven days after the due date with a balance left. */
describe('overdue invoice reminders', () => {
  let smtp: SmtpSink;
  let lab: TestApp;
  let admin: ApiClient, rep: ApiClient;
  let invoice: Invoice, paidOff: Invoice;

  beforeAll(async () => {
    smtp = await SmtpSink.start();
    lab = await startTestApp({ SMTP_URL: smtp.url, NOTIFICATIONS_BACKOFF_MS: '20' });
    const clients = await Promise.all(
      ['admin', 'rep', 'designer', 'tech', 'dr.lee'].map((name) => lab.login(name)),
    );
    [admin, rep] = clients;
    expect((await admin.put('/users/dr.lee', { email: LEE })).status).toBe(200);
    const road = byUsername(...clients);
    const [first, second] = [
      await caseAt(road, 'Delivery to Doctor', { price: 400 }),
      await caseAt(road, 'Delivery to Doctor', { price: 300 }),
    ];
    await billingSettled(lab.databaseUrl);
    [invoice] = await invoicesOf(admin, first.id);
    [paidOff] = await invoicesOf(admin, second.id);
    expect(
      (await rep.post(`/invoices/${paidOff.number}/payments`, { amount: 30000, method: 'bank' })).status,
    ).toBe(200);
  }, 60_000);

  afterAll(async () => {
    await lab?.close();
    await smtp?.close();
  });

  const reminders = async () =>
    sql<{ number: string }>(
      lab.databaseUrl,
      `SELECT data->>'number' AS number FROM events WHERE type = 'InvoiceReminderSent' ORDER BY global_position`,
    );

  it('reminds the doctor once, seven days after the due date, only of a balance left', async () => {
    const scanner = lab.app.get(AtRiskScanner);
    const due = Date.parse(invoice.dueAt);
    await scanner.scan(new Date(due + 7 * DAY - 1000));
    // (The demo's own shipped case, back-dated weeks, may well be overdue by then.)
    expect((await reminders()).map((row) => row.number)).not.toContain(invoice.number);

    await scanner.scan(new Date(due + 7 * DAY));
    await scanner.scan(new Date(due + 9 * DAY)); // a later scan, or another process's, repeats nothing
    const sent = await reminders();
    expect(sent.filter((row) => row.number === invoice.number)).toHaveLength(1);
    expect(sent.some((row) => row.number === paidOff.number)).toBe(false);

    const subject = EMAIL_TEXTS.subject(`Invoice ${invoice.number} is overdue`, invoice.caseId);
    await eventually(() => smtp.mails.some((mail) => mail.subject === subject), 20_000);
    const mails = smtp.mails.filter((mail) => mail.subject === subject);
    expect(mails).toHaveLength(1);
    expect(mails[0].to).toEqual([LEE]);
    expect(mails[0].text).toContain(`was due on ${invoice.dueAt.slice(0, 10)}; $400.00 is still open.`);
    expect((await admin.get(`/invoices/${invoice.number}`)).body.remindedAt).toBe(
      new Date(due + 7 * DAY).toISOString(),
    );
  });
});
