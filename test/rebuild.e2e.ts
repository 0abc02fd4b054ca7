import {
  caseStreamId,
  decide,
  decideUser,
  evolve,
  evolveUser,
  userStreamId,
  type Actor,
  type Case,
  type CaseCommand,
  type CaseEventData,
  type UserCommand,
  type UserState,
} from '@alignerflow/domain';
import { DataSource, type QueryRunner } from 'typeorm';
import { CaseViewProjection } from '../backend/src/cases/projections/case-view.projection';
import { EventStore, withTransaction, type NewEvent } from '../backend/src/event-store/event-store';
import { ProjectionRebuilder } from '../backend/src/rebuild/projection-rebuilder';
import { type RebuildProgress } from '../backend/src/rebuild/rebuild-progress';
import { UserViewProjection } from '../backend/src/users/user-view.projection';
import { byUsername, caseAt } from './support/case-road';
import type { ApiClient } from './support/http';
import { startTestApp, type TestApp } from './support/test-app';

const TARGET_EVENTS = 100_000;
const CASES = 6000;
const LANES = 4;
const READ_MODELS = ['case_view', 'case_notes', 'user_view', 'case_ids'];

const MANAGER: Actor = { username: 'admin', role: 'Manager' };
const ACTORS: Actor[] = [
  MANAGER,
  { username: 'designer', role: 'Designer' },
  { username: 'tech', role: 'Technician' },
  { username: 'rep', role: 'Representative' },
  { username: 'dr.lee', role: 'Doctor' },
  { username: 'dr.patel', role: 'Doctor' },
];

/** Deterministic randomness, so a failure can be replayed. */
function random(seed: number) {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return {
    next,
    int: (n: number) => Math.floor(next() * n),
    pick: <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)],
    chance: (p: number) => next() < p,
  };
}
type Random = ReturnType<typeof random>;

/** A command the actor might send for the case in this state; decide says whether it is allowed. */
function someCommand(rng: Random, state: Case, actor: Actor): CaseCommand {
  if (rng.chance(0.01)) return { type: 'RejectCase', reason: 'Scan unusable.' };
  if (rng.chance(0.003)) return { type: 'DeleteCase' };
  const doctor = rng.pick(['dr.lee', 'dr.patel']);
  const stage = state.staging.length ? 1 + rng.int(state.staging.length) : 1;
  const note: CaseCommand = { type: 'AddNote', text: `note ${rng.int(1e6)}` };
  const staging: CaseCommand[] = [
    {
      type: 'ChangeAlignerStage',
      stageNumber: stage,
      action: rng.pick(['start', 'complete', 'reopen', 'reset'] as const),
    },
    { type: 'ScanAlignerStage', stageNumber: stage },
  ];
  // Mostly what the role does at this stage, sometimes anything (decide refuses the rest).
  const byRole: Record<Actor['role'], CaseCommand[]> = {
    Manager: [
      { type: 'ApproveCase', doctorUsername: doctor, doctor: { username: doctor, role: 'Doctor' } },
      { type: 'AdvanceStage' },
      { type: state.onHold ? 'ResumeCase' : 'HoldCase' },
      {
        type: 'EditCase',
        fields: { patientName: `Patient ${rng.int(1e6)}`, priority: rng.pick(['Normal', 'High']) },
      },
      { type: 'ReassignStage', stage: state.status, assignee: 'tech', assigneeIsLabUser: true },
      ...staging,
    ],
    Representative: [
      { type: 'AdvanceStage' },
      {
        type: 'UpdatePricing',
        price: 1000 + rng.int(900),
        upperSheets: 10 + rng.int(20),
        lowerSheets: 10 + rng.int(20),
      },
    ],
    Designer: [
      { type: 'AdvanceStage' },
      {
        type: 'SaveSimulationLinks',
        simulationVideoUrl: `https://sim.example/${rng.int(1e6)}.mp4`,
        simulationExternalLink: '',
      },
    ],
    Technician: [{ type: 'AdvanceStage' }, { type: 'GenerateCaseQr' }],
    Doctor: [
      { type: 'ApproveTreatmentPlan' },
      { type: 'ApproveTreatmentPlan' },
      { type: 'RequestChanges', comment: 'Tilt the upper incisors less.' },
      ...staging,
    ],
  };
  return rng.chance(0.15) ? note : rng.pick(byRole[actor.role]);
}

