import { DataSource } from 'typeorm';
import { EventStore } from '../backend/src/event-store/event-store';
import { ProjectionRebuildService } from '../backend/src/rebuild/projection-rebuild.service';
import { eventsCommitSafe } from './support/helpers';
import type { ApiClient } from './support/http';
import { secretKeys } from './support/no-secrets';
import { startTestApp, type TestApp } from './support/test-app';

const withoutVersion = ({ version: _, ...rest }: { version: number }) => rest;
const READ_MODELS = [
  'case_view',
  'case_notes',
  'user_view',
  'case_ids',
  'report_cases',
  'report_stage_intervals',
];

/** A backup as the spec's original app wrote it: plain passwords, role 'admin', only the spec's fields. */
function specFormatBackup() {
  return {
    users: [
      { username: 'admin', password: 'Old-lab-2024-pw', role: 'admin' },
      {
        username: 'sarah',
        password: 'rep pass 1 long enough',
        role: 'Representative',
        email: 'sarah@lab.example',
      },
      { username: 'dr.lee', password: 'lee-secret-aligner', role: 'Doctor', activationSoundEnabled: false },
      { username: 'mike', password: 'tech-pass-lathe', role: 'Technician' },
    ],
    cases: [
      {
        id: 'CA-2024-001',
        patientName: 'Emma Thompson',
        doctorName: 'Dr. Sarah Lee',
        clinicName: 'Bright Smiles Dental',
        assignedDoctorUsername: 'dr.lee',
        type: 'Clear Aligner',
        status: 'Digital Planning',
        statusEnteredAt: '2024-05-05T10:00:00.000Z',
        priority: 'High',
        onHold: false,
        createdDate: '2024-05-01T10:00:00.000Z',
        deliveryDate: '2024-06-01',
        assignedTechnicians: ['Unassigned'],
        alignerWorkflow: [
          {
            name: 'Pending Approval',
            completed: true,
            date: '2024-05-01T10:00:00.000Z',
            assignedTo: 'Tech Team',
          },
          {
            name: 'Scan Received',
            completed: true,
            date: '2024-05-03T10:00:00.000Z',
            assignedTo: 'Tech Team',
          },
          { name: 'Digital Planning', completed: false, date: null, assignedTo: 'Tech Team' },
        ],
        files: [{ name: 'upper.stl', type: 'STL', url: '#', size: '1.23 MB' }],
        notes: [
          {
            id: 'note-1714557600000',
            author: 'admin',
            role: 'admin',
            text: 'Case created by Manager and submitted for approval.',
            timestamp: '2024-05-01T10:00:00.000Z',
          },
        ],
        treatmentPlanNotes: 'Close the gap.',
        price: 1250,
        upperSheets: 18,
        lowerSheets: 16,
      },
      {
        id: 'CA-2024-009',
        patientName: 'Noah Patel',
        doctorName: 'Dr. Raj Patel',
        clinicName: 'Downtown Orthodontics',
        status: 'TrimmingPolishing',
        priority: 'Normal',
        createdDate: '2024-04-10T08:30:00.000Z',
        price: '1100.50',
        upperSheets: '14',
        lowerSheets: '',
      },
      {
        id: 'CA-2024-077',
        patientName: 'Sophia Brown',
        doctorName: 'Dr. Sarah Lee',
        clinicName: 'Bright Smiles Dental',
        assignedDoctorUsername: 'dr.lee',
        status: 'Completed',
        priority: 'Normal',
        createdDate: '2024-01-10T08:30:00.000Z',
        deliveryDate: '2024-02-01',
        upperSheets: 3,
        lowerSheets: 3,
        staging: [
          {
            stageNumber: 1,
            status: 'Completed',
            startDate: '2024-02-01T00:00:00.000Z',
            endDate: '2024-02-15T00:00:00.000Z',
          },
          { stageNumber: 2, status: 'In Progress', startDate: '2024-02-15T00:00:00.000Z', endDate: null },
          { stageNumber: 3, status: 'Not Started', startDate: null, endDate: null },
        ],
        stageWearTimeInDays: 15,
      },
    ],
  };
}

