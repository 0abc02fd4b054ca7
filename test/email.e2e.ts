import { eventually, sql } from './support/helpers';
import type { ApiClient } from './support/http';
import { SmtpSink, type ReceivedMail } from './support/smtp-sink';
import { startTestApp, type TestApp } from './support/test-app';

const PUBLIC_URL = 'https://lab.example.test/portal/';
const PATIENT = 'Maria Gonzalez';
const ADDRESSES: Record<string, string> = {
  admin: 'admin@lab.example.test',
  designer: 'designer@lab.example.test',
  rep: 'rep@lab.example.test',
  'dr.lee': 'lee@clinic.example.test',
  'dr.patel': 'patel@clinic.example.test',
};

interface Delivery {
  id: string;
  channel: string;
  username: string;
  status: string;
  attempts: number;
  lastError: string | null;
}

/** Waits until the dispatcher has planned every event so far and no email job is still pending. */
async function settled(lab: TestApp): Promise<void> {
  await eventually(
    async () => {
      const [row] = await sql(
        lab.databaseUrl,
        `SELECT (SELECT coalesce(max(global_position), 0) FROM events) <=
                coalesce((SELECT global_position FROM projection_checkpoints WHERE name = 'notifications'), 0)
                AS caught_up,
                (SELECT count(*)::int FROM notification_deliveries WHERE status = 'queued') AS queued`,
      );
      return row.caught_up && row.queued === 0;
    },
    20_000,
    'the notifications to be dispatched and delivered',
  );
}

function summary(mails: ReceivedMail[]): string[] {
  return mails.map((mail) => `${mail.to.join(',')} | ${mail.subject}`).sort();
}