interface Workload {
  events: number;
  cases: number;
}

/**
 * Writes a random but valid history fast: in rounds, one actor works on a random 30% of the cases,
 * each step decided and folded with the domain's decide/evolve in memory; each round is appended
 * with appendMany by four transactions at once (so transaction ids and positions interleave), and
 * every few rounds the live projections write the changed rows one by one, as commands do.
 */
async function writeWorkload(lab: TestApp, target: number): Promise<Workload> {
  const dataSource = lab.app.get(DataSource);
  const store = lab.app.get(EventStore);
  const caseProjection = lab.app.get(CaseViewProjection);
  const userProjection = lab.app.get(UserViewProjection);
  const rng = random(20240917);
  const cases: (Case | null)[] = Array.from({ length: CASES }, () => null);
  const caseId = (index: number) => `CA-2031-${10000 + index}`;
  const users = new Map<string, UserState | null>();
  const dirtyCases = new Set<number>();
  const dirtyUsers = new Set<string>();
  let written = 0;

  const positionsOf = async (runner: QueryRunner, streamIds: string[]) => {
    const rows: { stream_id: string; position: string }[] = await runner.query(
      `SELECT stream_id, max(global_position)::text AS position FROM events
        WHERE stream_id = ANY($1::text[]) GROUP BY stream_id`,
      [streamIds],
    );
    return new Map(rows.map((row) => [row.stream_id, row.position]));
  };

  /** One transaction of a round: the cases of one lane, worked on by the round's actor. */
  const lane = async (round: number, actor: Actor, indices: number[], withUsers: boolean) =>
    withTransaction(dataSource, async (runner) => {
      // recorded_at of this transaction's events, formatted as the store reads it back.
      const [{ at }] = await runner.query(
        `SELECT to_char(now() AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS at`,
      );
      const batch: { streamId: string; expectedVersion: number; events: NewEvent[] }[] = [];
      const touched: number[] = [];
      const created: number[] = [];
      for (const index of indices) {
        let state = cases[index];
        if (state?.deleted) continue;
        if (!state && (actor.role === 'Designer' || actor.role === 'Technician')) continue;
        const expectedVersion = state?.version ?? 0;
        const events: CaseEventData[] = [];
        if (!state && rng.chance(0.05)) {
          // A case brought in whole, as a restore or the demo seed does.
          const decision = decide(null, newCase(rng, caseId(index)), actor, at);
          if (!decision.ok) throw new Error(decision.rejection.message);
          const { version: _, ...whole } = evolve(null, { ...decision.events[0], actor, at });
          events.push({ type: 'CaseImported', data: { case: whole } });
          state = evolve(null, { ...events[0], actor, at });
        }
        const steps = 2 + rng.int(7);
        for (let step = 0, tries = 0; step < steps && tries < 3 * steps; tries++) {
          const command = state ? someCommand(rng, state, actor) : newCase(rng, caseId(index));
          const decision = decide(state, command, actor, at);
          if (!decision.ok || !decision.events.length) continue;
          for (const event of decision.events) {
            state = evolve(state, { ...event, actor, at });
            events.push(event);
          }
          step++;
          if (state!.deleted) break;
        }
        if (!events.length) continue;
        if (!cases[index]) created.push(index);
        cases[index] = state;
        touched.push(index);
        batch.push({ streamId: caseStreamId(caseId(index)), expectedVersion, events });
      }
      // Users: a few created, changed and deleted by the manager.
      const userStreams: string[] = [];
      for (let n = 0; withUsers && n < 40; n++) {
        const username = `user${rng.int(300)}`;
        if (userStreams.includes(userStreamId(username))) continue;
        const state = users.get(username) ?? null;
        const command: UserCommand =
          !state || state.deleted
            ? {
                type: 'CreateUser',
                user: { username, role: 'Technician', email: null, passwordHash: `$argon2id$v=19$fake$${n}` },
              }
            : rng.chance(0.2)
              ? { type: 'DeleteUser' }
              : {
                  type: 'UpdateUser',
                  changes: {
                    role: rng.pick(['Designer', 'Technician'] as const),
                    activationSoundEnabled: rng.chance(0.5),
                  },
                };
        const decision = decideUser(state, command, actor, username);
        if (!decision.ok || !decision.events.length) continue;
        users.set(username, decision.events.reduce<UserState | null>(evolveUser, state));
        userStreams.push(userStreamId(username));
        batch.push({
          streamId: userStreamId(username),
          expectedVersion: state?.version ?? 0,
          events: decision.events,
        });
      }
      if (!batch.length) return;
      // Lanes run in parallel: add after the await, or one lane's count overwrites another's.
      const appended = await store.appendMany(batch, { actor, correlationId: `workload-${round}` }, runner);
      written += appended;
      for (const index of touched) dirtyCases.add(index);
      for (const index of created) {
        const [year, suffix] = caseId(index).slice(3).split('-').map(Number);
        await runner.query('INSERT INTO case_ids (id, year, suffix) VALUES ($1, $2, $3)', [
          caseId(index),
          year,
          suffix,
        ]);
      }
      for (const streamId of userStreams) dirtyUsers.add(streamId.slice('user-'.length));
    });

  /**
   * The live projections write what changed since their last run, row by row as the commands do
   * (CaseViewProjection.apply and UserViewProjection.apply are upserts of the whole state, so the
   * rows they leave are those of applying every intermediate state).
   */
  const project = async () => {
    const indices = [...dirtyCases];
    const usernames = [...dirtyUsers];
    dirtyCases.clear();
    dirtyUsers.clear();
    await Promise.all(
      Array.from({ length: LANES }, (_, n) =>
        withTransaction(dataSource, async (runner) => {
          const mine = indices.filter((index) => index % LANES === n);
          const names = n === 0 ? usernames : [];
          const positions = await positionsOf(runner, [
            ...mine.map((index) => caseStreamId(caseId(index))),
            ...names.map((username) => userStreamId(username)),
          ]);
          for (const index of mine) {
            const state = cases[index]!;
            await caseProjection.apply(state, positions.get(caseStreamId(state.id))!, runner);
          }
          for (const username of names) {
            await userProjection.apply(users.get(username)!, positions.get(userStreamId(username))!, runner);
          }
        }),
      ),
    );
  };

  for (let round = 0; written < target; round++) {
    const actor = ACTORS[round % ACTORS.length];
    const chosen = Array.from({ length: CASES }, (_, index) => index).filter(() => rng.chance(0.3));
    // Lanes commit in parallel: their transaction ids interleave with their positions.
    await Promise.all(
      Array.from({ length: LANES }, (_, n) =>
        lane(
          round,
          actor,
          chosen.filter((index) => index % LANES === n),
          n === 0 && actor.role === 'Manager',
        ),
      ),
    );
    if (round % 8 === 7) await project();
  }
  await project();
  return { events: written, cases: cases.filter(Boolean).length };
}

