import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { localDay, STATEMENT_TEXTS, type Case } from '@alignerflow/domain';
import { byUsername, caseAt, walkCase } from './support/case-road';
import type { ApiClient } from './support/http';
import { startTestApp, type TestApp } from './support/test-app';

/** YYYY-MM-DD `days` from today (the lab's day). */
const dayIn = (days: number) => {
  const now = new Date();
  return localDay(new Date(now.getFullYear(), now.getMonth(), now.getDate() + days));
};

describe('devices: the demo lab, the device record and the statement', () => {
  let lab: TestApp;
  let admin: ApiClient, tech: ApiClient, rep: ApiClient, drLee: ApiClient, drPatel: ApiClient;
  let road: Record<string, ApiClient>;
  const workDir = mkdtempSync(join(tmpdir(), 'af-statement-'));

  beforeAll(async () => {
    lab = await startTestApp();
    [admin, tech, rep, drLee, drPatel] = await Promise.all(
      ['admin', 'tech', 'rep', 'dr.lee', 'dr.patel'].map((name) => lab.login(name)),
    );
    road = byUsername(admin, drLee);
    for (const lot of [
      { kind: 'resin', product: 'Model resin', lotNumber: 'RES-100', supplier: 'Acme', expiresOn: dayIn(60) },
      { kind: 'sheet', product: 'PETG 0.75 mm', lotNumber: 'PETG-200' },
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
    // The sample cases printed with it: CA-2024-004, CA-2024-077 and the demo's billing cases.
    expect(recall.map((row) => row.caseId).sort()).toEqual([
      'CA-2024-004',
      'CA-2024-077',
      'CA-2024-101',
      'CA-2024-102',
      'CA-2024-103',
      'CA-2024-104',
    ]);
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

    it('keeps the device record through an erasure, the patient given by the case id only', async () => {
      const completed = await walkCase(road, shipped.id, 'Completed', shipped.status);
      const before = (await admin.get(`/cases/${shipped.id}/device-record`)).body;
      expect(before.patientCode).toBe(`${shipped.id} (L.O.)`);
      expect((await admin.post(`/cases/${completed.id}/erase`, { reason: 'patient request' })).status).toBe(
        200,
      );

      const after = await admin.get(`/cases/${shipped.id}/device-record`);
      expect(after.status).toBe(200);
      expect(after.body).toEqual({ ...before, patientCode: shipped.id });
      expect(JSON.stringify(after.body)).not.toMatch(/Lena|L\.O\./);
      const response = await fetch(`${lab.apiUrl}/cases/${shipped.id}/statement.pdf`, {
        headers: { authorization: `Bearer ${admin.token}` },
      });
      expect(response.status).toBe(200);
      const file = join(workDir, 'statement-erased.pdf');
      writeFileSync(file, Buffer.from(await response.arrayBuffer()));
      const text = execFileSync('pdftotext', [file, '-']).toString().replace(/\s+/g, ' ');
      expect(text).toContain(STATEMENT_TEXTS.patientLine(shipped.id));
      expect(text).not.toContain('L.O.');
    });
  });
});
