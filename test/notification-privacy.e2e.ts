import { FcmStub } from './support/fcm-stub';
import { eventually, sql, withEnv } from './support/helpers';
import type { ApiClient } from './support/http';
import { SmtpSink } from './support/smtp-sink';
import { startTestApp, type TestApp } from './support/test-app';

/**
 * api.md, "Patient data": push through FCM and emails carry patient initials, never full names or
 * free text written by users. Read from what really left: the mails the SMTP server received and
 * the messages the FCM endpoint was sent.
 */
const PATIENT = 'Wilhelmina Castellanos';
const SECRETS = [
  'Wilhelmina',
  'Castellanos',
  'Lower incisors feel loose', // the doctor's change request
  'Impression is torn', // the rejection reason
  'Patient moved to Lisbon', // a note
  'Bite ramp on 13', // the treatment plan notes
];

describe('what notifications say outside the lab', () => {
  let smtp: SmtpSink;
  let fcm: FcmStub;
  let lab: TestApp;
  let admin: ApiClient, designer: ApiClient, drLee: ApiClient;

  beforeAll(async () => {
    [smtp, fcm] = await Promise.all([SmtpSink.start(), FcmStub.start()]);
    lab = await withEnv({ ...fcm.env(), NOTIFICATIONS_BACKOFF_MS: '20' }, () =>
      startTestApp({ SMTP_URL: smtp.url, PUBLIC_URL: 'https://lab.example.test/' }),
    );
    [admin, designer, drLee] = await Promise.all(
      ['admin', 'designer', 'dr.lee'].map((name) => lab.login(name)),
    );
    for (const [client, email] of [
      [admin, 'admin@lab.example.test'],
      [designer, 'designer@lab.example.test'],
      [drLee, 'lee@clinic.example.test'],
    ] as const) {
      expect((await admin.put(`/users/${client.user!.username}`, { email })).status).toBe(200);
      expect((await client.put('/push/fcm-token', { token: `fcm-${client.user!.username}` })).status).toBe(
        204,
      );
    }
  }, 60_000);

  afterAll(async () => {
    await lab?.close();
    await Promise.all([smtp?.close(), fcm?.close()]);
  });

  it('names the patient by initials and carries no change request, reason or note', async () => {
    const body = {
      patientName: PATIENT,
      doctorName: 'Dr. Sarah Lee',
      clinicName: 'Smile Clinic',
      priority: 'High',
    };
    const created = await drLee.post('/cases', { ...body, treatmentPlanNotes: 'Bite ramp on 13' });
    expect(created.status).toBe(201);
    const id: string = created.body.id;
    const step = async (client: ApiClient, path: string, payload?: object) =>
      expect((await client.post(`/cases/${id}${path}`, payload)).status).toBe(200);
    await step(admin, '/approve', { doctorUsername: 'dr.lee' });
    expect((await designer.post(`/cases/${id}/notes`, { text: 'Patient moved to Lisbon' })).status).toBe(201);
    await step(designer, '/advance', { fromStatus: 'Digital Planning' });
    await step(drLee, '/request-changes', { comment: 'Lower incisors feel loose' });
    const rejected = (await drLee.post('/cases', body)).body.id as string;
    expect((await admin.post(`/cases/${rejected}/reject`, { reason: 'Impression is torn' })).status).toBe(
      200,
    );

    // Every notification of both cases was sent: plan ready, changes requested (admin, designer),
    // the two new cases (admin), the rejection (dr.lee), on both channels.
    const expected = ['Treatment plan ready', 'Changes requested', 'New case submitted', 'Case rejected'];
    await eventually(
      () =>
        expected.every(
          (title) =>
            smtp.mails.some((mail) => mail.subject.includes(title)) &&
            fcm.messages.some((message) => message.notification?.title === title),
        ) && smtp.mails.length >= 6,
      20_000,
      'the emails and FCM messages',
    );
    const [{ queued }] = await sql(
      lab.databaseUrl,
      `SELECT count(*)::int AS queued FROM notification_deliveries WHERE status = 'queued'`,
    );
    expect(queued).toBe(0);

    const delivered = [
      ...smtp.mails.map((mail) => ({ what: `mail ${mail.subject}`, text: mail.raw })),
      ...fcm.messages.map((message) => ({
        what: `fcm ${message.notification?.title}`,
        text: JSON.stringify(message),
      })),
    ];
    for (const { what, text } of delivered)
      for (const secret of SECRETS) expect([what, text.includes(secret)]).toEqual([what, false]);

    const planReady = fcm.messages.find((message) => message.notification?.title === 'Treatment plan ready');
    expect(planReady?.notification?.body).toBe(
      `The treatment plan of W.C. (${id}) is waiting for your approval.`,
    );
    const changes = smtp.mails.find((mail) => mail.subject.includes('Changes requested'));
    expect(changes?.text).toContain(`dr.lee requested changes to ${id} (W.C.).`);
    const rejection = fcm.messages.find((message) => message.notification?.title === 'Case rejected');
    expect(rejection?.notification?.body).toBe(`${rejected} for W.C. was rejected.`);
  });
});
