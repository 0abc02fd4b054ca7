import {
  agingOf,
  CASE_STATUSES,
  CASE_TEXTS,
  DEFAULT_STAGE_WEAR_DAYS,
  DOCTOR_CASE_FEE,
  type Case,
  type Invoice,
} from '@alignerflow/domain';
import { DataSource } from 'typeorm';
import { createEventStore } from '../backend/src/event-store/event-store.module';
import { CaseKeys } from '../backend/src/event-store/encryption/case-keys';
import { ProjectionRebuilder } from '../backend/src/rebuild/projection-rebuilder';
import type { ApiClient } from './support/http';
import { startTestApp, type TestApp } from './support/test-app';

const HOUR_MS = 60 * 60 * 1000;
const DAY_MS = 24 * HOUR_MS;
const READ_MODELS = ['case_view', 'user_view', 'case_ids', 'invoice_view'];

interface HistoryEntry {
  position: string;
  version: number;
  type: string;
  data: any;
  actor: { username: string; role: string };
  at: string;
}

/**
 * Each sample case's history, as [event type, who, hours before the story's today]: the story the
 * demo tells. Days are 2 apart per status, going back from the status each case is in now.
 */
const STORIES: Record<string, [string, string, number][]> = {
  'CA-2024-001': [
    ['CaseCreated', 'rep', 5 * 24],
    ['CaseApproved', 'admin', 2 * 24],
    ['NoteAdded', 'designer', 2 * 24 - 3],
  ],
  'CA-2024-002': [['CaseCreated', 'dr.patel', 24]],
  'CA-2024-003': [
    ['CaseCreated', 'rep', 7 * 24],
    ['CaseApproved', 'admin', 4 * 24],
    ['SimulationLinksSaved', 'designer', 4 * 24 - 4],
    ['StageAdvanced', 'designer', 4 * 24 - 6],
    ['ChangesRequested', 'dr.lee', 3 * 24],
    ['SimulationLinksSaved', 'designer', 2 * 24 + 3],
    ['StageAdvanced', 'designer', 2 * 24],
  ],
  'CA-2024-004': [
    ['CaseCreated', 'rep', 11 * 24],
    ['CaseApproved', 'admin', 8 * 24],
    ['SimulationLinksSaved', 'designer', 6 * 24 + 4],
    ['StageAdvanced', 'designer', 6 * 24],
    ['TreatmentPlanApproved', 'dr.patel', 4 * 24],
    ['StageAssigneeChanged', 'tech', 4 * 24 - 2],
    ['StageAdvanced', 'tech', 2 * 24],
    ['StageAssigneeChanged', 'tech', 2 * 24 - 2],
    ['NoteAdded', 'tech', 24],
  ],
  'CA-2024-077': [
    ['CaseCreated', 'rep', 71 * 24],
    ['CaseApproved', 'admin', 68 * 24],
    ['SimulationLinksSaved', 'designer', 66 * 24 + 4],
    ['StageAdvanced', 'designer', 66 * 24],
    ['TreatmentPlanApproved', 'dr.lee', 64 * 24],
    ['StageAssigneeChanged', 'tech', 64 * 24 - 2],
    ['StageAdvanced', 'tech', 62 * 24],
    ['StageAssigneeChanged', 'tech', 62 * 24 - 2],
    ['StageAdvanced', 'tech', 60 * 24],
    ['StageAssigneeChanged', 'tech', 60 * 24 - 2],
    ['StageAdvanced', 'tech', 58 * 24],
    ['StageAssigneeChanged', 'tech', 58 * 24 - 2],
    ['StageAdvanced', 'tech', 56 * 24],
    ['ShipmentRecorded', 'rep', 54 * 24 + 1],
    ['StageAdvanced', 'rep', 54 * 24],
    ['CaseReceived', 'dr.lee', 52 * 24 + 1],
    ['StageAdvanced', 'rep', 52 * 24],
    ['AlignerStageChanged', 'dr.lee', 50 * 24],
    ['NoteAdded', 'dr.lee', 50 * 24 - 1],
    // A stage's QR code starts it and completes the stage before: two events each.
    ['AlignerStageChanged', 'dr.lee', 35 * 24],
    ['AlignerStageChanged', 'dr.lee', 35 * 24],
    ['AlignerStageChanged', 'dr.lee', 20 * 24],
    ['AlignerStageChanged', 'dr.lee', 20 * 24],
    ['AlignerStageChanged', 'dr.lee', 5 * 24],
    ['AlignerStageChanged', 'dr.lee', 5 * 24],
  ],
};

