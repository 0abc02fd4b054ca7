import { DEVICE_TEXTS, localDay, type Case } from '@alignerflow/domain';
import { DataSource } from 'typeorm';
import { EventStore } from '../backend/src/event-store/event-store';
import { ProjectionRebuilder } from '../backend/src/rebuild/projection-rebuilder';
import { byUsername, caseAt } from './support/case-road';
import { sql } from './support/helpers';
import type { ApiClient } from './support/http';
import { startTestApp, type TestApp } from './support/test-app';

/** YYYY-MM-DD `days` from today (the lab's day). */
const dayIn = (days: number) => {
  const now = new Date();
  return localDay(new Date(now.getFullYear(), now.getMonth(), now.getDate() + days));
};

describe('materials: lots, lots on advance, recall, rebuild', () => {
  let lab: TestApp;
  let admin: ApiClient, tech: ApiClient, rep: ApiClient, designer: ApiClient, drLee: ApiClient;
  let road: Record<string, ApiClient>;

  beforeAll(async () => {
    lab = await startTestApp();
    [admin, tech, rep, designer, drLee] = await Promise.all(
      ['admin', 'tech', 'rep', 'designer', 'dr.lee'].map((name) => lab.login(name)),
    );
    road = byUsername(admin, drLee);
    for (const lot of [
      { kind: 'resin', product: 'Model resin', lotNumber: 'RES-100', supplier: 'Acme', expiresOn: dayIn(60) },
      { kind: 'sheet', product: 'PETG 0.75 mm', lotNumber: 'PETG-200' },
      { kind: 'sheet', product: 'PETG 0.75 mm', lotNumber: 'OLD-1', expiresOn: dayIn(-1) },
    ]) {
      expect((await tech.post('/materials/lots', lot)).status).toBe(201);
    }
  }, 60_000);

  afterAll(async () => {
    await lab?.close();
  });

  const advance = (client: ApiClient, item: Case, body: object = {}) =>
    client.post<Case>(`/cases/${item.id}/advance`, { fromStatus: item.status, ...body });
  describe('the lots register', () => {
    it('registers a lot with who and when, and lists it to staff', async () => {
      const answer = await admin.post('/materials/lots', {
        kind: 'other',
        product: 'Aligner case',
        lotNumber: 'BOX-9',
        supplier: 'Boxes Ltd',
        expiresOn: '2030-12-31',
      });
      expect(answer.status).toBe(201);
      expect(answer.body).toEqual({
        lotNumber: 'BOX-9',
        kind: 'other',
        product: 'Aligner case',
        supplier: 'Boxes Ltd',
        expiresOn: '2030-12-31',
        addedAt: expect.any(String),
        addedBy: 'admin',
      });
      const list = await designer.get('/materials/lots');
      expect(list.status).toBe(200);
      expect(list.body.map((lot: { lotNumber: string }) => lot.lotNumber)).toEqual(
        expect.arrayContaining(['BOX-9', 'RES-100', 'PETG-200', 'OLD-1']),
      );
    });

    it('refuses a lot number already registered (409), bad input (400) and the wrong roles (403)', async () => {
      const again = await tech.post('/materials/lots', {
        kind: 'resin',
        product: 'Resin',
        lotNumber: 'res-100',
      });
      expect(again).toMatchObject({ status: 409, body: { error: 'Lot res-100 is already registered.' } });
      const badKind = await tech.post('/materials/lots', { kind: 'glue', product: 'Glue', lotNumber: 'G-1' });
      expect(badKind).toMatchObject({ status: 400, body: { error: DEVICE_TEXTS.lotKind } });
      const badDate = await tech.post('/materials/lots', {
        kind: 'resin',
        product: 'R',
        lotNumber: 'G-2',
        expiresOn: '31/12/2030',
      });
      expect(badDate).toMatchObject({ status: 400, body: { error: DEVICE_TEXTS.expiresOn } });
      expect(
        (await rep.post('/materials/lots', { kind: 'resin', product: 'R', lotNumber: 'G-3' })).status,
      ).toBe(403);
      expect((await drLee.get('/materials/lots')).status).toBe(403);
      expect(
        (await tech.get('/materials/lots')).body.some((lot: { lotNumber: string }) =>
          lot.lotNumber.startsWith('G-'),
        ),
      ).toBe(false);
    });
  });
  describe('lots on advance', () => {
    it('keeps the lots and machine of Model Printing and Thermoforming in the history and the device record', async () => {
      const printing = await caseAt(road, 'Model Printing', { patientName: 'Ana Lima' });
      const printed = await advance(tech, printing, { lots: ['res-100'], machine: 'Form 4' });
      expect(printed.status).toBe(200);
      const formed = await advance(tech, printed.body, { lots: ['PETG-200'] });
      expect(formed.status).toBe(200);
      expect(formed.body.stageRecords?.slice(-2)).toEqual([
        {
          status: 'Model Printing',
          completedAt: expect.any(String),
          by: 'tech',
          lots: ['RES-100'],
          machine: 'Form 4',
        },
        {
          status: 'Thermoforming',
          completedAt: expect.any(String),
          by: 'tech',
          lots: ['PETG-200'],
          machine: null,
        },
      ]);
      const history = await admin.get(`/cases/${printing.id}/history`);
      expect(
        history.body
          .filter((entry: { type: string }) => entry.type === 'StageAdvanced')
          .slice(-2)
          .map((entry: { data: object }) => entry.data),
      ).toEqual([
        { from: 'Model Printing', to: 'Thermoforming', lots: ['RES-100'], machine: 'Form 4' },
        { from: 'Thermoforming', to: 'Trimming & Polishing', lots: ['PETG-200'] },
      ]);
    });

    it('refuses an unknown lot and an expired lot with 400, and changes nothing', async () => {
      const printing = await caseAt(road, 'Model Printing');
      expect(await advance(tech, printing, { lots: ['NOPE-1'] })).toMatchObject({
        status: 400,
        body: { error: 'Unknown lot NOPE-1.' },
      });
      expect(await advance(tech, printing, { lots: ['OLD-1'] })).toMatchObject({
        status: 400,
        body: { error: `Lot OLD-1 expired on ${dayIn(-1)}.` },
      });
      expect(await advance(tech, printing, { lots: 'RES-100' })).toMatchObject({ status: 400 });
      expect((await admin.get(`/cases/${printing.id}`)).body).toMatchObject({
        status: 'Model Printing',
        version: printing.version,
      });
    });

    it('with requireLots, completing Model Printing or Thermoforming without a lot answers 409', async () => {
      expect((await tech.put('/materials/settings', { requireLots: true })).status).toBe(403);
      expect((await admin.put('/materials/settings', { requireLots: true })).body).toMatchObject({
        requireLots: true,
      });
      try {
        const printing = await caseAt(road, 'Model Printing');
        expect(await advance(tech, printing)).toMatchObject({
          status: 409,
          body: { error: DEVICE_TEXTS.lotRequired },
        });
        const printed = await advance(tech, printing, { lots: ['RES-100'] });
        expect(printed.status).toBe(200);
        expect(await advance(tech, printed.body)).toMatchObject({
          status: 409,
          body: { error: DEVICE_TEXTS.lotRequired },
        });
        const formed = await advance(tech, printed.body, { lots: ['PETG-200'] });
        // Trimming & Polishing needs no lot.
        expect((await advance(tech, formed.body)).status).toBe(200);
      } finally {
        expect((await admin.put('/materials/settings', { requireLots: false })).status).toBe(200);
      }
      expect((await tech.get('/materials/settings')).body.requireLots).toBe(false);
      expect((await admin.put('/materials/settings', { transitDays: 31 })).body).toEqual({
        error: DEVICE_TEXTS.transitDays,
      });
    });
  });
  describe('recall', () => {
    it('lists every case a lot went into, as JSON and as a formula-safe CSV, to Managers only', async () => {
      expect(
        (await admin.post('/materials/lots', { kind: 'resin', product: 'Resin', lotNumber: 'RECALL-7' }))
          .status,
      ).toBe(201);
      const first = await caseAt(road, 'Model Printing', { clinicName: '=HYPERLINK("x")' });
      const second = await caseAt(road, 'Model Printing', { clinicName: 'North Clinic' });
      const other = await caseAt(road, 'Model Printing');
      for (const item of [first, second])
        expect((await advance(tech, item, { lots: ['RECALL-7'] })).status).toBe(200);
      expect((await advance(tech, other, { lots: ['RES-100'] })).status).toBe(200);

      const recall = await admin.get('/materials/lots/recall-7/cases');
      expect(recall.status).toBe(200);
      expect(recall.body).toEqual(
        [first, second].map((item) => ({
          caseId: item.id,
          doctorUsername: 'dr.lee',
          clinicName: item.clinicName,
          status: 'Thermoforming',
          stage: 'Model Printing',
          usedAt: expect.any(String),
        })),
      );
      const csv = await admin.get('/materials/lots/RECALL-7/cases.csv');
      expect(csv.status).toBe(200);
      expect(csv.headers.get('content-type')).toContain('text/csv');
      const lines = String(csv.body).trim().split('\r\n');
      expect(lines[0]).toBe('caseId,doctorUsername,clinicName,status,stage,usedAt');
      expect(lines).toHaveLength(3);
      expect(lines[1]).toContain(`${first.id},dr.lee,"'=HYPERLINK(""x"")",Thermoforming,Model Printing,`);
      expect((await tech.get('/materials/lots/RECALL-7/cases')).status).toBe(403);
      expect(await admin.get('/materials/lots/NONE-0/cases')).toMatchObject({
        status: 404,
        body: { error: 'Unknown lot NONE-0.' },
      });
    });
  });
  it('rebuilds the same read models from a log with lots, shipments and receipts', async () => {
    const delivery = await caseAt(road, 'Delivery to Doctor');
    expect(
      (await rep.post(`/cases/${delivery.id}/shipments`, { carrier: 'other', trackingNumber: 'VAN 3' }))
        .status,
    ).toBe(200);
    expect((await drLee.post(`/cases/${delivery.id}/received`)).status).toBe(200);
    const before = await sql(lab.databaseUrl, 'SELECT id, data, version FROM case_view ORDER BY id');
    expect(JSON.stringify(before)).toContain('"lots":["RES-100"]');
    const result = await new ProjectionRebuilder(lab.app.get(DataSource), lab.app.get(EventStore)).run();
    expect(result).toMatchObject({ state: 'done' });
    expect(await sql(lab.databaseUrl, 'SELECT id, data, version FROM case_view ORDER BY id')).toEqual(before);
    expect((await admin.get('/materials/lots/RES-100/cases')).body.length).toBeGreaterThan(0);
  });
});