describe('email notifications over a real SMTP server', () => {
  let smtp: SmtpSink;
  let lab: TestApp;
  let admin: ApiClient, rep: ApiClient, designer: ApiClient, drLee: ApiClient;

  beforeAll(async () => {
    smtp = await SmtpSink.start();
    lab = await startTestApp({
      SMTP_URL: smtp.url,
      MAIL_FROM: 'AlignerFlow Lab <lab@lab.example.test>',
      PUBLIC_URL,
      NOTIFICATIONS_BACKOFF_MS: '20',
    });
    [admin, rep, designer, drLee] = await Promise.all(
      ['admin', 'rep', 'designer', 'dr.lee'].map((name) => lab.login(name)),
    );
    // The seed's own events are planned before anyone has an address: none of them is mailed.
    await settled(lab);
    for (const [username, email] of Object.entries(ADDRESSES)) {
      expect((await admin.put(`/users/${username}`, { email })).status).toBe(200);
    }
  }, 60_000);

  afterAll(async () => {
    await lab?.close();
    await smtp?.close();
  });

  it('mails exactly what the policy says, to whom it says, with initials and a link', async () => {
    const created = await rep.post('/cases', {
      patientName: PATIENT,
      doctorName: 'Dr. Sarah Lee',
      clinicName: 'Smile Clinic',
      priority: 'Normal',
      upperSheets: 3,
      lowerSheets: 3,
    });
    expect(created.status).toBe(201);
    const id: string = created.body.id;
    const step = async (client: ApiClient, path: string, body?: object) => {
      const answer = await client.post(`/cases/${id}${path}`, body);
      expect(answer.status).toBe(200);
    };
    await step(admin, '/approve', { doctorUsername: 'dr.lee' });
    await step(designer, '/advance', { fromStatus: 'Digital Planning' });
    await step(drLee, '/request-changes', { comment: 'Move 12 less.' });
    await step(designer, '/advance', { fromStatus: 'Digital Planning' });
    await step(drLee, '/doctor-approve');
    await step(admin, '/hold');
    await step(admin, '/resume');
    for (const from of [
      'Model Printing',
      'Thermoforming',
      'Trimming & Polishing',
      'Quality Check',
      'Packaging & Labeling',
      'Delivery to Doctor',
    ])
      await step(admin, '/advance', { fromStatus: from });
    await settled(lab);

    const subject = (title: string) => `AlignerFlow: ${title} (${id})`;
    expect(summary(smtp.mails)).toEqual(
      [
        `${ADDRESSES.admin} | ${subject('New case submitted')}`,
        `${ADDRESSES['dr.lee']} | ${subject('Treatment plan ready')}`,
        `${ADDRESSES.admin} | ${subject('Changes requested')}`,
        `${ADDRESSES.designer} | ${subject('Changes requested')}`,
        `${ADDRESSES['dr.lee']} | ${subject('Treatment plan ready')}`,
        `${ADDRESSES.admin} | ${subject('Case on hold')}`,
        `${ADDRESSES.admin} | ${subject('Case resumed')}`,
        `${ADDRESSES['dr.lee']} | ${subject('Case completed')}`,
      ].sort(),
    );
    const link = `${PUBLIC_URL}#case=${id}`;
    for (const mail of smtp.mails) {
      expect(mail.from).toBe('lab@lab.example.test');
      expect(mail.text).toContain(`Case: ${id}`);
      expect(mail.text).toContain(link);
      expect(mail.html).toContain(`href="${link}"`);
      // The patient is named by initials only, in every part of the message.
      expect(mail.raw).not.toContain('Maria');
      expect(mail.raw).not.toContain('Gonzalez');
    }
    const [createdMail] = smtp.to(ADDRESSES.admin);
    expect(createdMail.text).toContain(`${id} for M.G. is waiting for approval.`);
    expect(createdMail.html).toContain(`${id} for M.G. is waiting for approval.`);
    // Each message is one job: its Message-ID derives from the job id.
    expect(new Set(smtp.mails.map((mail) => mail.messageId)).size).toBe(smtp.mails.length);

    const deliveries = await admin.get('/notifications/deliveries');
    expect(deliveries.status).toBe(200);
    const emails = (deliveries.body as Delivery[]).filter((row) => row.channel === 'email');
    expect(emails).toHaveLength(8);
    for (const row of emails) {
      expect(row).toMatchObject({ status: 'delivered', attempts: 1, lastError: null });
      expect(row.id).toMatch(/^ev\d+-email-/);
    }
    expect(emails.filter((row) => row.username === 'dr.lee')).toHaveLength(3);
  });

  it('sends nothing by email to a user who turned email off, and still to the others', async () => {
    const before = smtp.mails.length;
    const off = await drLee.put('/users/dr.lee', { notify: { email: false } });
    expect(off.status).toBe(200);
    expect(off.body.notify).toEqual({ push: true, email: false });

    // A doctor's case that is rejected tells its creator (dr.lee); its creation tells the managers.
    const created = await drLee.post('/cases', {
      patientName: 'Tom Baker',
      doctorName: 'Dr. Sarah Lee',
      clinicName: 'Smile Clinic',
      priority: 'High',
    });
    expect(created.status).toBe(201);
    const id = created.body.id;
    expect((await admin.post(`/cases/${id}/reject`, { reason: 'Scan unreadable.' })).status).toBe(200);
    await settled(lab);

    expect(summary(smtp.mails.slice(before))).toEqual([
      `${ADDRESSES.admin} | AlignerFlow: New case submitted (${id})`,
    ]);
    const [{ position }] = await sql(
      lab.databaseUrl,
      `SELECT global_position::text AS position FROM events WHERE stream_id = $1 AND type = 'CaseRejected'`,
      [`case-${id}`],
    );
    const rows = await sql(
      lab.databaseUrl,
      'SELECT id FROM notification_deliveries WHERE event_position = $1',
      [position],
    );
    expect(rows).toEqual([]);

    // Turned on again, the next one goes out.
    expect((await drLee.put('/users/dr.lee', { notify: { email: true } })).body.notify).toEqual({
      push: true,
      email: true,
    });
  });

  it('retries a refused delivery, then records it as failed with the reason', async () => {
    const address = ADDRESSES.rep;
    smtp.refuse.set(address, 451);
    const created = await rep.post('/cases', {
      patientName: 'Ann Lee',
      doctorName: 'Dr. Sarah Lee',
      clinicName: 'Smile Clinic',
      priority: 'Normal',
    });
    const id = created.body.id;
    expect((await admin.post(`/cases/${id}/reject`, { reason: 'Duplicate.' })).status).toBe(200);
    await settled(lab);

    expect(smtp.to(address)).toEqual([]);
    // Five attempts (the queue's policy), each one a real RCPT TO.
    expect(smtp.recipientsAsked.filter((to) => to === address)).toHaveLength(5);
    const deliveries = (await admin.get('/notifications/deliveries')).body as Delivery[];
    const failed = deliveries.filter((row) => row.channel === 'email' && row.username === 'rep');
    expect(failed).toEqual([
      expect.objectContaining({ status: 'failed', attempts: 5, lastError: expect.stringContaining('451') }),
    ]);
    smtp.refuse.clear();
  });
});

describe('without SMTP_URL', () => {
  let lab: TestApp;

  beforeAll(async () => {
    // PUBLIC_URL and MAIL_FROM alone make no email channel.
    lab = await startTestApp({ PUBLIC_URL, MAIL_FROM: 'lab@lab.example.test' });
  }, 60_000);

  afterAll(async () => {
    await lab?.close();
  });

  it('sends no email and fails nothing', async () => {
    const admin = await lab.login('admin');
    expect((await admin.put('/users/admin', { email: ADDRESSES.admin })).status).toBe(200);
    const created = await admin.post('/cases', {
      patientName: PATIENT,
      doctorName: 'Dr. Sarah Lee',
      clinicName: 'Smile Clinic',
      priority: 'Normal',
    });
    expect(created.status).toBe(201);
    expect((await admin.post(`/cases/${created.body.id}/hold`)).status).toBe(200);
    await settled(lab);
    const rows = await sql(lab.databaseUrl, `SELECT channel, status FROM notification_deliveries`);
    expect(rows.filter((row) => row.channel === 'email')).toEqual([]);
    expect(rows.filter((row) => row.status === 'failed')).toEqual([]);
  });
});