/** Status each case is in, and how many days ago it got there. */
const NOW_IN: Record<string, [string, number]> = {
  'CA-2024-001': ['Digital Planning', 2],
  'CA-2024-002': ['Pending Approval', 1],
  'CA-2024-003': ['Doctor Approval', 2],
  'CA-2024-004': ['Thermoforming', 2],
  'CA-2024-077': ['Completed', 52],
  // Shipped and completed after the five, so the Billing screen has invoices in every state.
  'CA-2024-101': ['Completed', 40],
  'CA-2024-102': ['Completed', 73],
  'CA-2024-103': ['Completed', 12],
  'CA-2024-104': ['Completed', 8],
};

describe('demo data made by the real commands', () => {
  let lab: TestApp;
  let admin: ApiClient;
  let dataSource: DataSource;
  let storyToday: number;

  beforeAll(async () => {
    lab = await startTestApp();
    admin = await lab.login('admin');
    dataSource = lab.app.get(DataSource);
    // The story's "today": its last events (CA-2024-002's creation, CA-2024-004's note) are a day before it.
    const [{ at }] = await dataSource.query(
      "SELECT max(recorded_at) AS at FROM events WHERE stream_id LIKE 'case-%'",
    );
    storyToday = new Date(at).getTime() + DAY_MS;
    // Today at 13:00 UTC, in working hours; the story is over by then.
    expect(new Date(storyToday).toISOString().slice(10)).toBe('T13:00:00.000Z');
    expect(Math.abs(Date.now() - storyToday)).toBeLessThan(DAY_MS);
  });
  afterAll(() => lab.close());

  const history = async (id: string) => {
    const answer = await admin.get(`/cases/${id}/history`);
    expect(answer.status).toBe(200);
    return answer.body as HistoryEntry[];
  };
  const hoursAgo = (at: string) => Math.round((storyToday - Date.parse(at)) / HOUR_MS);

  it.each(Object.keys(STORIES))(
    'tells the story of %s: who did what, back-dated, oldest first',
    async (id) => {
      const entries = await history(id);
      expect(entries.map((entry) => [entry.type, entry.actor.username, hoursAgo(entry.at)])).toEqual(
        STORIES[id],
      );
      expect(entries.map((entry) => entry.version)).toEqual(entries.map((_, index) => index + 1));
      const times = entries.map((entry) => Date.parse(entry.at));
      expect(times).toEqual([...times].sort((a, b) => a - b));
      expect(Math.max(...times)).toBeLessThan(Date.now());
      // Every step was a user's, through the command path: nothing restored or imported.
      expect(entries.every((entry) => entry.actor.username !== 'system')).toBe(true);
    },
  );

  it('leaves each case in its sample state, steps completed 2 days apart going back', async () => {
    const cases = (await admin.get('/cases')).body as Case[];
    expect(cases.map((c) => [c.id, c.status, c.price, c.upperSheets, c.lowerSheets]).sort()).toEqual([
      ['CA-2024-001', 'Digital Planning', 1250, 18, 16],
      ['CA-2024-002', 'Pending Approval', 1100, 14, 14],
      ['CA-2024-003', 'Doctor Approval', 1400, 20, 18],
      ['CA-2024-004', 'Thermoforming', 1300, 16, 15],
      ['CA-2024-077', 'Completed', 1500, 20, 20],
      ['CA-2024-101', 'Completed', 1350, 16, 16],
      ['CA-2024-102', 'Completed', 1200, 14, 12],
      ['CA-2024-103', 'Completed', 1450, 20, 18],
      ['CA-2024-104', 'Completed', 1250, 15, 15],
    ]);
    for (const theCase of cases) {
      const [status, enteredDaysAgo] = NOW_IN[theCase.id];
      expect(hoursAgo(theCase.statusEnteredAt)).toBe(enteredDaysAgo * 24);
      const current = CASE_STATUSES.indexOf(status as Case['status']);
      const completedThrough = status === 'Completed' ? current : current - 1;
      const expectedDays = CASE_STATUSES.map((_, index) =>
        index > completedThrough
          ? null
          : // Each step was completed when the next began; the approval completes the first two at
            // once, and completion the last two.
            enteredDaysAgo + 2 * Math.max(0, current - 1 - Math.max(index, 1)),
      );
      expect({
        id: theCase.id,
        steps: theCase.alignerWorkflow.map((step) => [
          step.name,
          step.completed,
          step.date ? hoursAgo(step.date) / 24 : null,
        ]),
      }).toEqual({
        id: theCase.id,
        steps: CASE_STATUSES.map((name, index) => [name, index <= completedThrough, expectedDays[index]]),
      });
    }
  });

  it('keeps the details each story left: doctors, fee, simulation, technician, notes', async () => {
    const get = async (id: string) => (await admin.get(`/cases/${id}`)).body as Case;
    const first = await get('CA-2024-001');
    expect(first).toMatchObject({
      assignedDoctorUsername: 'dr.lee',
      createdBy: { username: 'rep' },
      fee: null,
    });
    expect(first.notes.map((note) => [note.author, note.text])).toEqual([
      ['rep', CASE_TEXTS.createdNote('Representative')],
      ['admin', CASE_TEXTS.approvedNote('admin', 'dr.lee')],
      ['designer', 'Setup started from the intraoral scans; the upper midline gap measures 2 mm.'],
    ]);
    // A doctor's own case, paid for at creation, waits for the manager's approval.
    expect(await get('CA-2024-002')).toMatchObject({
      assignedDoctorUsername: 'dr.patel',
      createdBy: { username: 'dr.patel', role: 'Doctor' },
      fee: { amount: DOCTOR_CASE_FEE, currency: 'USD' },
    });

    const third = await get('CA-2024-003');
    expect(third).toMatchObject({
      assignedDoctorUsername: 'dr.lee',
      createdBy: { username: 'rep', role: 'Representative' },
      fee: null,
      simulationVideoUrl: 'https://example.com/simulations/ca-2024-003.mp4',
    });
    expect(third.files).toEqual([
      expect.objectContaining({ type: 'Simulation Video', url: third.simulationVideoUrl }),
    ]);
    expect(third.notes.map((note) => note.text)).toContainEqual(
      CASE_TEXTS.changesRequestedNote('Please stage the lower incisor movement over two more aligners.'),
    );

    const fourth = await get('CA-2024-004');
    expect(fourth.assignedTechnicians).toEqual(['tech']);
    const assignee = (name: string) => fourth.alignerWorkflow.find((step) => step.name === name)?.assignedTo;
    expect([assignee('Model Printing'), assignee('Thermoforming')]).toEqual(['tech', 'tech']);
    expect(fourth.notes.map((note) => note.text)).toContainEqual(
      CASE_TEXTS.selfAssignedNote('Thermoforming', 'tech'),
    );
  });

  it('has the completed case on its fourth of 20 stages of 15 days', async () => {
    const completed = (await admin.get('/cases/CA-2024-077')).body as Case;
    expect(completed.stageWearTimeInDays).toBe(DEFAULT_STAGE_WEAR_DAYS);
    expect(completed.staging).toHaveLength(20);
    const days = (at: string | null) => (at ? hoursAgo(at) / 24 : null);
    expect(
      completed.staging
        .slice(0, 5)
        .map((stage) => [stage.status, days(stage.startDate), days(stage.endDate)]),
    ).toEqual([
      ['Completed', 50, 35],
      ['Completed', 35, 20],
      ['Completed', 20, 5],
      ['In Progress', 5, null],
      ['Not Started', null, null],
    ]);
  });

  it('is the state a replay of the log rebuilds, row for row', async () => {
    for (const table of READ_MODELS)
      await dataSource.query(`CREATE TABLE seeded_${table} AS SELECT * FROM ${table}`);
    // What `npm run replay` runs, on the test's database.
    const store = createEventStore(dataSource, lab.app.get(CaseKeys));
    const result = await new ProjectionRebuilder(dataSource, store).run();
    expect(result.state).toBe('done');
    for (const table of READ_MODELS) {
      const differences = await dataSource.query(
        `(SELECT 'rebuilt' AS side, * FROM (SELECT * FROM ${table} EXCEPT ALL SELECT * FROM seeded_${table}) a)
         UNION ALL
         (SELECT 'seeded' AS side, * FROM (SELECT * FROM seeded_${table} EXCEPT ALL SELECT * FROM ${table}) b)`,
      );
      expect({ table, differences }).toEqual({ table, differences: [] });
      await dataSource.query(`DROP TABLE seeded_${table}`);
    }
    const rows = await dataSource.query('SELECT count(*)::int AS n FROM case_ids');
    expect(rows[0].n).toBe(Object.keys(NOW_IN).length);
  });

  it('has invoices in every state, issued when each case shipped and settled by demo users', async () => {
    const invoices = (await admin.get('/invoices')).body as Invoice[];
    const of = (caseId: string) => invoices.find((invoice) => invoice.caseId === caseId)!;
    const byCase = Object.fromEntries(
      invoices.map((invoice) => [invoice.caseId, [invoice.status, invoice.total, invoice.balance]]),
    );
    expect(byCase).toEqual({
      'CA-2024-077': ['open', 150_000, 150_000],
      'CA-2024-101': ['paid', 135_000, 0],
      'CA-2024-102': ['open', 120_000, 60_000],
      'CA-2024-103': ['open', 145_000, 130_000],
      'CA-2024-104': ['void', 125_000, 125_000],
    });
    // Each invoice is dated the day its case was shipped (entered Delivery to Doctor, 2 days
    // before it was received and completed).
    for (const invoice of invoices)
      expect(hoursAgo(invoice.issuedAt)).toBe((NOW_IN[invoice.caseId][1] + 2) * 24);
    expect(of('CA-2024-101').payments).toEqual([
      expect.objectContaining({ amount: 135_000, method: 'bank', recordedBy: 'rep' }),
    ]);
    expect(hoursAgo(of('CA-2024-101').payments[0].receivedAt)).toBe(25 * 24);
    expect(of('CA-2024-102').payments).toEqual([
      expect.objectContaining({ amount: 60_000, method: 'card', recordedBy: 'rep' }),
    ]);
    expect(of('CA-2024-103').creditNotes).toEqual([
      expect.objectContaining({ number: expect.stringMatching(/^CN-\d{4}-00001$/), amount: 15_000 }),
    ]);
    expect(of('CA-2024-104').voidReason).toBeTruthy();
    // Numbered in the order the cases shipped, from 1 in each year, no gap.
    const shippedOrder = [...invoices].sort((a, b) => a.issuedAt.localeCompare(b.issuedAt));
    expect(shippedOrder.map((invoice) => invoice.caseId)).toEqual([
      'CA-2024-102',
      'CA-2024-077',
      'CA-2024-101',
      'CA-2024-103',
      'CA-2024-104',
    ]);
    const perYear = new Map<string, number>();
    for (const invoice of shippedOrder) {
      const year = invoice.issuedAt.slice(0, 4);
      perYear.set(year, (perYear.get(year) ?? 0) + 1);
      expect(invoice.number).toBe(`INV-${year}-${String(perYear.get(year)).padStart(5, '0')}`);
    }

    // Who did it, through the invoice commands: the system issued, the demo users settled.
    const actors: { stream_id: string; type: string; username: string }[] = await dataSource.query(
      `SELECT stream_id, type, metadata->'actor'->>'username' AS username FROM events
        WHERE stream_id LIKE 'invoice-%' ORDER BY global_position`,
    );
    expect(actors.filter((row) => row.type === 'InvoiceIssued').map((row) => row.username)).toEqual(
      Array(5).fill('system'),
    );
    expect(
      actors.filter((row) => row.type !== 'InvoiceIssued').map((row) => [row.type, row.username]),
    ).toEqual([
      ['PaymentRecorded', 'rep'],
      ['PaymentRecorded', 'rep'],
      ['CreditNoteIssued', 'admin'],
      ['InvoiceVoided', 'admin'],
    ]);

    // The aging has open balances past due, and the server's sums are the rule's.
    const aging = (await admin.get('/billing/aging')).body;
    expect(aging).toEqual(agingOf(invoices, new Date()));
    expect(aging.totals).toMatchObject({
      current: 130_000,
      days1to30: 150_000,
      days31to60: 60_000,
      total: 340_000,
    });
  });
});

describe('the seed alone sets when a command happened', () => {
  let lab: TestApp;
  beforeAll(async () => (lab = await startTestApp()));
  afterAll(() => lab.close());

  it('records a request at its own time, whatever time its body names', async () => {
    const admin = await lab.login('admin');
    const past = '2001-01-01T00:00:00.000Z';
    const before = Date.now();
    const noted = await admin.post('/cases/CA-2024-001/notes', { text: 'When?', at: past, recordedAt: past });
    expect(noted.status).toBe(201);
    const after = Date.now();
    const last = ((await admin.get('/cases/CA-2024-001/history')).body as HistoryEntry[]).at(-1)!;
    expect(last).toMatchObject({ type: 'NoteAdded', data: { text: 'When?' } });
    for (const at of [last.at, noted.body.notes.at(-1).timestamp]) {
      expect(Date.parse(at)).toBeGreaterThanOrEqual(before - 1000);
      expect(Date.parse(at)).toBeLessThanOrEqual(after + 1000);
    }
  });
});
