import { caseStreamId, type Actor, type CaseCommand } from '@alignerflow/domain';
import { DataSource } from 'typeorm';
import { CaseCommandService } from '../backend/src/cases/case-command.service';
import { EventStore } from '../backend/src/event-store/event-store';
import { ProjectionRebuilder } from '../backend/src/rebuild/projection-rebuilder';
import type { ApiClient } from './support/http';
import { startTestApp, type TestApp } from './support/test-app';

/**
 * Reports (api.md "Reach and insight"). Cases are worked through the command path the API uses,
 * back-dated into March 2026 (as the demo seed back-dates), each step naming the status it
 * enters; the expected figures are counted here from those steps, never by the reports' code.
 */
const ADMIN: Actor = { username: 'admin', role: 'Manager' };
const REP: Actor = { username: 'rep', role: 'Representative' };
const DESIGNER: Actor = { username: 'designer', role: 'Designer' };
const TECH: Actor = { username: 'tech', role: 'Technician' };
const LEE: Actor = { username: 'dr.lee', role: 'Doctor' };
const PATEL: Actor = { username: 'dr.patel', role: 'Doctor' };
const HOUR = 3_600_000;

type Step = { after: number; actor: Actor; command: CaseCommand; enters?: string };

interface Story {
  id: string;
  start: string;
  patient: string;
  doctor: string;
  clinic: string;
  due: string;
  doctorUser: Actor;
  steps: Step[];
  /** The due date after the steps (an edit changes it). */
  finalDue?: string;
}

const advance = (after: number, actor: Actor, enters: string): Step => ({
  after,
  actor,
  command: { type: 'AdvanceStage' },
  enters,
});
const approve = (after: number, doctor: Actor): Step => ({
  after,
  actor: ADMIN,
  command: {
    type: 'ApproveCase',
    doctorUsername: doctor.username,
    doctor: { username: doctor.username, role: 'Doctor' },
  },
  enters: 'Digital Planning',
});
const doctorApproves = (after: number, doctor: Actor): Step => ({
  after,
  actor: doctor,
  command: { type: 'ApproveTreatmentPlan' },
  enters: 'Model Printing',
});
/** Model Printing to Completed, `hours[i]` in each of the six stages from Model Printing on. */
const manufacture = (hours: number[]): Step[] => [
  advance(hours[0], TECH, 'Thermoforming'),
  advance(hours[1], TECH, 'Trimming & Polishing'),
  advance(hours[2], TECH, 'Quality Check'),
  advance(hours[3], TECH, 'Packaging & Labeling'),
  advance(hours[4], REP, 'Delivery to Doctor'),
  advance(hours[5], REP, 'Completed'),
];

