import { statSync } from 'node:fs';
import { join } from 'node:path';
import { DataSource } from 'typeorm';
import { EventStore } from '../backend/src/event-store/event-store';
import { createEventStore } from '../backend/src/event-store/event-store.module';
import { withTransaction } from '../backend/src/event-store/transactions';
import { CaseKeys } from '../backend/src/event-store/encryption/case-keys';
import {
  ENCRYPT_EVENTS_STEP,
  encryptStoredEvents,
} from '../backend/src/event-store/encryption/encrypt-stored-events';
import { loadMasterKey } from '../backend/src/event-store/encryption/master-key';
import { ProjectionRebuilder } from '../backend/src/rebuild/projection-rebuilder';
import { caseAt, createCase } from './support/case-road';
import { sql } from './support/helpers';
import type { ApiClient } from './support/http';
import { startTestApp, type TestApp } from './support/test-app';

/**
 * Patient data at rest (api.md, "Patient data"; backend/src/patient-data): the identifying fields
 * of a case's events are stored encrypted under the case's own key, and read back as written.
 */
const PATIENT = 'Zelda Quixotic-Marchbanks';
const NOTE = 'Gum line recedes near 31, mind the trim';
const PLAN_NOTE = 'Intrusion of 11 and 21 by 1.5 mm';

