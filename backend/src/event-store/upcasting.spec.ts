import { DataSource } from 'typeorm';
import { useTestDataSource } from '../../../test/support/data-source.js';
import { eventually } from '../../../test/support/helpers.js';
import { startTestApp, type TestApp } from '../../../test/support/test-app.js';
import { ProjectionRebuildService } from '../rebuild/projection-rebuild.service.js';
import { EventStore, type RecordedEvent } from './event-store.js';
import { createEventStore } from './event-store.module.js';

const actor = { username: 'admin', role: 'Manager' };

/** The shapes of 2023: CaseCreated v1 had `dueDate` and no fee, NoteAdded v1 stored `note`. */
async function insertOldShapes(dataSource: DataSource, caseId: string): Promise<void> {
  const metadata = JSON.stringify({ actor, correlationId: 'legacy' });
  await dataSource.query(
    `INSERT INTO events (stream_id, stream_version, type, schema_version, data, metadata, recorded_at) VALUES
       ($1, 1, 'CaseCreated', 1, $2, $4, '2023-03-01T09:00:00Z'),
       ($1, 2, 'NoteAdded', 1, $3, $4, '2023-03-02T09:00:00Z')`,
    [
      `case-${caseId}`,
      JSON.stringify({
        id: caseId,
        patientName: 'Old Format',
        doctorName: 'Dr. Sarah Lee',
        clinicName: 'Bright Smiles Dental',
        priority: 'Normal',
        dueDate: '2023-03-20',
        treatmentPlanNotes: '',
        assignedDoctorUsername: null,
        files: [],
        price: 1200,
        upperSheets: 12,
        lowerSheets: 10,
      }),
      JSON.stringify({ note: 'Written in the old shape.' }),
      metadata,
    ],
  );
}

describe('event upcasting', () => {
  describe('in the event store', () => {
    const database = useTestDataSource(10);
    let store: EventStore;

    beforeAll(async () => {
      store = createEventStore(database.dataSource);
      await insertOldShapes(database.dataSource, 'CA-2023-101');
    });

    it('reads old-shape events back in the current shape, by stream and from the whole log', async () => {
      const stream = await store.readStream('case-CA-2023-101');
      expect(stream.map(({ type, schemaVersion }) => ({ type, schemaVersion }))).toEqual([
        { type: 'CaseCreated', schemaVersion: 2 },
        { type: 'NoteAdded', schemaVersion: 2 },
      ]);
      expect(stream[0].data).toMatchObject({ deliveryDate: '2023-03-20', fee: null, price: 1200 });
      expect(stream[0].data).not.toHaveProperty('dueDate');
      expect(stream[1].data).toEqual({ text: 'Written in the old shape.' });

      // The whole log is read in commit-safe order: another session's open transaction delays it.
      let all: RecordedEvent[] = [];
      await eventually(async () => (all = await store.readAll(null, 10)).length >= stream.length, 60_000);
      expect(all.map((event) => event.data)).toEqual(stream.map((event) => event.data));
    });

    it('writes new events with the current schema version and never changes the stored old ones', async () => {
      const [appended] = await store.append(
        'case-CA-2023-101',
        2,
        [{ type: 'NoteAdded', data: { text: 'A new note.' } }],
        { actor, correlationId: 'now' },
      );
      expect(appended.schemaVersion).toBe(2);
      const rows = await database.dataSource.query(
        "SELECT type, schema_version, data FROM events WHERE stream_id = 'case-CA-2023-101' ORDER BY stream_version",
      );
      expect(rows).toEqual([
        { type: 'CaseCreated', schema_version: 1, data: expect.objectContaining({ dueDate: '2023-03-20' }) },
        { type: 'NoteAdded', schema_version: 1, data: { note: 'Written in the old shape.' } },
        { type: 'NoteAdded', schema_version: 2, data: { text: 'A new note.' } },
      ]);
      // Event types without a newer schema stay at version 1.
      const [other] = await store.append('case-CA-2023-101', 3, [{ type: 'CaseHeld', data: {} }], {
        actor,
        correlationId: 'now',
      });
      expect(other.schemaVersion).toBe(1);
    });

    it('without a codec, reads what is stored', async () => {
      const plain = new EventStore(database.dataSource);
      const [created, note] = await plain.readStream('case-CA-2023-101');
      expect(created).toMatchObject({
        schemaVersion: 1,
        data: expect.objectContaining({ dueDate: '2023-03-20' }),
      });
      expect(note).toMatchObject({ schemaVersion: 1, data: { note: 'Written in the old shape.' } });
    });
  });

  describe('through the API', () => {
    let lab: TestApp;

    beforeAll(async () => {
      lab = await startTestApp();
      await insertOldShapes(lab.app.get(DataSource), 'CA-2023-102');
      // Written behind the commands' back: the read models learn of it by replay.
      await lab.app.get(ProjectionRebuildService).run();
    });
    afterAll(() => lab?.close());

    it('shows the case, its history in the current shape, and decides commands on the folded state', async () => {
      const admin = await lab.login('admin');
      const found = await admin.get('/cases/CA-2023-102');
      expect(found.status).toBe(200);
      expect(found.body).toMatchObject({
        patientName: 'Old Format',
        status: 'Pending Approval',
        deliveryDate: '2023-03-20',
        fee: null,
        version: 2,
      });
      expect(found.body.notes.map((note: { text: string }) => note.text)).toEqual([
        'Case created by Manager and submitted for approval.',
        'Written in the old shape.',
      ]);

      const history = await admin.get('/cases/CA-2023-102/history');
      expect(history.status).toBe(200);
      expect(history.body.map((entry: { type: string }) => entry.type)).toEqual(['CaseCreated', 'NoteAdded']);
      expect(history.body[0].data).toMatchObject({ deliveryDate: '2023-03-20', fee: null });
      expect(history.body[0].data).not.toHaveProperty('dueDate');
      expect(history.body[1].data).toEqual({ text: 'Written in the old shape.' });

      const noted = await admin.post('/cases/CA-2023-102/notes', { text: 'Added today.' });
      expect(noted.status).toBe(201);
      expect(noted.body.version).toBe(3);
      expect(noted.body.notes.map((note: { text: string }) => note.text)).toEqual([
        'Case created by Manager and submitted for approval.',
        'Written in the old shape.',
        'Added today.',
      ]);
      const approved = await admin.post('/cases/CA-2023-102/approve', { doctorUsername: 'dr.lee' });
      expect(approved.status).toBe(200);
      expect(approved.body).toMatchObject({
        status: 'Digital Planning',
        deliveryDate: '2023-03-20',
        version: 4,
      });

      const [{ versions }] = await lab.app
        .get(DataSource)
        .query(
          "SELECT array_agg(schema_version ORDER BY stream_version) AS versions FROM events WHERE stream_id = 'case-CA-2023-102'",
        );
      expect(versions).toEqual([1, 1, 2, 1]);
    });
  });
});