const STORIES: Story[] = [
  {
    // On time: 2 h waiting for approval, a day of planning, 5 h with the doctor.
    id: 'CA-2026-9001',
    start: '2026-03-02T10:00:00.000Z',
    patient: 'Alice Archer',
    doctor: 'Dr. Sarah Lee',
    clinic: 'Bright Smiles Dental',
    due: '2026-03-10',
    doctorUser: LEE,
    steps: [
      approve(2, LEE),
      advance(24, DESIGNER, 'Doctor Approval'),
      doctorApproves(5, LEE),
      ...manufacture([3, 3, 3, 3, 3, 10]),
    ],
  },
  {
    // Late: the doctor asks for changes, the case is held for 20 h in planning, delivered late.
    id: 'CA-2026-9002',
    start: '2026-03-03T09:00:00.000Z',
    patient: 'Smith, "Bob"',
    doctor: 'Dr. Sarah Lee',
    clinic: 'Bright Smiles Dental',
    due: '2026-03-06',
    doctorUser: LEE,
    steps: [
      approve(4, LEE),
      advance(10, DESIGNER, 'Doctor Approval'),
      {
        after: 6,
        actor: LEE,
        command: { type: 'RequestChanges', comment: 'Less torque.' },
        enters: 'Digital Planning',
      },
      { after: 1, actor: ADMIN, command: { type: 'HoldCase' } },
      { after: 20, actor: ADMIN, command: { type: 'ResumeCase' } },
      advance(9, DESIGNER, 'Doctor Approval'),
      doctorApproves(2, LEE),
      ...manufacture([4, 4, 4, 4, 4, 30]),
    ],
  },
  {
    // Due too soon at first; the manager moves the due date, so it is on time.
    id: 'CA-2026-9003',
    start: '2026-03-09T10:00:00.000Z',
    patient: 'Carla Diaz',
    doctor: 'Dr. Raj Patel',
    clinic: 'Downtown Orthodontics',
    due: '2026-03-10',
    finalDue: '2026-03-20',
    doctorUser: PATEL,
    steps: [
      approve(1, PATEL),
      { after: 1, actor: ADMIN, command: { type: 'EditCase', fields: { deliveryDate: '2026-03-20' } } },
      advance(7, DESIGNER, 'Doctor Approval'),
      doctorApproves(3, PATEL),
      ...manufacture([2, 2, 2, 2, 2, 24]),
    ],
  },
  {
    // Late, in the third week; a patient name a spreadsheet would run as a formula.
    id: 'CA-2026-9004',
    start: '2026-03-16T10:00:00.000Z',
    patient: '=SUM(1,2)',
    doctor: 'Dr. Raj Patel',
    clinic: '@Home Clinic',
    due: '2026-03-18',
    doctorUser: PATEL,
    steps: [
      approve(2, PATEL),
      advance(20, ADMIN, 'Doctor Approval'),
      doctorApproves(4, PATEL),
      ...manufacture([5, 5, 5, 5, 5, 43]),
    ],
  },
];

/** Not counted: completed before the range, completed in it but deleted, still active, rejected. */
const OTHERS: Story[] = [
  {
    id: 'CA-2026-9005',
    start: '2026-02-20T10:00:00.000Z',
    patient: 'Before Range',
    doctor: 'Dr. Sarah Lee',
    clinic: 'Bright Smiles Dental',
    due: '2026-03-10',
    doctorUser: LEE,
    steps: [
      approve(1, LEE),
      advance(1, DESIGNER, 'Doctor Approval'),
      doctorApproves(1, LEE),
      ...manufacture([1, 1, 1, 1, 1, 1]),
    ],
  },
  {
    id: 'CA-2026-9006',
    start: '2026-03-04T10:00:00.000Z',
    patient: 'Deleted Later',
    doctor: 'Dr. Sarah Lee',
    clinic: 'Bright Smiles Dental',
    due: '2026-03-10',
    doctorUser: LEE,
    steps: [
      approve(1, LEE),
      advance(1, DESIGNER, 'Doctor Approval'),
      doctorApproves(1, LEE),
      ...manufacture([1, 1, 1, 1, 1, 1]),
      { after: 2, actor: ADMIN, command: { type: 'DeleteCase' } },
    ],
  },
  {
    id: 'CA-2026-9007',
    start: '2026-03-05T10:00:00.000Z',
    patient: 'Still Active',
    doctor: 'Dr. Sarah Lee',
    clinic: 'Bright Smiles Dental',
    due: '2026-03-10',
    doctorUser: LEE,
    steps: [approve(1, LEE), advance(3, DESIGNER, 'Doctor Approval')],
  },
  {
    id: 'CA-2026-9008',
    start: '2026-03-05T11:00:00.000Z',
    patient: 'Rejected One',
    doctor: 'Dr. Sarah Lee',
    clinic: 'Bright Smiles Dental',
    due: '2026-03-10',
    doctorUser: LEE,
    steps: [
      {
        after: 3,
        actor: ADMIN,
        command: { type: 'RejectCase', reason: 'Scan unusable.' },
        enters: 'Rejected',
      },
    ],
  },
];