describe('per-case encryption of patient data', () => {
  let lab: TestApp;
  let admin: ApiClient;

  beforeAll(async () => {
    lab = await startTestApp();
    admin = await lab.login('admin');
  }, 60_000);
  afterAll(async () => {
    await lab?.close();
  });

  const rawEvents = async (caseId: string) =>
    (
      await sql(lab.databaseUrl, 'SELECT type, data::text AS data FROM events WHERE stream_id = $1', [
        `case-${caseId}`,
      ])
    )
      .map((row) => `${row.type} ${row.data}`)
      .join('\n');

  it('keeps a generated master key in DATA_DIR, readable by its owner alone', () => {
    expect(statSync(join(lab.dataDir, 'master.key')).mode & 0o777).toBe(0o600);
    expect(statSync(join(lab.dataDir, 'master.key')).size).toBe(32);
  });

  it('stores the name, notes and plan notes as ciphertext; every read gives them back', async () => {
    const created = await createCase(admin, { patientName: PATIENT, treatmentPlanNotes: PLAN_NOTE });
    expect((await admin.post(`/cases/${created.id}/notes`, { text: NOTE })).status).toBe(201);

    const stored = await rawEvents(created.id);
    // Each field marks its place in the event's one ciphertext.
    expect(stored).toMatch(/CaseCreated .*"patientName": \{"\$enc": \d+\}/);
    expect(stored).toMatch(/CaseCreated .*"\$sealed": "v1:[A-Za-z0-9+/=]+"/);
    for (const text of [PATIENT, NOTE, PLAN_NOTE, 'Zelda']) expect(stored).not.toContain(text);
    // The rest stays readable: what reports and the device record need is no secret.
    expect(stored).toContain(created.doctorName);

    const read = (await admin.get(`/cases/${created.id}`)).body;
    expect(read).toMatchObject({ patientName: PATIENT, treatmentPlanNotes: PLAN_NOTE });
    expect(read.notes.map((note: { text: string }) => note.text)).toContain(NOTE);
    const history = JSON.stringify((await admin.get(`/cases/${created.id}/history`)).body);
    for (const text of [PATIENT, NOTE, PLAN_NOTE]) expect(history).toContain(text);
    const [{ n }] = await sql(
      lab.databaseUrl,
      'SELECT count(*)::int AS n FROM case_keys WHERE case_id = $1',
      [created.id],
    );
    expect(n).toBe(1);
  });

  it('a replay of the log gives every case back as it was, with a fresh process cache', async () => {
    const clients = { admin, designer: await lab.login('designer'), 'dr.lee': await lab.login('dr.lee') };
    const done = await caseAt(clients, 'Doctor Approval', { patientName: PATIENT });
    const before = await sql(lab.databaseUrl, 'SELECT id, data FROM case_view ORDER BY id');
    const dataSource = await new DataSource({
      type: 'postgres',
      url: lab.databaseUrl,
      poolSize: 2,
    }).initialize();
    try {
      // A new CaseKeys: nothing cached, every key unwrapped from the table.
      const keys = new CaseKeys(dataSource, loadMasterKey(join(lab.dataDir, 'master.key')));
      const result = await new ProjectionRebuilder(dataSource, createEventStore(dataSource, keys)).run();
      expect(result.state).toBe('done');
    } finally {
      await dataSource.destroy();
    }
    expect(await sql(lab.databaseUrl, 'SELECT id, data FROM case_view ORDER BY id')).toEqual(before);
    expect((await admin.get(`/cases/${done.id}`)).body.patientName).toBe(PATIENT);
  });

  it('encrypts, once, the events an earlier version stored in plaintext', async () => {
    const id = 'CA-2019-001';
    const at = '2019-03-01T10:00:00.000Z';
    const metadata = JSON.stringify({ actor: { username: 'admin', role: 'Manager' }, correlationId: 'old' });
    const created = {
      id,
      patientName: PATIENT,
      doctorName: 'Dr. Old',
      clinicName: 'Old Clinic',
      priority: 'Normal',
      deliveryDate: null,
      treatmentPlanNotes: PLAN_NOTE,
      assignedDoctorUsername: null,
      files: [],
      price: null,
      upperSheets: null,
      lowerSheets: null,
      fee: null,
    };
    // As an earlier version appended them: plaintext data, the read model beside it.
    await sql(
      lab.databaseUrl,
      `INSERT INTO events (stream_id, stream_version, type, schema_version, data, metadata, recorded_at)
       VALUES ('case-${id}', 1, 'CaseCreated', 1, $1, $3, $4), ('case-${id}', 2, 'NoteAdded', 1, $2, $3, $4)`,
      [JSON.stringify(created), JSON.stringify({ text: NOTE }), metadata, at],
    );
    await sql(lab.databaseUrl, 'DELETE FROM data_steps WHERE name = $1', [ENCRYPT_EVENTS_STEP]);
    expect(await rawEvents(id)).toContain(PATIENT);

    const masterKeyFile = join(lab.dataDir, 'master.key');
    expect(await encryptStoredEvents(lab.databaseUrl, masterKeyFile)).toBe(2);
    const stored = await rawEvents(id);
    for (const text of [PATIENT, NOTE, PLAN_NOTE]) expect(stored).not.toContain(text);
    // Recorded: a second start changes nothing, and the rows still refuse updates.
    expect(await encryptStoredEvents(lab.databaseUrl, masterKeyFile)).toBe(0);
    await expect(
      sql(lab.databaseUrl, `UPDATE events SET data = '{}' WHERE stream_id = 'case-${id}'`),
    ).rejects.toThrow();

    // Read as the app reads a stream (its case_view row was never written: an old log alone).
    const events = await lab.app.get(EventStore).readStream(`case-${id}`);
    expect(events.map((event) => event.data)).toEqual([
      expect.objectContaining({ patientName: PATIENT, treatmentPlanNotes: PLAN_NOTE }),
      { text: NOTE },
    ]);
  });

  it('rotates the master key: every case key wrapped anew, the old key no longer opens them', async () => {
    const created = await createCase(admin, { patientName: PATIENT });
    const oldFile = join(lab.dataDir, 'master.key');
    const newFile = join(lab.dataDir, 'rotated.key');
    const dataSource = await new DataSource({
      type: 'postgres',
      url: lab.databaseUrl,
      poolSize: 2,
    }).initialize();
    try {
      const next = loadMasterKey(newFile);
      const rewrapped = await withTransaction(dataSource, (runner) =>
        new CaseKeys(dataSource, loadMasterKey(oldFile)).rewrapAll(next, runner),
      );
      const [{ n }] = await sql(lab.databaseUrl, 'SELECT count(*)::int AS n FROM case_keys');
      expect(rewrapped).toBe(n);
      const stream = `case-${created.id}`;
      const rotated = createEventStore(dataSource, new CaseKeys(dataSource, next));
      expect((await rotated.readStream(stream))[0].data.patientName).toBe(PATIENT);
      const stale = createEventStore(dataSource, new CaseKeys(dataSource, loadMasterKey(oldFile)));
      await expect(stale.readStream(stream)).rejects.toThrow(
        /wrapped under master key .* not the configured/,
      );
    } finally {
      await dataSource.destroy();
    }
  });
});
