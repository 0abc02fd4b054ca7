import { globalAgent } from 'node:https';
import { rootCertificates } from 'node:tls';
import { DEVICE_TEXTS, localDay, type Case } from '@alignerflow/domain';
import { AtRiskScanner } from '../backend/src/notifications/at-risk/at-risk-scanner';
import { byUsername, caseAt } from './support/case-road';
import { eventually, notificationsSettled, withEnv } from './support/helpers';
import type { ApiClient } from './support/http';
import { PushService, type BrowserSubscription } from './support/push-service';
import { SmtpSink } from './support/smtp-sink';
import { startTestApp, type TestApp } from './support/test-app';

// A test waits for the notifications to catch up (notificationsSettled): a loaded machine is slow at it.
jest.setTimeout(120_000);

const DAY_MS = 24 * 60 * 60 * 1000;
const DOCTOR_EMAIL = 'lee@clinic.example.test';

const dayIn = (days: number) => {
  const now = new Date();
  return localDay(new Date(now.getFullYear(), now.getMonth(), now.getDate() + days));
};

describe('shipping: shipments, the doctor told once, received, transit days', () => {
  let smtp: SmtpSink;
  let push: PushService;
  let lab: TestApp;
  let admin: ApiClient,
    rep: ApiClient,
    tech: ApiClient,
    designer: ApiClient,
    drLee: ApiClient,
    drPatel: ApiClient;
  let road: Record<string, ApiClient>;
  let leePhone: BrowserSubscription;
  const savedCa = globalAgent.options.ca;

  beforeAll(async () => {
    smtp = await SmtpSink.start();
    push = await PushService.start();
    // The in-process worker sends to the local push service through Node's global agent.
    globalAgent.options.ca = [...rootCertificates, push.caPem];
    lab = await withEnv({ PUSH_ALLOWED_HOSTS: push.host }, () =>
      startTestApp({ SMTP_URL: smtp.url, RISK_SCAN_INTERVAL_MS: String(DAY_MS) }),
    );
    [admin, rep, tech, designer, drLee, drPatel] = await Promise.all(
      ['admin', 'rep', 'tech', 'designer', 'dr.lee', 'dr.patel'].map((name) => lab.login(name)),
    );
    road = byUsername(admin, drLee);
    expect((await admin.put('/users/dr.lee', { email: DOCTOR_EMAIL })).status).toBe(200);
    push.expectVapidKey((await lab.anonymous.get('/push/vapid-public-key')).body.publicKey);
    leePhone = push.subscribe();
    expect((await drLee.post('/push/subscribe', leePhone)).status).toBe(201);
  }, 60_000);

  afterAll(async () => {
    await lab?.close();
    await push?.close();
    await smtp?.close();
    globalAgent.options.ca = savedCa;
    globalAgent.destroy();
  });

  const ship = (
    client: ApiClient,
    id: string,
    body: object = { carrier: 'fedex', trackingNumber: '7712 3456 7890' },
  ) => client.post<Case>(`/cases/${id}/shipments`, body);

  it('ships only from Packaging & Labeling or Delivery to Doctor, by the lab roles that ship', async () => {
    const checking = await caseAt(road, 'Quality Check');
    expect(await ship(rep, checking.id)).toMatchObject({
      status: 409,
      body: { error: DEVICE_TEXTS.shipStatus },
    });
    const completed = await caseAt(road, 'Completed');
    expect(await ship(rep, completed.id)).toMatchObject({
      status: 409,
      body: { error: DEVICE_TEXTS.shipStatus },
    });
    const packing = await caseAt(road, 'Packaging & Labeling');
    expect(await ship(designer, packing.id)).toMatchObject({
      status: 403,
      body: { error: DEVICE_TEXTS.shipRoles },
    });
    expect(await ship(drLee, packing.id)).toMatchObject({ status: 403 });
    expect(await ship(drPatel, packing.id)).toMatchObject({ status: 404 });
    expect(await ship(rep, packing.id, { carrier: 'pigeon', trackingNumber: '1' })).toMatchObject({
      status: 400,
      body: { error: DEVICE_TEXTS.carrier },
    });
    expect(await ship(rep, packing.id, { carrier: 'ups' })).toMatchObject({
      status: 400,
      body: { error: DEVICE_TEXTS.trackingNumberRequired },
    });
    expect((await ship(rep, packing.id, { carrier: 'ups', trackingNumber: 5 })).status).toBe(400);
    expect(
      (await ship(rep, packing.id, { carrier: 'ups', trackingNumber: 'A1', expectedVersion: 0 })).status,
    ).toBe(409);
    const byTech = await ship(tech, packing.id, {
      carrier: 'usps',
      trackingNumber: '9400 1000',
      shippedAt: '2030-01-02T08:00:00Z',
    });
    expect(byTech.status).toBe(200);
    expect(byTech.body.shipments).toEqual([
      {
        carrier: 'usps',
        trackingNumber: '9400 1000',
        trackingUrl: 'https://tools.usps.com/go/TrackConfirmAction?tLabels=9400%201000',
        shippedAt: '2030-01-02T08:00:00.000Z',
        by: 'tech',
      },
    ]);
  });

  it("tells the case's doctor once, by push and by email, with the carrier and tracking number", async () => {
    const delivery = await caseAt(road, 'Delivery to Doctor', { patientName: 'Tom Ng' });
    const shipped = await ship(rep, delivery.id);
    expect(shipped.status).toBe(200);
    expect(shipped.body.shipments).toEqual([
      expect.objectContaining({
        carrier: 'fedex',
        trackingNumber: '7712 3456 7890',
        trackingUrl: 'https://www.fedex.com/fedextrack/?trknbr=7712%203456%207890',
        by: 'rep',
      }),
    ]);
    const title = `Case ${delivery.id} has shipped`;
    const pushes = () => push.receivedBy(leePhone).filter((item) => item.payload.title === title);
    const mails = () => smtp.to(DOCTOR_EMAIL).filter((mail) => mail.subject.includes(title));
    await push.waitFor(() => pushes().length >= 1, 15_000, 'the shipping push');
    await eventually(() => mails().length >= 1, 15_000, 'the shipping email');
    expect(pushes()[0].payload).toMatchObject({
      title: `Case ${delivery.id} has shipped`,
      body: 'Shipped by FedEx, tracking number 7712 3456 7890.',
    });
    expect(mails()[0].subject).toBe(`AlignerFlow: Case ${delivery.id} has shipped (${delivery.id})`);
    expect(mails()[0].text).toContain('Shipped by FedEx, tracking number 7712 3456 7890.');
    // Received and other commands tell nobody; the shipment is not announced again.
    expect((await drLee.post(`/cases/${delivery.id}/received`)).status).toBe(200);
    expect((await admin.post(`/cases/${delivery.id}/notes`, { text: 'Box sealed' })).status).toBe(201);
    await notificationsSettled(lab.databaseUrl);
    expect(pushes()).toHaveLength(1);
    expect(mails()).toHaveLength(1);
    // An email leaves the lab: it names the patient by initials at most.
    expect(mails()[0].text).not.toContain('Tom Ng');
  });

  it("lets the case's doctor or a Manager mark it received at Delivery to Doctor only", async () => {
    const packing = await caseAt(road, 'Packaging & Labeling');
    expect(await drLee.post(`/cases/${packing.id}/received`)).toMatchObject({
      status: 409,
      body: { error: DEVICE_TEXTS.receivedStatus },
    });
    const delivery = await caseAt(road, 'Delivery to Doctor');
    expect(await rep.post(`/cases/${delivery.id}/received`)).toMatchObject({
      status: 403,
      body: { error: DEVICE_TEXTS.receivedRoles },
    });
    expect((await drPatel.post(`/cases/${delivery.id}/received`)).status).toBe(404);
    const received = await drLee.post<Case>(`/cases/${delivery.id}/received`);
    expect(received.status).toBe(200);
    expect(received.body.receivedAt).toEqual(expect.any(String));
    const history = await drLee.get(`/cases/${delivery.id}/history`);
    expect(history.body.at(-1)).toMatchObject({
      type: 'CaseReceived',
      actor: { username: 'dr.lee', role: 'Doctor' },
    });
    expect((await admin.post(`/cases/${delivery.id}/received`)).status).toBe(200);
  });

  it('moves a case into the at-risk list, the queue order and the overdue count by its ship-by date', async () => {
    const scanner = lab.app.get(AtRiskScanner);
    const thermo = await caseAt(road, 'Thermoforming', { patientName: 'Late Ship', deliveryDate: dayIn(5) });
    const early = await caseAt(road, 'Thermoforming', { patientName: 'Early Due', deliveryDate: dayIn(4) });
    const overdueBefore = (await admin.get('/dashboard')).body.overdue;
    expect(await scanner.scan(new Date())).not.toContain(thermo.id);
    const order = async () =>
      ((await tech.get('/work-queue')).body as Case[])
        .map((item) => item.id)
        .filter((id) => [thermo.id, early.id].includes(id));
    expect(await order()).toEqual([early.id, thermo.id]);

    expect(await admin.put('/materials/settings', { transitDays: 4 })).toMatchObject({
      status: 200,
      body: { transitDays: 4 },
    });
    try {
      expect(await scanner.scan(new Date())).toEqual(expect.arrayContaining([thermo.id, early.id]));
      // Due in 4 and 5 days with 4 days in transit: they must leave today and tomorrow, not overdue yet.
      const dashboard = (await admin.get('/dashboard')).body;
      expect(dashboard.overdue).toBe(overdueBefore);
      expect((await admin.put('/materials/settings', { transitDays: 6 })).status).toBe(200);
      expect((await admin.get('/dashboard')).body.overdue).toBe(overdueBefore + 2);
      // Shipped cases go by their due date again.
      const packing = await caseAt(road, 'Packaging & Labeling', { deliveryDate: dayIn(3) });
      const before = (await admin.get('/dashboard')).body.overdue;
      expect((await ship(rep, packing.id)).status).toBe(200);
      expect((await admin.get('/dashboard')).body.overdue).toBe(before - 1);
    } finally {
      expect((await admin.put('/materials/settings', { transitDays: 0 })).status).toBe(200);
    }
  });
});