const RANGE = 'from=2026-03-02&to=2026-03-22';

/** The hand count: per case, creation, completion and the hours spent in each status. */
function timeline(story: Story) {
  const created = Date.parse(story.start);
  let at = created;
  let status = 'Pending Approval';
  let enteredAt = created;
  const hours: Record<string, number> = {};
  let completedAt: number | null = null;
  for (const step of story.steps) {
    at += step.after * HOUR;
    if (!step.enters) continue;
    hours[status] = (hours[status] ?? 0) + (at - enteredAt) / HOUR;
    enteredAt = at;
    status = step.enters;
    if (status === 'Completed') completedAt = at;
  }
  return { created, completedAt, hours, due: story.finalDue ?? story.due };
}

/** The 90th percentile by linear interpolation between the closest ranks. */
function p90(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const position = 0.9 * (sorted.length - 1);
  const low = Math.floor(position);
  const high = Math.ceil(position);
  return sorted[low] + (sorted[high] - sorted[low]) * (position - low);
}

const round = (value: number, digits: number) => Math.round(value * 10 ** digits) / 10 ** digits;

/** The summary's figures counted from the stories alone. */
function expectedSummary(stories: Story[]) {
  const done = stories.map(timeline);
  const onTime = done.filter((t) => new Date(t.completedAt!).toISOString().slice(0, 10) <= t.due);
  const turnaround = done.map((t) => (t.completedAt! - t.created) / (24 * HOUR));
  const stages = new Map<string, number[]>();
  for (const t of done)
    for (const [status, hours] of Object.entries(t.hours))
      stages.set(status, [...(stages.get(status) ?? []), hours]);
  return { done, onTime, turnaround, stages };
}

/** RFC 4180 rows of a CSV text (quoted fields with commas, doubled quotes, CRLF). */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quoted && c === '"' && text[i + 1] === '"') {
      cell += '"';
      i++;
    } else if (quoted && c === '"') quoted = false;
    else if (quoted) cell += c;
    else if (c === '"') quoted = true;
    else if (c === ',') {
      row.push(cell);
      cell = '';
    } else if (c === '\r' && text[i + 1] === '\n') {
      row.push(cell);
      rows.push(row);
      row = [];
      cell = '';
      i++;
    } else cell += c;
  }
  return rows;
}