describe('backup, restore and event export', () => {
  let lab: TestApp;
  let admin: ApiClient;
  let dataSource: DataSource;

  const eventCount = async (): Promise<number> =>
    (await dataSource.query('SELECT count(*)::int AS n FROM events'))[0].n;

  /**
   * The restore runs no rebuild by replay: its transaction writes the read-model rows itself. A
   * rebuild now must find every row of every read model exactly as the restore left it.
   */
  const expectRebuildToChangeNothing = async (): Promise<void> => {
    for (const table of READ_MODELS)
      await dataSource.query(`CREATE TABLE restored_${table} AS SELECT * FROM ${table}`);
    expect(await lab.app.get(ProjectionRebuildService).run({ wait: true })).toMatchObject({ state: 'done' });
    for (const table of READ_MODELS) {
      const differences = await dataSource.query(
        `(SELECT 'rebuilt' AS side, * FROM (SELECT * FROM ${table} EXCEPT ALL SELECT * FROM restored_${table}) a)
         UNION ALL
         (SELECT 'restored' AS side, * FROM (SELECT * FROM restored_${table} EXCEPT ALL SELECT * FROM ${table}) b)`,
      );
      expect({ table, differences }).toEqual({ table, differences: [] });
      await dataSource.query(`DROP TABLE restored_${table}`);
    }
  };

  beforeAll(async () => {
    lab = await startTestApp();
    admin = await lab.login('admin');
    dataSource = lab.app.get(DataSource);
  });
  afterAll(() => lab?.close());

  it('is for managers only', async () => {
    for (const name of ['rep', 'designer', 'tech', 'dr.lee']) {
      const other = await lab.login(name);
      expect((await other.get('/backup')).status).toBe(403);
      expect((await other.post('/restore', { users: [], cases: [] })).status).toBe(403);
      expect((await other.get('/events/export')).status).toBe(403);
    }
    expect((await lab.anonymous.get('/backup')).status).toBe(401);
    expect((await lab.anonymous.post('/restore', { users: [], cases: [] })).status).toBe(401);
    expect((await lab.anonymous.get('/events/export')).status).toBe(401);
  });

  it('backs up users with their password hashes and the whole cases, as GET /cases/{id} shows them', async () => {
    const backup = await admin.get('/backup');
    expect(backup.status).toBe(200);
    expect(backup.headers.get('content-type')).toMatch(/^application\/json/);
    expect(backup.headers.get('content-disposition')).toMatch(
      /^attachment; filename="alignerflow-backup-\d{4}-\d{2}-\d{2}\.json"$/,
    );
    expect(Object.keys(backup.body)).toEqual(['users', 'cases', 'materials', 'billing']);
    expect(backup.body.users.map((user: { username: string }) => user.username)).toEqual([
      'admin',
      'designer',
      'dr.lee',
      'dr.patel',
      'rep',
      'tech',
    ]);
    for (const user of backup.body.users) {
      expect(Object.keys(user).sort()).toEqual([
        'activationSoundEnabled',
        'email',
        'notify',
        'passwordHash',
        'role',
        'username',
      ]);
      expect(user.passwordHash).toMatch(/^\$argon2id\$/);
    }
    // The spec's five sample cases and the demo's four completed billing cases.
    expect(backup.body.cases).toHaveLength(9);
    // The list's summaries, each with its notes: every note is in the backup.
    const list = (await admin.get('/cases')).body;
    expect(
      backup.body.cases.map(({ notes, ...fields }: { notes: unknown[] }) => ({
        ...fields,
        noteCount: notes.length,
      })),
    ).toEqual(list);
    for (const item of backup.body.cases) expect(item).toEqual((await admin.get(`/cases/${item.id}`)).body);
  });

  it('round trip: backup, restore, backup gives the same cases and users, and keeps the history', async () => {
    const created = await lab
      .login('rep')
      .then((rep) =>
        rep.post('/cases', { patientName: 'Round Trip', doctorName: 'D', clinicName: 'C', upperSheets: 4 }),
      );
    expect(created.status).toBe(201);
    const id: string = created.body.id;
    await admin.post(`/cases/${id}/notes`, { text: 'Before the backup.' });
    const first = (await admin.get('/backup')).body;
    const tags = {
      cases: (await admin.get('/cases')).headers.get('etag'),
      users: (await admin.get('/users')).headers.get('etag'),
    };
    const before = await eventCount();

    const restored = await admin.post('/restore', first);
    // The five sample cases, the demo's four billing cases and the round-trip case.
    expect(restored).toMatchObject({ status: 200, body: { users: 6, cases: 10 } });

    const second = (await admin.get('/backup')).body;
    expect(second.cases.map(withoutVersion)).toEqual(first.cases.map(withoutVersion));
    expect(second.users).toEqual(first.users);
    // One marker, one import per user and per case, nothing deleted.
    expect((await eventCount()) - before).toBe(1 + 6 + 10);
    // The history from before the restore stays.
    const history = (await admin.get(`/cases/${id}/history`)).body;
    expect(history.map((entry: { type: string }) => entry.type)).toEqual([
      'CaseCreated',
      'NoteAdded',
      'CaseImported',
    ]);
    // The lists changed as far as their ETags say.
    expect((await admin.get('/cases', { 'if-none-match': tags.cases! })).status).toBe(200);
    expect((await admin.get('/users', { 'if-none-match': tags.users! })).status).toBe(200);
    await expectRebuildToChangeNothing();
    // Passwords came back as they were.
    expect((await lab.login('dr.patel', 'demo')).user).toMatchObject({
      username: 'dr.patel',
      role: 'Doctor',
    });
  });

  it("refuses a file that is not {users, cases} with the spec's message", async () => {
    for (const body of [
      {},
      { users: [] },
      { cases: [] },
      { users: {}, cases: [] },
      [],
      { users: [], cases: 'x' },
    ]) {
      expect(await admin.post('/restore', body)).toMatchObject({
        status: 400,
        body: { error: 'Invalid backup file format.' },
      });
    }
    const notJson = await admin.request('POST', '/restore', '{"users": [', {
      'content-type': 'application/json',
    });
    expect(notJson.status).toBe(400);
  });

  it('refuses a file with one bad entry, naming it, and changes nothing', async () => {
    const backup = (await admin.get('/backup')).body;
    const before = await eventCount();
    const bad = specFormatBackup();
    bad.cases.push(
      {
        id: 'CA-2024-010',
        patientName: 'A',
        doctorName: 'B',
        clinicName: 'C',
        status: 'Scan Received',
      } as never,
      {
        id: 'CA-2024-011',
        patientName: 'A',
        doctorName: 'B',
        clinicName: 'C',
        status: 'Pending Approval',
      } as never,
    );
    (bad.cases[3] as Record<string, unknown>).patientName = ' ';
    (bad.cases[3] as Record<string, unknown>).id = 'CA-2024-009b';
    delete (bad.cases[2] as Record<string, unknown>).patientName;
    (bad.cases[2] as Record<string, unknown>).id = 'CA-2024-009';
    (bad.cases[1] as Record<string, unknown>).id = 'CA-2024-008';

    const answer = await admin.post('/restore', bad);
    expect(answer.status).toBe(400);
    expect(answer.body.error).toBe('Invalid case at index 2 (CA-2024-009): patientName is required.');
    expect(answer.body.details).toEqual([
      'Invalid case at index 2 (CA-2024-009): patientName is required.',
      'Invalid case at index 3 (CA-2024-009b): id "CA-2024-009b" is not a case id (CA-YYYY-NNN).',
    ]);

    const cases = [
      [{ status: 'Shipped' }, 'Invalid case at index 0 (CA-2024-001): status "Shipped" is unknown.'],
      [{ id: undefined }, 'Invalid case at index 0: id is required.'],
      [
        { alignerWorkflow: [{ name: 'Polishing' }] },
        'Invalid case at index 0 (CA-2024-001): alignerWorkflow[0].name "Polishing" is not a workflow status.',
      ],
      [
        { staging: [{ stageNumber: 0, status: 'Not Started' }] },
        'Invalid case at index 0 (CA-2024-001): staging[0].stageNumber must be a whole number from 1 to 200.',
      ],
      [
        { files: [{ name: 'x', type: 'Video', url: '#' }] },
        'Invalid case at index 0 (CA-2024-001): files[0].type "Video" is unknown.',
      ],
    ] as const;
    for (const [change, message] of cases) {
      const file = specFormatBackup();
      Object.assign(file.cases[0], change);
      expect(await admin.post('/restore', file)).toMatchObject({ status: 400, body: { error: message } });
    }
    const users = [
      [{ role: 'Wizard' }, 'Invalid user at index 1 (sarah): role "Wizard" is unknown.'],
      [{ password: undefined }, 'Invalid user at index 1 (sarah): password or passwordHash is required.'],
      [
        { passwordHash: 'md5:abc', password: undefined },
        'Invalid user at index 1 (sarah): passwordHash is not an argon2 hash.',
      ],
      [
        { username: 'ADMIN', role: 'Doctor' },
        'Invalid user at index 1 (ADMIN): The default admin user must stay a Manager.',
      ],
      [{ username: 'Dr.Lee' }, 'Invalid user at index 2 (dr.lee): the username is listed twice.'],
      // A plain password of an older file becomes a new password: the rules of api.md Accounts.
      [{ password: 'short-pw' }, 'Invalid user at index 1 (sarah): Password must be at least 12 characters.'],
      [
        { password: 'Sarah-was-here-1' },
        'Invalid user at index 1 (sarah): This password is too easy to guess. Choose another.',
      ],
      [
        { password: 'password12345' },
        'Invalid user at index 1 (sarah): This password is too easy to guess. Choose another.',
      ],
    ] as const;
    for (const [change, message] of users) {
      const file = specFormatBackup();
      Object.assign(file.users[1], change);
      expect(await admin.post('/restore', file)).toMatchObject({ status: 400, body: { error: message } });
    }

    expect(await eventCount()).toBe(before);
    expect((await admin.get('/backup')).body).toEqual(backup);
  });

  it("restores the spec's older format: old passwords work, 'admin' is a Manager, the rest gets defaults", async () => {
    // A second manager restores; the backup does not know them, so they are kept.
    expect(
      (await admin.post('/users', { username: 'boss', password: 'Quartz-Lantern-42', role: 'Manager' }))
        .status,
    ).toBe(201);
    const boss = await lab.login('boss', 'Quartz-Lantern-42');
    const adminSession = admin;
    // The export reads the log in commit-safe order: it has all of it once all of it is.
    await eventsCommitSafe(lab.databaseUrl);
    const exportBefore = await boss.get('/events/export');
    const linesBefore = (exportBefore.body as string).trim().split('\n');

    const restored = await boss.post('/restore', specFormatBackup());
    expect(restored).toMatchObject({ status: 200, body: { users: 4, cases: 3 } });
    await expectRebuildToChangeNothing();

    // Everyone signs in with the password of the backup.
    const newAdmin = await lab.login('admin', 'Old-lab-2024-pw');
    expect(newAdmin.user).toEqual({
      username: 'admin',
      role: 'Manager',
      email: null,
      activationSoundEnabled: true,
      notify: { push: true, email: true },
    });
    const sarah = await lab.login('SARAH', 'rep pass 1 long enough');
    expect(sarah.user).toEqual({
      username: 'sarah',
      role: 'Representative',
      email: 'sarah@lab.example',
      activationSoundEnabled: true,
      notify: { push: true, email: true },
    });
    const lee = await lab.login('dr.lee', 'lee-secret-aligner');
    expect(lee.user).toMatchObject({ username: 'dr.lee', role: 'Doctor', activationSoundEnabled: false });
    expect((await lab.anonymous.post('/auth/login', { username: 'dr.lee', password: 'demo' })).status).toBe(
      401,
    );
    // Users the backup lacks are gone (their sessions too); the restoring manager stays.
    expect((await lab.anonymous.post('/auth/login', { username: 'designer', password: 'demo' })).status).toBe(
      401,
    );
    expect((await boss.get('/users')).body.map((user: { username: string }) => user.username)).toEqual([
      'admin',
      'boss',
      'dr.lee',
      'mike',
      'sarah',
    ]);
    // The old admin session still works: it is the same user, now with the backup's password.
    expect((await adminSession.get('/auth/me')).status).toBe(200);

    const cases = (await newAdmin.get('/cases')).body;
    expect(cases.map((item: { id: string }) => item.id)).toEqual([
      'CA-2024-001',
      'CA-2024-009',
      'CA-2024-077',
    ]);
    const [first, minimal, completed] = await Promise.all(
      cases.map(async (item: { id: string }) => (await newAdmin.get(`/cases/${item.id}`)).body),
    );
    expect(first).toMatchObject({
      status: 'Digital Planning',
      assignedDoctorUsername: 'dr.lee',
      statusEnteredAt: '2024-05-05T10:00:00.000Z',
      files: [{ name: 'upper.stl', type: 'STL', url: '#', size: '1.23 MB' }],
      stageWearTimeInDays: 15,
      createdBy: { username: 'admin', role: 'Manager' },
      fee: null,
    });
    expect(first.alignerWorkflow).toHaveLength(11);
    expect(first.alignerWorkflow.slice(0, 4)).toEqual([
      {
        name: 'Pending Approval',
        completed: true,
        date: '2024-05-01T10:00:00.000Z',
        assignedTo: 'Tech Team',
      },
      { name: 'Scan Received', completed: true, date: '2024-05-03T10:00:00.000Z', assignedTo: 'Tech Team' },
      { name: 'Digital Planning', completed: false, date: null, assignedTo: 'Tech Team' },
      { name: 'Doctor Approval', completed: false, date: null, assignedTo: 'Tech Team' },
    ]);
    expect(minimal).toMatchObject({
      status: 'Trimming & Polishing',
      type: 'Clear Aligner',
      onHold: false,
      assignedDoctorUsername: null,
      statusEnteredAt: '2024-04-10T08:30:00.000Z',
      deliveryDate: null,
      assignedTechnicians: ['Unassigned'],
      files: [],
      notes: [],
      staging: [],
      treatmentPlanNotes: '',
      simulationVideoUrl: '',
      simulationExternalLink: '',
      price: 1100.5,
      upperSheets: 14,
      lowerSheets: null,
      stageWearTimeInDays: 15,
      createdBy: { username: 'admin', role: 'Manager' },
      fee: null,
    });
    expect(minimal.alignerWorkflow.map((step: { completed: boolean }) => step.completed)).toEqual([
      true,
      true,
      true,
      true,
      true,
      true,
      false,
      false,
      false,
      false,
      false,
    ]);
    expect(completed.staging).toHaveLength(3);
    expect(completed.alignerWorkflow.every((step: { completed: boolean }) => step.completed)).toBe(true);
    // Cases the backup lacks are gone; a doctor sees theirs; the workflow goes on from there.
    expect((await newAdmin.get('/cases/CA-2024-002')).status).toBe(404);
    expect((await lee.get('/cases')).body.map((item: { id: string }) => item.id)).toEqual([
      'CA-2024-001',
      'CA-2024-077',
    ]);
    const mike = await lab.login('mike', 'tech-pass-lathe');
    expect((await mike.post('/cases/CA-2024-009/advance')).body.status).toBe('Quality Check');
    expect((await lee.post('/cases/CA-2024-077/staging/3/start')).status).toBe(200);

    // The export keeps everything from before the restore, then the marker and the import.
    await eventsCommitSafe(lab.databaseUrl);
    const exported = await newAdmin.get('/events/export');
    expect(exported.status).toBe(200);
    expect(exported.headers.get('content-type')).toMatch(/^application\/x-ndjson/);
    expect(exported.headers.get('content-disposition')).toMatch(
      /^attachment; filename="alignerflow-events-\d{4}-\d{2}-\d{2}\.ndjson"$/,
    );
    const lines = (exported.body as string).trim().split('\n');
    // Each line's seal may have been written since the first export (audit/README.md): compare the rest.
    const unsealed = (line: string) => {
      const { stored, ...event } = JSON.parse(line);
      return {
        ...event,
        stored: stored && { head: stored.head, data: stored.data, dataSha256: stored.dataSha256 },
      };
    };
    expect(lines.slice(0, linesBefore.length).map(unsealed)).toEqual(linesBefore.map(unsealed));
    const events = lines.map((line) => JSON.parse(line));
    const marker = events.findIndex((event) => event.type === 'BackupRestored' && event.data.by === 'boss');
    expect(marker).toBeGreaterThanOrEqual(linesBefore.length);
    expect(events[marker]).toMatchObject({
      streamId: 'system-restores',
      data: { users: 4, cases: 3, by: 'boss' },
      metadata: { actor: { username: 'boss', role: 'Manager' } },
    });
    const imported = events.slice(marker + 1).map((event) => event.type);
    expect(imported.filter((type) => type === 'UserImported')).toHaveLength(4);
    expect(imported.filter((type) => type === 'CaseImported')).toHaveLength(3);
    expect(imported.filter((type) => type === 'UserDeleted')).toHaveLength(4); // rep, designer, tech, dr.patel
    // -002, -003, -004, the demo's four billing cases (-101 to -104) and the round-trip case
    expect(imported.filter((type) => type === 'CaseDeleted')).toHaveLength(8);
    expect(events.filter((event) => event.type === 'CaseCreated').length).toBeGreaterThan(0);
  }, 120_000);

  it('streams the whole log as NDJSON in commit-safe order, batch by batch, without secrets', async () => {
    // Enough events for several batches, on a stream no read model reads.
    await lab.app.get(EventStore).appendMany(
      [
        {
          streamId: 'test-bulk',
          expectedVersion: 0,
          events: Array.from({ length: 12_345 }, (_, n) => ({ type: 'BulkTested', data: { n } })),
        },
      ],
      { actor: null, correlationId: 'bulk' },
    );
    await eventsCommitSafe(lab.databaseUrl);
    const exported = await admin.get('/events/export');
    expect(exported.status).toBe(200);
    const events = (exported.body as string)
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
    const expected: { position: string }[] = await dataSource.query(
      'SELECT global_position::text AS position FROM events ORDER BY transaction_id, global_position',
    );
    expect(events.map((event) => event.position)).toEqual(expected.map((row) => row.position));
    expect(events.filter((event) => event.type === 'BulkTested').map((event) => event.data.n)).toEqual(
      Array.from({ length: 12_345 }, (_, n) => n),
    );
    expect(events[0]).toMatchObject({
      position: expect.any(String),
      transactionId: expect.any(String),
      streamId: expect.any(String),
      version: 1,
      type: expect.any(String),
      schemaVersion: expect.any(Number),
      metadata: expect.any(Object),
      recordedAt: expect.stringMatching(/Z$/),
    });
    // The backup is the one answer that carries password hashes.
    expect(events.flatMap((event) => secretKeys(event))).toEqual([]);
    const created = events.find((event) => event.type === 'UserCreated');
    expect(created.redacted).toEqual(['data.passwordHash']);
    // Its stored row (for the offline check) stands in for its data by the data's hash alone.
    expect(created.stored).toMatchObject({ dataSha256: expect.stringMatching(/^[0-9a-f]{64}$/) });
    expect(created.stored.data).toBeUndefined();
    expect(exported.body).not.toContain('$argon2');
  }, 120_000);
});
