import { EMAIL_TEXTS, type Invoice } from '@alignerflow/domain';
import { globalAgent } from 'node:https';
import { rootCertificates } from 'node:tls';
import { BillingClock } from '../backend/src/billing/billing-clock';
import { AtRiskScanner } from '../backend/src/notifications/at-risk/at-risk-scanner';
import { billingSettled, invoicesOf } from './support/billing';
import { byUsername, caseAt } from './support/case-road';
import { FcmStub } from './support/fcm-stub';
import { eventually, notificationsSettled, withEnv } from './support/helpers';
import type { ApiClient } from './support/http';
import { PushService, type BrowserSubscription } from './support/push-service';
import { SmtpSink } from './support/smtp-sink';
import { startTestApp, type TestApp } from './support/test-app';

const DAY = 86_400_000;
const LEE = 'lee@clinic.example.test';
const PATIENT = 'Wilhelmina Castellanos';
/** What must never leave the lab in the reminder: the patient's name and text users wrote. */
const SECRETS = [
  'Wilhelmina',
  'Castellanos',
  'Bite ramp on 13', // the treatment plan notes
  'Cheque brought by the husband', // the payment's reference
  'Goodwill for the loose attachment', // the credit note's reason
];

/**
 * api.md "Billing": the overdue reminder reaches the doctor's devices too, through the channels
 * every notification takes (a browser's push subscription, an FCM token), once, and names the
 * patient by initials only (api.md "Patient data"). Read from what the local push service
 * decrypted and what the FCM endpoint was sent; the scan runs as of billing's injected clock.
 */
describe('overdue invoice reminders by push', () => {
  let smtp: SmtpSink;
  let push: PushService;
  let fcm: FcmStub;
  let lab: TestApp;
  let admin: ApiClient, rep: ApiClient, drLee: ApiClient;
  let leePhone: BrowserSubscription, adminPhone: BrowserSubscription;
  let invoice: Invoice;
  const savedCa = globalAgent.options.ca;

  beforeAll(async () => {
    [smtp, push, fcm] = await Promise.all([SmtpSink.start(), PushService.start(), FcmStub.start()]);
    // The in-process worker sends to the local push service through Node's global agent.
    globalAgent.options.ca = [...rootCertificates, push.caPem];
    lab = await withEnv({ ...fcm.env(), PUSH_ALLOWED_HOSTS: push.host }, () =>
      startTestApp({
        SMTP_URL: smtp.url,
        NOTIFICATIONS_BACKOFF_MS: '20',
        RISK_SCAN_INTERVAL_MS: String(DAY),
      }),
    );
    const clients = await Promise.all(
      ['admin', 'rep', 'designer', 'tech', 'dr.lee'].map((name) => lab.login(name)),
    );
    [admin, rep] = clients;
    drLee = clients[4];
    expect((await admin.put('/users/dr.lee', { email: LEE })).status).toBe(200);
    push.expectVapidKey((await lab.anonymous.get('/push/vapid-public-key')).body.publicKey);
    leePhone = push.subscribe();
    adminPhone = push.subscribe();
    expect((await drLee.post('/push/subscribe', leePhone)).status).toBe(201);
    expect((await admin.post('/push/subscribe', adminPhone)).status).toBe(201);
    expect((await drLee.put('/push/fcm-token', { token: 'fcm-dr.lee' })).status).toBe(204);

    const shipped = await caseAt(byUsername(...clients), 'Delivery to Doctor', {
      price: 400,
      patientName: PATIENT,
      treatmentPlanNotes: 'Bite ramp on 13',
    });
    await billingSettled(lab.databaseUrl);
    [invoice] = await invoicesOf(admin, shipped.id);
    expect(
      (
        await rep.post(`/invoices/${invoice.number}/payments`, {
          amount: 10_000,
          method: 'check',
          reference: 'Cheque brought by the husband',
        })
      ).status,
    ).toBe(200);
    expect(
      (
        await admin.post(`/invoices/${invoice.number}/credit-notes`, {
          amount: 5_000,
          reason: 'Goodwill for the loose attachment',
        })
      ).status,
    ).toBe(201);
  }, 60_000);

  afterAll(async () => {
    lab?.app.get(BillingClock).set(undefined);
    await lab?.close();
    await Promise.all([push?.close(), fcm?.close(), smtp?.close()]);
    globalAgent.options.ca = savedCa;
    globalAgent.destroy();
  });

  it('pushes one reminder to the doctor’s devices, naming the patient by initials only', async () => {
    const title = `Invoice ${invoice.number} is overdue`;
    const body = `Invoice ${invoice.number} for W.C. was due on ${invoice.dueAt.slice(0, 10)}; $250.00 is still open.`;
    const pushes = (phone: BrowserSubscription) =>
      push.receivedBy(phone).filter((item) => item.payload.title === title);
    const fcmMessages = () => fcm.messages.filter((message) => message.notification?.title === title);
    const mails = () =>
      smtp.mails.filter((mail) => mail.subject === EMAIL_TEXTS.subject(title, invoice.caseId));

    const clock = lab.app.get(BillingClock);
    const due = Date.parse(invoice.dueAt);
    clock.set(new Date(due + 7 * DAY - 1000));
    await lab.app.get(AtRiskScanner).scan();
    expect((await admin.get(`/invoices/${invoice.number}`)).body.remindedAt).toBeFalsy();
    // Scans as of the moment it is due, then later (or in another process): one reminder.
    for (const at of [due + 7 * DAY, due + 7 * DAY + 1000, due + 9 * DAY]) {
      clock.set(new Date(at));
      await lab.app.get(AtRiskScanner).scan();
    }
    await push.waitFor(() => pushes(leePhone).length >= 1, 20_000, 'the reminder’s web push');
    await eventually(
      () => fcmMessages().length >= 1 && mails().length >= 1,
      20_000,
      'the reminder by FCM and email',
    );
    // Once the dispatcher has passed every event and nothing is queued, no second delivery can come.
    await notificationsSettled(lab.databaseUrl);
    expect(pushes(leePhone)).toHaveLength(1);
    expect(fcmMessages()).toHaveLength(1);
    expect(mails()).toHaveLength(1);
    expect(pushes(adminPhone)).toHaveLength(0);

    expect(pushes(leePhone)[0].payload).toMatchObject({ title, body });
    expect(fcmMessages()[0]).toMatchObject({ token: 'fcm-dr.lee', notification: { title, body } });
    expect(mails()[0].to).toEqual([LEE]);
    expect(mails()[0].text).toContain(body);
    for (const [what, text] of [
      ['web push', JSON.stringify(pushes(leePhone)[0].payload)],
      ['fcm', JSON.stringify(fcmMessages()[0])],
      ['email', mails()[0].raw],
    ])
      for (const secret of SECRETS)
        expect([what, secret, text.includes(secret)]).toEqual([what, secret, false]);
    expect((await admin.get(`/invoices/${invoice.number}`)).body.remindedAt).toBe(
      new Date(due + 7 * DAY).toISOString(),
    );
  });
});
