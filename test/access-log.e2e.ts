import type { Invoice } from '@alignerflow/domain';
import { Client } from 'pg';
import { billingSettled } from './support/billing';
import { download, PNG, upload } from './support/files';
import { sql } from './support/helpers';
import type { ApiClient } from './support/http';
import { startTestApp, type TestApp } from './support/test-app';

/**
 * The access log (api.md, "Patient data"): every read of a case's data and every export, apart
 * from the case's events, sealed in its own hash chain. The demo lab's CA-2024-077 is dr.lee's
 * shipped case (its statement can be printed) and RES-2024-118 a resin lot used on it.
 */
const CASE = 'CA-2024-077';

describe('access log', () => {
  let lab: TestApp;
  let admin: ApiClient, rep: ApiClient, drLee: ApiClient;

  beforeAll(async () => {
    lab = await startTestApp();
    [admin, rep, drLee] = await Promise.all(['admin', 'rep', 'dr.lee'].map((name) => lab.login(name)));
  }, 60_000);

  afterAll(async () => {
    await lab?.close();
  });

  const caseLog = async () => {
    const answer = await admin.get(`/cases/${CASE}/access-log`);
    expect(answer.status).toBe(200);
    return answer.body as { at: string; username: string; role: string; action: string; detail: string }[];
  };

  it('records a doctor reading their own case and its history, newest first, apart from the events', async () => {
    const eventsBefore = await sql(lab.databaseUrl, 'SELECT count(*)::int AS n FROM events');
    expect((await drLee.get(`/cases/${CASE}`)).status).toBe(200);
    expect((await drLee.get(`/cases/${CASE}/history`)).status).toBe(200);
    const entries = await caseLog();
    expect(entries.slice(0, 2)).toEqual([
      {
        at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
        username: 'dr.lee',
        role: 'Doctor',
        action: 'view',
        detail: 'history',
        address: expect.stringMatching(/127\.0\.0\.1/),
      },
      expect.objectContaining({ username: 'dr.lee', role: 'Doctor', action: 'view', detail: 'case' }),
    ]);
    expect(Date.parse(entries[0].at)).toBeGreaterThanOrEqual(Date.parse(entries[1].at));
    // A read is no change of the case: the log of events did not grow.
    expect(await sql(lab.databaseUrl, 'SELECT count(*)::int AS n FROM events')).toEqual(eventsBefore);
  });

  it('records nothing for a read that was refused', async () => {
    const drPatel = await lab.login('dr.patel');
    const before = (await caseLog()).length;
    expect((await drPatel.get(`/cases/${CASE}`)).status).toBe(404);
    expect(await caseLog()).toHaveLength(before);
  });

  it('records a download of a case file and a printed statement', async () => {
    const stored = await upload(rep, PNG, '=1+2 scan.png', { caseId: CASE, type: 'Photo' });
    expect(stored.status).toBe(201);
    expect((await download(rep, stored.body.url)).status).toBe(200);
    const statement = await fetch(`${lab.apiUrl}/cases/${CASE}/statement.pdf`, {
      headers: { authorization: `Bearer ${drLee.token}` },
    });
    expect(statement.status).toBe(200);
    expect((await caseLog()).slice(0, 2)).toEqual([
      expect.objectContaining({ username: 'dr.lee', action: 'print', detail: 'statement.pdf' }),
      expect.objectContaining({
        username: 'rep',
        role: 'Representative',
        action: 'download',
        detail: '=1+2 scan.png',
      }),
    ]);
  });

  it('records every export once, naming what was exported, with no case', async () => {
    expect((await admin.get('/backup')).status).toBe(200);
    expect((await admin.get('/events/export')).status).toBe(200);
    expect((await admin.get('/reports/cases.csv?from=2026-01-01&to=2026-01-31')).status).toBe(200);
    expect((await admin.get('/reports/doctors.csv?from=2026-01-01&to=2026-01-31')).status).toBe(200);
    expect((await admin.get('/materials/lots/RES-2024-118/cases.csv')).status).toBe(200);
    const exports = await admin.get('/access-log?action=export');
    expect(exports.status).toBe(200);
    expect(exports.body.map((entry: { detail: string }) => entry.detail)).toEqual([
      'recall RES-2024-118.csv',
      'report doctors-2026-01-01-2026-01-31.csv',
      'report cases-2026-01-01-2026-01-31.csv',
      'events export',
      'backup',
    ]);
    expect(exports.body[0]).toMatchObject({ username: 'admin', role: 'Manager', caseId: null });
  });

  it('records billing reads: an invoice PDF, a monthly statement PDF and the accountant export', async () => {
    await billingSettled(lab.databaseUrl);
    const invoices = (await admin.get('/invoices')).body as Invoice[];
    const invoice = invoices.find((item) => item.doctorUsername === 'dr.lee')!;
    const month = invoice.issuedAt.slice(0, 7);
    for (const path of [`/invoices/${invoice.number}.pdf`, `/billing/statements/dr.lee.pdf?month=${month}`]) {
      const answer = await fetch(`${lab.apiUrl}${path}`, {
        headers: { authorization: `Bearer ${drLee.token}` },
      });
      expect([path, answer.status]).toEqual([path, 200]);
    }
    expect((await admin.get('/billing/export.csv?format=xero&from=2026-01-01')).status).toBe(200);
    const recent = (await admin.get('/access-log')).body.slice(0, 3);
    expect(recent).toEqual([
      expect.objectContaining({
        username: 'admin',
        action: 'export',
        detail: 'billing invoices-xero.csv, 2026-01-01 to today',
        caseId: null,
      }),
      expect.objectContaining({
        username: 'dr.lee',
        action: 'print',
        detail: `statement-dr.lee-${month}.pdf`,
        caseId: null,
      }),
      expect.objectContaining({
        username: 'dr.lee',
        action: 'print',
        detail: `invoice ${invoice.number}.pdf`,
        caseId: invoice.caseId,
      }),
    ]);
  });

  it('filters across cases by username, action and whole days, and refuses bad filters', async () => {
    const lee = await admin.get('/access-log?username=DR.LEE');
    expect(lee.body.length).toBeGreaterThanOrEqual(5);
    expect(new Set(lee.body.map((entry: { username: string }) => entry.username))).toEqual(
      new Set(['dr.lee']),
    );
    const today = new Date().toISOString().slice(0, 10);
    const dayAfter = new Date(Date.now() + 2 * 86_400_000).toISOString().slice(0, 10);
    expect((await admin.get(`/access-log?from=${dayAfter}`)).body).toEqual([]);
    const yesterday = new Date(Date.now() - 86_400_000).toISOString().slice(0, 10);
    expect((await admin.get(`/access-log?from=${yesterday}&to=${today}&action=download`)).body).toEqual([
      expect.objectContaining({ username: 'rep', caseId: CASE, detail: '=1+2 scan.png' }),
    ]);
    expect(await admin.get('/access-log?action=edit')).toMatchObject({
      status: 400,
      body: { error: 'action must be one of view, download, print, export (got "edit").' },
    });
    expect(await admin.get('/access-log?from=26-01-01')).toMatchObject({
      status: 400,
      body: { error: 'from must be a date as YYYY-MM-DD (got "26-01-01").' },
    });
    expect(await admin.get('/access-log?from=2026-02-02&to=2026-02-01')).toMatchObject({
      status: 400,
      body: { error: 'from must be on or before to.' },
    });
  });

  it('is for managers only, and 404 for an unknown case', async () => {
    for (const client of [rep, drLee]) {
      for (const path of [`/cases/${CASE}/access-log`, '/access-log', '/access-log.csv']) {
        expect(await client.get(path)).toMatchObject({
          status: 403,
          body: { error: 'The access log is for managers.' },
        });
      }
    }
    expect((await admin.get('/cases/CA-1999-001/access-log')).status).toBe(404);
    expect((await lab.anonymous.get('/access-log')).status).toBe(401);
  });

  it('downloads the log as a formula-safe CSV, itself logged as an export', async () => {
    const answer = await admin.get('/access-log.csv?action=download');
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toMatch(/^text\/csv/);
    const lines = (answer.body as string).trimEnd().split('\r\n');
    expect(lines[0]).toBe('at,username,role,action,detail,address,caseId');
    expect(lines).toHaveLength(2);
    expect(lines[1]).toMatch(/^[^,]+,rep,Representative,download,'=1\+2 scan\.png,[^,]+,CA-2024-077$/);
    expect((await admin.get('/access-log?action=export')).body[0]).toMatchObject({
      detail: 'access-log.csv',
    });
  });

  it('is sealed: verify covers it and names a changed entry', async () => {
    const verified = await admin.get('/audit/verify');
    expect(verified.status).toBe(200);
    const [{ n }] = await sql(lab.databaseUrl, 'SELECT count(*)::int AS n FROM access_log');
    expect(n).toBeGreaterThanOrEqual(10);
    expect(verified.body).toMatchObject({
      ok: true,
      events: expect.any(Number),
      accessLog: { ok: true, entries: n, firstBroken: null },
    });

    // The table refuses a change; an attacker with the triggers off is caught by the chain.
    await expect(sql(lab.databaseUrl, "UPDATE access_log SET username = 'x' WHERE seq = 3")).rejects.toThrow(
      /append-only/,
    );
    const attacker = new Client({ connectionString: lab.databaseUrl });
    await attacker.connect();
    try {
      await attacker.query('BEGIN');
      await attacker.query('SET LOCAL session_replication_role = replica');
      await attacker.query("UPDATE access_log SET address = '10.9.9.9' WHERE seq = 3");
      await attacker.query('COMMIT');
    } finally {
      await attacker.end();
    }
    const broken = await admin.get('/audit/verify');
    expect(broken.body.accessLog).toEqual({ ok: false, entries: 2, firstBroken: '3' });
    // The events' chain is untouched.
    expect(broken.body).toMatchObject({ ok: true, firstBroken: null });
  });
});
