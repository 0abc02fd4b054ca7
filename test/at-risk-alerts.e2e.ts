import { localDay, RISK_ALERT_TEXTS } from '@alignerflow/domain';
import { DataSource } from 'typeorm';
import { EventStore } from '../backend/src/event-store/event-store';
import { AtRiskScanner } from '../backend/src/notifications/at-risk/at-risk-scanner';
import { ProjectionRebuilder } from '../backend/src/rebuild/projection-rebuilder';
import { byUsername, caseAt } from './support/case-road';
import { eventually, sql } from './support/helpers';
import type { ApiClient } from './support/http';
import { SmtpSink } from './support/smtp-sink';
import { SseStream } from './support/sse';
import { startTestApp, type TestApp } from './support/test-app';

const DAY_MS = 24 * 60 * 60 * 1000;
const MANAGER_EMAIL = 'manager@lab.example.test';
const DOCTOR_EMAIL = 'lee@clinic.example.test';

/** Noon of the local day `offset` days from today: the scan's clock, moved by the test. */
function noon(offset: number): Date {
  const today = new Date();
  return new Date(today.getFullYear(), today.getMonth(), today.getDate() + offset, 12);
}

describe('at-risk alerts', () => {
  let smtp: SmtpSink;
  let lab: TestApp;
  let admin: ApiClient;
  let scanner: AtRiskScanner;
  let stream: SseStream;

  beforeAll(async () => {
    smtp = await SmtpSink.start();
    lab = await startTestApp({
      SMTP_URL: smtp.url,
      PUBLIC_URL: 'https://lab.example.test/',
      // The test moves the clock itself; the timer must not scan in between.
      RISK_SCAN_INTERVAL_MS: String(DAY_MS),
    });
    admin = await lab.login('admin');
    scanner = lab.app.get(AtRiskScanner);
    expect((await admin.put('/users/admin', { email: MANAGER_EMAIL })).status).toBe(200);
    expect((await admin.put('/users/dr.lee', { email: DOCTOR_EMAIL })).status).toBe(200);
    stream = await SseStream.open(`${lab.apiUrl}/events`, { token: admin.token });
  }, 60_000);

  afterAll(async () => {
    stream?.close();
    await lab?.close();
    await smtp?.close();
  });

  /** A case approved into Digital Planning, due `dueInDays` days from today. */
  async function activeCase(dueInDays: number, patientName = 'Rosa Diaz'): Promise<string> {
    const input = { patientName, deliveryDate: localDay(noon(dueInDays)) };
    return (await caseAt(byUsername(admin), 'Digital Planning', input)).id;
  }

  async function riskEvents(id: string): Promise<{ data: { kind: string; day: string }; actor: object }[]> {
    const history = await admin.get(`/cases/${id}/history`);
    expect(history.status).toBe(200);
    return history.body.filter((entry: { type: string }) => entry.type === 'CaseAtRisk');
  }

  it('alerts once per day for a case due tomorrow, on the stream and by email, changing nothing else', async () => {
    const id = await activeCase(1);
    const before = (await admin.get(`/cases/${id}`)).body;

    expect(await scanner.scan(noon(0))).toContain(id);
    // Again the same day (a restart, the next interval): the domain refuses a second alert.
    expect(await scanner.scan(new Date(noon(0).getTime() + 5 * 60 * 60 * 1000))).not.toContain(id);
    expect(await riskEvents(id)).toEqual([
      expect.objectContaining({
        data: { kind: 'at_risk', day: localDay(noon(0)), deliveryDate: localDay(noon(1)) },
        actor: { username: 'system', role: 'Manager' },
      }),
    ]);

    // The event changes nothing of the case but its version (and the record of the alert).
    const after = (await admin.get(`/cases/${id}`)).body;
    expect(after).toEqual({
      ...before,
      version: before.version + 1,
      riskAlerts: { at_risk: localDay(noon(0)) },
    });

    const alert = await stream.waitFor(
      (message) => message.event === 'manager_alert' && message.data.caseId === id && !!message.data.kind,
      'the at-risk manager_alert',
    );
    expect(alert.data).toEqual({
      title: RISK_ALERT_TEXTS.atRiskTitle,
      body: RISK_ALERT_TEXTS.atRiskBody(id, 'Rosa Diaz', localDay(noon(1)), 'Digital Planning'),
      caseId: id,
      kind: 'at_risk',
    });
    const riskMails = () =>
      smtp.to(MANAGER_EMAIL).filter((item) => item.subject === `AlignerFlow: Case at risk (${id})`);
    await eventually(() => riskMails().length === 1, 15_000, 'the email');
    expect(riskMails()[0].text).toContain(
      `${id} for R.D. is due ${localDay(noon(1))} and is still at Digital Planning.`,
    );

    // The next day (due today now) is another day: another alert.
    expect(await scanner.scan(noon(1))).toContain(id);
    expect((await riskEvents(id)).map((entry) => entry.data.day)).toEqual([
      localDay(noon(0)),
      localDay(noon(1)),
    ]);
    await eventually(() => riskMails().length === 2, 15_000, 'the second email');
  });

  it('raises nothing for a held case, and nothing for a case due later', async () => {
    const held = await activeCase(1, 'Held Patient');
    expect((await admin.post(`/cases/${held}/hold`)).status).toBe(200);
    const later = await activeCase(10, 'Later Patient');
    const alerted = await scanner.scan(noon(0));
    expect(alerted).not.toContain(held);
    expect(alerted).not.toContain(later);
    expect(await riskEvents(held)).toEqual([]);
    expect(await riskEvents(later)).toEqual([]);

    // Resumed, it is at risk again.
    expect((await admin.post(`/cases/${held}/resume`)).status).toBe(200);
    expect(await scanner.scan(noon(0))).toContain(held);
  });

  it('alerts an overdue case with its own kind and text', async () => {
    const id = await activeCase(1, 'Olga Nowak');
    expect(await scanner.scan(noon(3))).toContain(id);
    expect(await riskEvents(id)).toEqual([
      expect.objectContaining({
        data: { kind: 'overdue', day: localDay(noon(3)), deliveryDate: localDay(noon(1)) },
      }),
    ]);
    const alert = await stream.waitFor(
      (message) => message.event === 'manager_alert' && message.data.caseId === id && !!message.data.kind,
      'the overdue manager_alert',
    );
    expect(alert.data).toEqual({
      title: RISK_ALERT_TEXTS.overdueTitle,
      body: RISK_ALERT_TEXTS.overdueBody(id, 'Olga Nowak', localDay(noon(1)), 'Digital Planning'),
      caseId: id,
      kind: 'overdue',
    });
    await eventually(
      () => smtp.to(MANAGER_EMAIL).some((mail) => mail.subject === `AlignerFlow: Case overdue (${id})`),
      15_000,
      'the overdue email',
    );
    // Only managers hear of it: the case's doctor, who has an address too, gets no such email.
    expect(smtp.to(DOCTOR_EMAIL).filter((mail) => /Case (at risk|overdue)/.test(mail.subject))).toEqual([]);
  });

  it('rebuilds the same read models from a log with at-risk alerts', async () => {
    const dataSource = lab.app.get(DataSource);
    const before = await sql(lab.databaseUrl, 'SELECT id, data, version FROM case_view ORDER BY id');
    const [{ n }] = await sql(
      lab.databaseUrl,
      `SELECT count(*)::int AS n FROM events WHERE type = 'CaseAtRisk'`,
    );
    expect(n).toBeGreaterThanOrEqual(4);
    const result = await new ProjectionRebuilder(dataSource, lab.app.get(EventStore)).run();
    expect(result).toMatchObject({ state: 'done' });
    expect(await sql(lab.databaseUrl, 'SELECT id, data, version FROM case_view ORDER BY id')).toEqual(before);
  });
});