function newCase(rng: Random, caseId: string): CaseCommand {
  return {
    type: 'CreateCase',
    caseId,
    input: {
      patientName: `Patient ${rng.int(1e6)}`,
      doctorName: 'Dr. Sarah Lee',
      clinicName: 'Bright Smiles Dental',
      priority: rng.pick(['Normal', 'High']),
      price: 900 + rng.int(600),
      upperSheets: rng.int(25),
      lowerSheets: rng.int(25),
      treatmentPlanNotes: 'Generated.',
    },
  };
}

describe('projection rebuild', () => {
  let lab: TestApp;
  let dataSource: DataSource;
  let rebuilder: ProjectionRebuilder;
  let admin: ApiClient;
  let workload: Workload;

  /** Copies the live read models, to compare them with what a rebuild makes. */
  async function snapshot(): Promise<void> {
    for (const table of READ_MODELS) {
      await dataSource.query(`DROP TABLE IF EXISTS snapshot_${table}`);
      await dataSource.query(`CREATE TABLE snapshot_${table} AS SELECT * FROM ${table}`);
    }
  }

  /** Every row of every read model equals the snapshot's, column by column (jsonb by value). */
  async function expectSameAsSnapshot(): Promise<void> {
    for (const table of READ_MODELS) {
      const [{ live, saved }] = await dataSource.query(
        `SELECT (SELECT count(*) FROM ${table})::int AS live, (SELECT count(*) FROM snapshot_${table})::int AS saved`,
      );
      const differences = await dataSource.query(
        `(SELECT 'rebuilt' AS side, * FROM (SELECT * FROM ${table} EXCEPT ALL SELECT * FROM snapshot_${table}) a)
         UNION ALL
         (SELECT 'incremental' AS side, * FROM (SELECT * FROM snapshot_${table} EXCEPT ALL SELECT * FROM ${table}) b)
         LIMIT 4`,
      );
      expect({ table, differences }).toEqual({ table, differences: [] });
      expect({ table, rows: live }).toEqual({ table, rows: saved });
    }
  }

  async function rebuildState() {
    const [{ checkpoint }] = await dataSource.query(
      "SELECT count(*)::int AS checkpoint FROM projection_checkpoints WHERE name = 'rebuild'",
    );
    const [{ shadows }] = await dataSource.query(
      "SELECT count(*)::int AS shadows FROM pg_class WHERE relname IN ('case_view_rebuild', 'case_notes_rebuild', 'user_view_rebuild', 'case_ids_rebuild')",
    );
    return { checkpoint, shadows };
  }

  beforeAll(async () => {
    lab = await startTestApp();
    dataSource = lab.app.get(DataSource);
    rebuilder = new ProjectionRebuilder(dataSource, lab.app.get(EventStore));
    admin = await lab.login('admin');
    const started = Date.now();
    workload = await writeWorkload(lab, TARGET_EVENTS);
    console.log(
      `workload: ${workload.events} events on ${workload.cases} cases written and projected in ${Date.now() - started} ms`,
    );
  }, 180_000);
  afterAll(() => lab?.close());

  it('rebuilds a 100,000-event workload into read models equal to the incremental ones, row for row', async () => {
    expect(workload.events).toBeGreaterThanOrEqual(TARGET_EVENTS);
    await snapshot();
    const reports: RebuildProgress[] = [];
    const cpu = process.cpuUsage();
    const result = await rebuilder.run({ onProgress: (progress) => reports.push(progress) });
    const { user, system } = process.cpuUsage(cpu);
    // A figure to read, never pass/fail: it depends on the machine and on what else runs on it.
    console.log(
      `rebuild: ${result.eventsDone} events replayed and swapped in at ${result.eventsPerSecond} events/s ` +
        `(${Date.parse(result.finishedAt!) - Date.parse(result.startedAt!)} ms; swap ${result.swapMs} ms; ` +
        `${Math.round((user + system) / 1000)} ms of this process's CPU)`,
    );
    expect(result).toMatchObject({ state: 'done', resumedFrom: 0 });
    expect(result.eventsDone).toBeGreaterThanOrEqual(workload.events);
    expect(reports.length).toBeGreaterThan(5);
    expect(reports.map((report) => report.eventsDone)).toEqual(
      [...reports.map((report) => report.eventsDone)].sort((a, b) => a - b),
    );
    await expectSameAsSnapshot();
    expect(await rebuildState()).toEqual({ checkpoint: 0, shadows: 0 });
    // The swapped-in tables keep the live tables' index names.
    const indexes: { indexname: string }[] = await dataSource.query(
      "SELECT indexname FROM pg_indexes WHERE tablename IN ('case_view', 'case_notes', 'user_view', 'case_ids') ORDER BY 1",
    );
    expect(indexes.map((row) => row.indexname)).toEqual([
      'case_ids_pkey',
      'case_ids_year',
      'case_notes_pkey',
      'case_view_doctor',
      'case_view_pkey',
      'case_view_stage_records',
      'case_view_status',
      'user_view_last_position',
      'user_view_pkey',
    ]);
  }, 60_000);

  it('resumes a rebuild that crashed half-way from its checkpoint, with the same result', async () => {
    await snapshot();
    await expect(rebuilder.run({ batchSize: 5000, flushIntervalMs: 0, crashAfterWrites: 8 })).rejects.toThrow(
      'test hook',
    );
    expect(await rebuildState()).toEqual({ checkpoint: 1, shadows: 4 });
    // Meanwhile the API still serves from the live tables.
    expect((await admin.get('/cases')).body.length).toBeGreaterThan(1000);

    // A small cache: written states are dropped and loaded back from the shadow tables.
    const result = await rebuilder.run({ batchSize: 5000, flushIntervalMs: 0, cacheLimit: 500 });
    expect(result.state).toBe('done');
    expect(result.resumedFrom).toBeGreaterThanOrEqual(8 * 5000);
    expect(result.eventsDone).toBeGreaterThanOrEqual(workload.events);
    await expectSameAsSnapshot();
    expect(await rebuildState()).toEqual({ checkpoint: 0, shadows: 0 });
  }, 60_000);

  it('loses nothing of the commands served while a rebuild runs and swaps (admin endpoint)', async () => {
    const rep = await lab.login('rep');
    const designer = await lab.login('designer');
    expect((await rep.post('/admin/rebuild-projections')).status).toBe(403);
    expect((await rep.get('/admin/rebuild-projections')).status).toBe(403);

    const ids: string[] = [];
    for (let n = 0; n < 20; n++) {
      const input = { patientName: `Concurrent ${n}` };
      ids.push((await caseAt(byUsername(admin, rep), 'Digital Planning', input, 'rep')).id);
    }
    const tagBefore = (await admin.get('/cases')).headers.get('etag');

    const started = await admin.post('/admin/rebuild-projections');
    expect(started.status).toBe(202);
    expect(started.body).toMatchObject({ state: 'running' });
    expect(started.body).toHaveProperty('eventsDone');
    expect(started.body).toHaveProperty('eventsTotal');
    expect(started.body).toHaveProperty('eventsPerSecond');

    // Commands of several kinds, ten at a time, for as long as the rebuild runs (and a bit more).
    const notes = new Map<string, number>();
    let created = 0;
    const answers: number[] = [];
    let running = true;
    const worker = async (lane: number) => {
      for (let n = 0; running || n < 20; n++) {
        const id = ids[(lane * 7 + n) % ids.length];
        if (n % 5 === 4) {
          const answer = await rep.post('/cases', {
            patientName: `During ${lane}-${n}`,
            doctorName: 'D',
            clinicName: 'C',
          });
          answers.push(answer.status);
          if (answer.status === 201) created++;
        } else if (n % 5 === 3) {
          answers.push((await designer.post(`/cases/${id}/advance`)).status);
        } else {
          const answer = await admin.post(`/cases/${id}/notes`, { text: `during rebuild ${lane}-${n}` });
          answers.push(answer.status);
          if (answer.status === 201) notes.set(id, (notes.get(id) ?? 0) + 1);
        }
      }
    };
    const workers = Array.from({ length: 10 }, (_, lane) => worker(lane));
    let progress = started.body;
    const seen: string[] = [];
    while (progress.state === 'running') {
      await new Promise((resolve) => setTimeout(resolve, 20));
      progress = (await admin.get('/admin/rebuild-projections')).body;
      seen.push(progress.state);
    }
    running = false;
    await Promise.all(workers);
    expect(progress).toMatchObject({ state: 'done' });
    expect(progress.eventsDone).toBeGreaterThanOrEqual(workload.events);
    expect(progress.eventsPerSecond).toBeGreaterThan(0);
    console.log(
      `rebuild under load: ${progress.eventsDone} events at ${progress.eventsPerSecond} events/s; ${answers.length} commands served meanwhile`,
    );
    // 409 only for an advance beyond Digital Planning (Doctor Approval waits for the doctor).
    expect(answers.filter((status) => ![200, 201, 409].includes(status))).toEqual([]);

    // Every note answered 201 is in the read model...
    for (const [id, count] of notes) {
      const found = (await admin.get(`/cases/${id}`)).body;
      expect(
        found.notes.filter((note: { text: string }) => note.text.startsWith('during rebuild')),
      ).toHaveLength(count);
    }
    expect(
      (await admin.get('/cases')).body.filter((item: Case) => item.patientName.startsWith('During')),
    ).toHaveLength(created);
    // ...and the read models equal a clean rebuild of the log, row for row.
    await snapshot();
    await rebuilder.run();
    await expectSameAsSnapshot();
    expect((await admin.get('/cases')).headers.get('etag')).not.toBe(tagBefore);
  }, 60_000);
});
