import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DEVICE_TEXTS, localDay, STATEMENT_TEXTS, type Case } from '@alignerflow/domain';
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

describe('materials: lots, lots on advance, recall, device record, statement', () => {
  let lab: TestApp;
  let admin: ApiClient,
    tech: ApiClient,
    rep: ApiClient,
    designer: ApiClient,
    drLee: ApiClient,
    drPatel: ApiClient;
  let road: Record<string, ApiClient>;
  const workDir = mkdtempSync(join(tmpdir(), 'af-statement-'));

  beforeAll(async () => {
    lab = await startTestApp();
    [admin, tech, rep, designer, drLee, drPatel] = await Promise.all(
      ['admin', 'tech', 'rep', 'designer', 'dr.lee', 'dr.patel'].map((name) => lab.login(name)),
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
    rmSync(workDir, { recursive: true, force: true });
  });

  const advance = (client: ApiClient, item: Case, body: object = {}) =>
    client.post<Case>(`/cases/${item.id}/advance`, { fromStatus: item.status, ...body });

  it('has the demo lab: the shipped sample case with its lots, shipment, receipt and statement', async () => {
    const record = await drLee.get('/cases/CA-2024-077/device-record');
    expect(record.status).toBe(200);
    expect(record.body).toMatchObject({
      patientCode: 'CA-2024-077 (S.B.)',
      manufacturer: { name: 'AlignerFlow Demo Lab' },
      shipments: [{ carrier: 'ups', trackingNumber: '1Z999AA10123456784', by: 'rep' }],
    });
    expect(record.body.stages).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ status: 'Model Printing', by: 'tech', lots: ['RES-2024-118'] }),
        expect.objectContaining({ status: 'Thermoforming', by: 'tech', lots: ['PETG-2024-0412'] }),
      ]),
    );
    expect((await drLee.get('/cases/CA-2024-077')).body.receivedAt).toEqual(expect.any(String));
    const statement = await fetch(`${lab.apiUrl}/cases/CA-2024-077/statement.pdf`, {
      headers: { authorization: `Bearer ${drLee.token}` },
    });
    expect(statement.status).toBe(200);
    const recall = (await admin.get('/materials/lots/RES-2024-118/cases')).body as { caseId: string }[];
    expect(recall.map((row) => row.caseId).sort()).toEqual(['CA-2024-004', 'CA-2024-077']);
  });

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

  describe('device record and statement', () => {
    let shipped: Case;

    beforeAll(async () => {
      expect(
        (
          await admin.put('/materials/settings', {
            manufacturerName: 'Bright Aligner Lab',
            manufacturerAddress: '12 Harbour Road\nDublin',
            responsiblePerson: 'Maria Keane, Regulatory Affairs',
          })
        ).status,
      ).toBe(200);
      const printing = await caseAt(road, 'Model Printing', {
        patientName: 'Lena Ortiz',
        upperSheets: '14',
        lowerSheets: '12',
      });
      const printed = await advance(tech, printing, { lots: ['RES-100'], machine: 'Form 4' });
      let current = (await advance(tech, printed.body, { lots: ['PETG-200'] })).body;
      current = (await advance(tech, current)).body;
      expect(current.status).toBe('Quality Check');
      expect(await admin.get(`/cases/${current.id}/statement.pdf`)).toMatchObject({
        status: 409,
        body: { error: 'The statement is issued after Quality Check.' },
      });
      current = (await advance(tech, current)).body;
      const answer = await rep.post<Case>(`/cases/${current.id}/shipments`, {
        carrier: 'ups',
        trackingNumber: '1Z999AA10123456784',
      });
      expect(answer.status).toBe(200);
      shipped = answer.body;
    });

    it("gives staff and the case's doctor the device record; another doctor gets 404", async () => {
      const record = await drLee.get(`/cases/${shipped.id}/device-record`);
      expect(record.status).toBe(200);
      expect(record.body).toMatchObject({
        caseId: shipped.id,
        patientCode: `${shipped.id} (L.O.)`,
        prescriber: { name: shipped.doctorName, clinic: shipped.clinicName },
        manufacturer: { name: 'Bright Aligner Lab', address: '12 Harbour Road\nDublin' },
        device: { type: 'Clear Aligner', upperSheets: 14, lowerSheets: 12, steps: 14 },
        qualityCheck: { by: 'tech', at: expect.any(String) },
        shipments: [
          {
            carrier: 'ups',
            trackingNumber: '1Z999AA10123456784',
            trackingUrl: 'https://www.ups.com/track?tracknum=1Z999AA10123456784',
            shippedAt: expect.any(String),
            by: 'rep',
          },
        ],
      });
      expect(record.body.stages).toEqual(
        expect.arrayContaining([
          expect.objectContaining({
            status: 'Model Printing',
            by: 'tech',
            lots: ['RES-100'],
            machine: 'Form 4',
          }),
          expect.objectContaining({ status: 'Thermoforming', lots: ['PETG-200'] }),
        ]),
      );
      expect(JSON.stringify(record.body)).not.toContain('Lena');
      expect((await drPatel.get(`/cases/${shipped.id}/device-record`)).status).toBe(404);
      expect((await drPatel.get(`/cases/${shipped.id}/statement.pdf`)).status).toBe(404);
    });

    it.each(['A4', 'letter'])(
      'issues the statement as one %s page with every Annex XIII item',
      async (paper) => {
        const response = await fetch(`${lab.apiUrl}/cases/${shipped.id}/statement.pdf?paper=${paper}`, {
          headers: { authorization: `Bearer ${drLee.token}` },
        });
        expect(response.status).toBe(200);
        expect(response.headers.get('content-type')).toBe('application/pdf');
        const file = join(workDir, `statement-${paper}.pdf`);
        writeFileSync(file, Buffer.from(await response.arrayBuffer()));
        const info = execFileSync('pdfinfo', [file]).toString();
        expect(info).toMatch(/Pages:\s+1\n/);
        expect(info).toMatch(
          paper === 'A4'
            ? /Page size:\s+595\.28 x 841\.89 pts \(A4\)/
            : /Page size:\s+612 x 792 pts \(letter\)/,
        );
        const text = execFileSync('pdftotext', ['-layout', file, '-']).toString().replace(/\s+/g, ' ');
        for (const expected of [
          STATEMENT_TEXTS.title,
          'Bright Aligner Lab',
          '12 Harbour Road',
          `Clear Aligner, custom-made, case ${shipped.id}.`,
          'Material lots: RES-100, PETG-200.',
          STATEMENT_TEXTS.patientLine(`${shipped.id} (L.O.)`),
          `${shipped.doctorName}, ${shipped.clinicName}.`,
          'Sequential clear aligners in 14 steps: 14 upper and 12 lower.',
          STATEMENT_TEXTS.conformsFully,
          STATEMENT_TEXTS.noSubstances,
          `Dublin, ${localDay(new Date())}`,
          'Maria Keane, Regulatory Affairs',
        ]) {
          expect(text).toContain(expected);
        }
        expect(text).not.toContain('Lena');
      },
    );

    it("names the requirements not met from the lab's conformity text", async () => {
      expect(
        (
          await admin.put('/materials/settings', {
            conformityText: 'Annex I, 23.4 (f): the label is in English only.',
          })
        ).status,
      ).toBe(200);
      try {
        const response = await fetch(`${lab.apiUrl}/cases/${shipped.id}/statement.pdf`, {
          headers: { authorization: `Bearer ${admin.token}` },
        });
        const file = join(workDir, 'statement-exceptions.pdf');
        writeFileSync(file, Buffer.from(await response.arrayBuffer()));
        const text = execFileSync('pdftotext', [file, '-']).toString().replace(/\s+/g, ' ');
        expect(text).toContain(STATEMENT_TEXTS.conformsExcept);
        expect(text).toContain('the label is in English only.');
        // The lab's longest texts still make one page: the type shrinks to fit.
        const long =
          `Annex I, 23.4: ${'the instructions are given in English and Irish only; '.repeat(36)}`.slice(
            0,
            2000,
          );
        expect((await admin.put('/materials/settings', { conformityText: long })).status).toBe(200);
        const longFile = join(workDir, 'statement-long.pdf');
        const again = await fetch(`${lab.apiUrl}/cases/${shipped.id}/statement.pdf?paper=letter`, {
          headers: { authorization: `Bearer ${admin.token}` },
        });
        writeFileSync(longFile, Buffer.from(await again.arrayBuffer()));
        expect(execFileSync('pdfinfo', [longFile]).toString()).toMatch(/Pages:\s+1\n/);
        expect(execFileSync('pdftotext', [longFile, '-']).toString()).toContain('Maria Keane');
      } finally {
        await admin.put('/materials/settings', { conformityText: '' });
      }
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