describe('reports', () => {
  let lab: TestApp;
  let admin: ApiClient;
  let commands: CaseCommandService;

  async function work(story: Story): Promise<void> {
    const creator = story.id.endsWith('3') ? story.doctorUser : REP;
    const run = (actor: Actor, command: CaseCommand, at: number) =>
      commands.execute(story.id, command, actor, {
        correlationId: 'reports-test',
        at: new Date(at).toISOString(),
        beforeAppend:
          command.type === 'CreateCase'
            ? async (runner) => {
                const [, year, suffix] = /^CA-(\d{4})-(\d+)$/.exec(story.id)!;
                await runner.query('INSERT INTO case_ids (id, year, suffix) VALUES ($1, $2, $3)', [
                  story.id,
                  Number(year),
                  Number(suffix),
                ]);
              }
            : undefined,
      });
    let at = Date.parse(story.start);
    await run(
      creator,
      {
        type: 'CreateCase',
        caseId: story.id,
        input: {
          patientName: story.patient,
          doctorName: story.doctor,
          clinicName: story.clinic,
          priority: 'Normal',
          deliveryDate: story.due,
        },
      },
      at,
    );
    for (const step of story.steps) {
      at += step.after * HOUR;
      await run(step.actor, step.command, at);
    }
  }

  beforeAll(async () => {
    lab = await startTestApp();
    admin = await lab.login('admin');
    commands = lab.app.get(CaseCommandService);
    for (const story of [...STORIES, ...OTHERS]) await work(story);
  });
  afterAll(() => lab?.close());

  it('counts completions, on-time, turnaround and weeks as the stories say', async () => {
    const answer = await admin.get(`/reports/summary?${RANGE}`);
    expect(answer.status).toBe(200);
    const summary = answer.body;
    const { done, onTime, turnaround } = expectedSummary(STORIES);
    // The stories, read by eye: 9001 and 9003 on time, 9002 and 9004 late.
    expect(summary.completed).toBe(4);
    expect(summary.onTime).toBe(2);
    expect(onTime).toHaveLength(2);
    expect(summary.onTimeRate).toBe(0.5);
    expect(summary.from).toBe('2026-03-02');
    expect(summary.to).toBe('2026-03-22');
    expect(summary.averageTurnaroundDays).toBeCloseTo(turnaround.reduce((a, b) => a + b) / 4, 2);
    // Weeks from Monday: 9001 and 9002 complete in the week of 2 March, 9003 of 9 March, 9004 of 16 March.
    expect(summary.byWeek).toEqual([
      { weekStart: '2026-03-02', completed: 2, onTime: 1 },
      { weekStart: '2026-03-09', completed: 1, onTime: 1 },
      { weekStart: '2026-03-16', completed: 1, onTime: 0 },
    ]);
    expect(done.map((t) => new Date(t.completedAt!).toISOString())).toEqual([
      '2026-03-04T18:00:00.000Z',
      '2026-03-07T15:00:00.000Z',
      '2026-03-11T08:00:00.000Z',
      '2026-03-20T08:00:00.000Z',
    ]);
    expect(summary.remakes).toEqual({ total: 0, byReasonCode: {} });
  });

  it('gives the time spent in each status: mean and 90th percentile over the cases', async () => {
    const { body: summary } = await admin.get(`/reports/summary?${RANGE}`);
    const { stages } = expectedSummary(STORIES);
    // Planning of 9002: 10 h, then 1 + 20 + 9 h after the change request (the hold counts in it).
    expect(stages.get('Digital Planning')).toEqual([24, 40, 8, 20]);
    expect(stages.get('Doctor Approval')).toEqual([5, 8, 3, 4]);
    expect(summary.byStage.map((stage: any) => stage.status)).toEqual([
      'Pending Approval',
      'Scan Received',
      'Digital Planning',
      'Doctor Approval',
      'Model Printing',
      'Thermoforming',
      'Trimming & Polishing',
      'Quality Check',
      'Packaging & Labeling',
      'Delivery to Doctor',
    ]);
    for (const stage of summary.byStage) {
      const hours = stages.get(stage.status) ?? [];
      expect(stage.cases).toBe(hours.length);
      if (!hours.length) continue;
      expect(stage.averageHours).toBeCloseTo(hours.reduce((a, b) => a + b) / hours.length, 2);
      expect(stage.p90Hours).toBeCloseTo(p90(hours), 2);
    }
    // One by hand: Digital Planning 8, 20, 24, 40 → rank 2.7 → 24 + 0.7 × 16 = 35.2 h.
    expect(summary.byStage[2]).toEqual({
      status: 'Digital Planning',
      cases: 4,
      averageHours: 23,
      p90Hours: 35.2,
    });
  });

  it('counts cases per doctor and per clinic', async () => {
    const { body: summary } = await admin.get(`/reports/summary?${RANGE}`);
    const { turnaround } = expectedSummary(STORIES);
    expect(summary.byDoctor).toEqual([
      {
        name: 'Dr. Raj Patel',
        completed: 2,
        onTime: 1,
        averageTurnaroundDays: round((turnaround[2] + turnaround[3]) / 2, 2),
      },
      {
        name: 'Dr. Sarah Lee',
        completed: 2,
        onTime: 1,
        averageTurnaroundDays: round((turnaround[0] + turnaround[1]) / 2, 2),
      },
    ]);
    expect(summary.byClinic.map((row: any) => [row.name, row.completed, row.onTime])).toEqual([
      ['Bright Smiles Dental', 2, 1],
      ['@Home Clinic', 1, 0],
      ['Downtown Orthodontics', 1, 1],
    ]);
  });

  it('downloads the completed cases as CSV, quoted and safe from formulas', async () => {
    const answer = await admin.get(`/reports/cases.csv?${RANGE}`);
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toMatch(/^text\/csv/);
    expect(answer.headers.get('content-disposition')).toContain('attachment');
    const text = answer.body as string;
    expect(text.split('\r\n')[0]).toBe(
      'id,patient,doctor,clinic,created,due,completed,onTime,turnaroundDays,remakes',
    );
    // The formula is defused with an apostrophe, and quoted for its comma.
    expect(text).toContain(`CA-2026-9004,"'=SUM(1,2)",Dr. Raj Patel,'@Home Clinic,`);
    const [header, ...rows] = parseCsv(text);
    expect(header).toHaveLength(10);
    const { done, turnaround } = expectedSummary(STORIES);
    expect(rows).toEqual(
      STORIES.map((story, index) => [
        story.id,
        story.patient.startsWith('=') ? `'${story.patient}` : story.patient,
        story.doctor,
        story.clinic.startsWith('@') ? `'${story.clinic}` : story.clinic,
        story.start,
        story.finalDue ?? story.due,
        new Date(done[index].completedAt!).toISOString(),
        String([0, 2].includes(index)),
        String(round(turnaround[index], 2)),
        '0',
      ]),
    );
  });

  it('downloads each table of the screen as CSV', async () => {
    const stages = await admin.get(`/reports/stages.csv?${RANGE}`);
    expect(stages.status).toBe(200);
    expect(parseCsv(stages.body)[0]).toEqual(['status', 'cases', 'averageHours', 'p90Hours']);
    expect(parseCsv(stages.body)[3]).toEqual(['Digital Planning', '4', '23', '35.2']);
    const weeks = await admin.get(`/reports/weeks.csv?${RANGE}`);
    expect(parseCsv(weeks.body)).toEqual([
      ['weekStart', 'completed', 'onTime'],
      ['2026-03-02', '2', '1'],
      ['2026-03-09', '1', '1'],
      ['2026-03-16', '1', '0'],
    ]);
    const clinics = await admin.get(`/reports/clinics.csv?${RANGE}`);
    expect(parseCsv(clinics.body).map((row) => row[0])).toEqual([
      'clinic',
      'Bright Smiles Dental',
      "'@Home Clinic",
      'Downtown Orthodontics',
    ]);
    expect((await admin.get(`/reports/doctors.csv?${RANGE}`)).status).toBe(200);
    expect((await admin.get(`/reports/remakes.csv?${RANGE}`)).body).toBe('reasonCode,remakes\r\n');
    expect((await admin.get(`/reports/nothing.csv?${RANGE}`)).status).toBe(404);
  });

  it('is for managers: other staff and doctors 403, anonymous 401', async () => {
    for (const username of ['rep', 'designer', 'tech', 'dr.lee']) {
      const user = await lab.login(username);
      for (const path of [
        `/reports/summary?${RANGE}`,
        `/reports/cases.csv?${RANGE}`,
        `/reports/stages.csv?${RANGE}`,
      ]) {
        const answer = await user.get(path);
        expect([username, path, answer.status, answer.body]).toEqual([
          username,
          path,
          403,
          { error: 'Reports are for managers.' },
        ]);
      }
    }
    expect((await lab.anonymous.get(`/reports/summary?${RANGE}`)).status).toBe(401);
    expect((await lab.anonymous.get(`/reports/cases.csv?${RANGE}`)).status).toBe(401);
  });

  it('refuses bad ranges with a clear 400', async () => {
    const cases: [string, string][] = [
      ['', 'Give the report range as from=YYYY-MM-DD and to=YYYY-MM-DD.'],
      ['from=2026-03-01', 'Give the report range as from=YYYY-MM-DD and to=YYYY-MM-DD.'],
      ['from=2026-03-01&to=yesterday', 'to must be a date as YYYY-MM-DD (got "yesterday").'],
      ['from=2026-02-30&to=2026-03-01', 'from must be a date as YYYY-MM-DD (got "2026-02-30").'],
      ['from=2026-03-02&to=2026-03-01', 'The report range must start (from) on or before its end (to).'],
      [
        'from=2026-03-01&from=2026-03-02&to=2026-03-05',
        'Give the report range as from=YYYY-MM-DD and to=YYYY-MM-DD.',
      ],
      ['from=1900-01-01&to=2026-03-01', 'The report range may cover at most 1830 days.'],
    ];
    for (const [query, error] of cases) {
      for (const path of ['/reports/summary', '/reports/cases.csv', '/reports/weeks.csv']) {
        const answer = await admin.get(`${path}?${query}`);
        expect([query, path, answer.status, answer.body]).toEqual([query, path, 400, { error }]);
      }
    }
  });

  it('counts a case worked today through the HTTP API', async () => {
    const rep = await lab.login('rep');
    const designer = await lab.login('designer');
    const tech = await lab.login('tech');
    const lee = await lab.login('dr.lee');
    const created = await rep.post('/cases', {
      patientName: 'Today Patient',
      doctorName: 'Dr. Sarah Lee',
      clinicName: 'Same Day Clinic',
      priority: 'High',
    });
    expect(created.status).toBe(201);
    const id = created.body.id;
    expect((await admin.post(`/cases/${id}/approve`, { doctorUsername: 'dr.lee' })).status).toBe(200);
    expect((await designer.post(`/cases/${id}/advance`)).status).toBe(200);
    expect((await lee.post(`/cases/${id}/request-changes`, { comment: 'Again' })).status).toBe(200);
    expect((await admin.post(`/cases/${id}/hold`)).status).toBe(200);
    expect((await admin.post(`/cases/${id}/resume`)).status).toBe(200);
    expect((await designer.post(`/cases/${id}/advance`)).status).toBe(200);
    expect((await lee.post(`/cases/${id}/doctor-approve`)).status).toBe(200);
    for (let i = 0; i < 4; i++) expect((await tech.post(`/cases/${id}/advance`)).status).toBe(200);
    expect((await rep.post(`/cases/${id}/advance`)).status).toBe(200);
    const completed = await rep.post(`/cases/${id}/advance`);
    expect(completed.body.status).toBe('Completed');

    // The hand count from its own history: every status it entered, and when.
    const history = (await admin.get(`/cases/${id}/history`)).body as { type: string; at: string }[];
    const entered = history.filter((event) =>
      ['CaseCreated', 'CaseApproved', 'StageAdvanced', 'ChangesRequested', 'TreatmentPlanApproved'].includes(
        event.type,
      ),
    );
    expect(entered).toHaveLength(12);
    const today = new Date(Date.parse(completed.body.statusEnteredAt));
    const local = new Date(today.getTime() - today.getTimezoneOffset() * 60_000).toISOString().slice(0, 10);
    const { body: summary } = await admin.get(`/reports/summary?from=${local}&to=${local}`);
    expect(summary.completed).toBe(1);
    expect(summary.onTime).toBe(1); // due in 14 days by default
    expect(summary.byClinic).toEqual([
      expect.objectContaining({ name: 'Same Day Clinic', completed: 1, onTime: 1 }),
    ]);
    const planning = summary.byStage.find((stage: any) => stage.status === 'Digital Planning');
    // Two visits of planning, one case.
    expect(planning.cases).toBe(1);
    const hours = (from: number, to: number) =>
      (Date.parse(entered[to].at) - Date.parse(entered[from].at)) / HOUR;
    // Entered planning at 1 (approve) and 3 (changes requested); left it at 2 and 4.
    expect(planning.averageHours).toBeCloseTo(round(hours(1, 2) + hours(3, 4), 2), 2);
    const turnaround =
      (Date.parse(completed.body.statusEnteredAt) - Date.parse(created.body.createdDate)) / (24 * HOUR);
    expect(summary.averageTurnaroundDays).toBeCloseTo(round(turnaround, 2), 2);
  });

  it('rebuilds the same rows by replay, and counts remakes ordered in the range', async () => {
    const dataSource = lab.app.get(DataSource);
    const store = lab.app.get(EventStore);
    const snapshot = async () =>
      dataSource.query(
        `SELECT (SELECT json_agg(r ORDER BY id) FROM report_cases r) AS cases,
                (SELECT json_agg(i ORDER BY case_id, version) FROM report_stage_intervals i) AS intervals`,
      );
    const before = await snapshot();
    const summaryBefore = (await admin.get(`/reports/summary?${RANGE}`)).body;
    const csvBefore = (await admin.get(`/reports/cases.csv?${RANGE}`)).body;
    await new ProjectionRebuilder(dataSource, store).run();
    expect(await snapshot()).toEqual(before);
    expect((await admin.get(`/reports/summary?${RANGE}`)).body).toEqual(summaryBefore);
    expect((await admin.get(`/reports/cases.csv?${RANGE}`)).body).toBe(csvBefore);

    // Reorders' events (another module writes them): the new case's CaseCreated carries origin.
    const [original] = await store.readStream(caseStreamId('CA-2026-9001'));
    const reorder = (id: string, at: string, origin: object) => ({
      streamId: caseStreamId(id),
      expectedVersion: 0,
      events: [{ type: 'CaseCreated', data: { ...(original.data as object), id, origin } }],
      metadata: { actor: ADMIN, correlationId: 'reports-test' },
      recordedAt: at,
    });
    const results = await store.appendStreams([
      reorder('CA-2026-9101', '2026-03-12T10:00:00.000Z', {
        caseId: 'CA-2026-9001',
        kind: 'remake',
        reasonCode: 'broken',
        reason: 'Cracked',
      }),
      reorder('CA-2026-9102', '2026-03-13T10:00:00.000Z', {
        caseId: 'CA-2026-9001',
        kind: 'remake',
        reasonCode: 'poor_fit',
        reason: 'Loose',
      }),
      reorder('CA-2026-9103', '2026-03-14T10:00:00.000Z', {
        caseId: 'CA-2026-9002',
        kind: 'refinement',
        reasonCode: null,
        reason: '',
      }),
      // Ordered after the range: not counted in it.
      reorder('CA-2026-9104', '2026-03-25T10:00:00.000Z', {
        caseId: 'CA-2026-9002',
        kind: 'remake',
        reasonCode: 'lost',
        reason: 'Lost on holiday',
      }),
    ]);
    expect(results.every(Array.isArray)).toBe(true);
    await new ProjectionRebuilder(dataSource, store).run();
    const summary = (await admin.get(`/reports/summary?${RANGE}`)).body;
    expect(summary.remakes).toEqual({ total: 2, byReasonCode: { broken: 1, poor_fit: 1 } });
    expect(summary.completed).toBe(4);
    const rows = parseCsv((await admin.get(`/reports/cases.csv?${RANGE}`)).body);
    // 9001 has two remakes; 9002 one remake (ordered after the range, counted all the same) and a refinement.
    expect(rows.slice(1).map((row) => [row[0], row[9]])).toEqual([
      ['CA-2026-9001', '2'],
      ['CA-2026-9002', '1'],
      ['CA-2026-9003', '0'],
      ['CA-2026-9004', '0'],
    ]);
    const remakes = parseCsv((await admin.get(`/reports/remakes.csv?${RANGE}`)).body);
    expect(remakes).toEqual([
      ['reasonCode', 'remakes'],
      ['broken', '1'],
      ['poor_fit', '1'],
    ]);
  });
});
