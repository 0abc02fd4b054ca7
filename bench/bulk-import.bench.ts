import { evolve, type Actor, type Case } from '@alignerflow/domain';
import { availableParallelism } from 'node:os';
import { DataSource } from 'typeorm';
import { BackupService } from '../backend/src/backup/backup.service';
import { caseImportEvents } from '../backend/src/backup/case-import.service';
import type { CaseEventCipher } from '../backend/src/event-store/encryption/case-event-cipher';
import { EventStore } from '../backend/src/event-store/event-store';
import type { StreamAppend } from '../backend/src/event-store/event-types';
import { startTestApp, type TestApp } from '../test/support/test-app';
import { serverCpuSeconds, thousands } from './support/load';
import { profileThisProcess, sampleWaitEvents } from './support/profiles';
import { recordFigure } from './support/report';

/**
 * Bulk import: a restore of a backup of CASES cases through the real restore code
 * (`BackupService.restore(body)`, what POST /api/restore runs once the body is parsed), beside a
 * raw INSERT … SELECT of the same rows on the same server.
 *
 * - bulk-import: the append rate of the import's events — the restore's bulk append of its
 *   CASES CaseImported events (`EventStore.appendMany`, called by `CaseImportService` inside the
 *   restore's one transaction), timed by the service itself (`BackupService.lastRestore`): making
 *   the cases' keys (just before the transaction opens), building the statements in Node (JSON of
 *   every case, sealed) and inserting them, version check included; not
 *   the file check, the read-model rows or the commit, which the restore figure includes.
 * - bulk-import-raw: the same CaseImported rows (copied untimed to a staging table afterwards)
 *   inserted by one `INSERT … SELECT` into a table with the columns, defaults, constraints and
 *   indexes of `events` (LIKE … INCLUDING ALL; not its statement trigger), commit included. No
 *   JSON crosses the wire or is parsed; measured once the app's background readers have settled.
 *   Printed beside it: the same rows from their JSON as text (parsed into jsonb by the INSERT).
 * - bulk-import-ratio: bulk-import / bulk-import-raw.
 * - bulk-import-bound: the most two cores allow any restore of these events with the steps it
 *   cannot leave out, each measured here on the same events by the product's own code, CPU from
 *   /proc: PostgreSQL parsing and inserting their JSON text (the INSERT above), sealing their
 *   patient fields (the event store's cipher, keys at hand), their JSON, and making each case's
 *   key (CaseKeys, Node and PostgreSQL). Their CPU per event, summed, over two cores.
 * - bulk-import-restore: the whole restore call, end to end — check of the whole file, the one
 *   import transaction (BackupRestored marker, a UserImported per user, the cases' append, their
 *   case_view and case_ids rows, CaseDeleted for the demo cases the backup lacks, commit). Rate:
 *   every event the restore appended per second of the call; Node CPU of the call per event.
 * - bulk-import-profile: a second restore of the same file into a fresh database, with this
 *   process's CPU profiler open (the figures above come from the unprofiled one).
 */
const BENCH = 'bench/bulk-import.bench.ts';
const CASES = Number(process.env.BENCH_IMPORT_CASES ?? 100_000);
const TARGET_RATIO = 0.4;
const CORES = availableParallelism();
const MANAGER: Actor = { username: 'admin', role: 'Manager' };

/** A case as the backup holds it: created through the domain, approved, one note more. */
function templateCase(): Omit<Case, 'version'> {
  const at = '2024-01-01T00:00:00.000Z';
  let state = evolve(null, {
    type: 'CaseCreated',
    actor: { username: 'rep', role: 'Representative' },
    at,
    data: {
      id: 'CA-2001-10000',
      patientName: 'Patient',
      doctorName: 'Dr. Sarah Lee',
      clinicName: 'Clinic',
      priority: 'Normal',
      deliveryDate: '2024-03-01',
      treatmentPlanNotes: 'Crowding, upper and lower arch.',
      assignedDoctorUsername: null,
      files: [{ name: 'upper.stl', type: 'STL', url: '/api/files/bench', size: '2.41 MB' }],
      price: 1200,
      upperSheets: 20,
      lowerSheets: 18,
      fee: null,
    },
  });
  state = evolve(state, { type: 'CaseApproved', actor: MANAGER, at, data: { doctorUsername: 'dr.lee' } });
  state = evolve(state, { type: 'NoteAdded', actor: MANAGER, at, data: { text: 'Scan checked.' } });
  const { version: _version, ...imported } = state;
  return imported;
}

/** The template under another id and name (the restore checks and copies every case anyway). */
function backupCase(template: Omit<Case, 'version'>, index: number): Omit<Case, 'version'> {
  const id = `CA-${2001 + Math.floor(index / 90_000)}-${10_000 + (index % 90_000)}`;
  return {
    ...template,
    id,
    patientName: `Patient ${index}`,
    clinicName: `Clinic ${index % 97}`,
    priority: index % 5 ? 'Normal' : 'High',
  };
}

describe('bulk import', () => {
  let lab: TestApp;
  let dataSource: DataSource;
  beforeAll(async () => {
    lab = await startTestApp();
    dataSource = lab.app.get(DataSource);
  });
  afterAll(() => lab.close());

  it(`restores ${thousands(CASES)} cases, beside a raw INSERT … SELECT of the same rows`, async () => {
    const backups = lab.app.get(BackupService);
    const current = JSON.parse(await backups.backupJson());
    const template = templateCase();
    const body = {
      users: current.users,
      cases: Array.from({ length: CASES }, (_, index) => backupCase(template, index)),
    };
    const [{ before }] = await dataSource.query('SELECT max(global_position)::text AS before FROM events');

    const cpu = process.cpuUsage();
    const started = performance.now();
    const answer = await backups.restore(body, MANAGER, 'bench-restore');
    const restoreMs = performance.now() - started;
    const { user, system } = process.cpuUsage(cpu);
    const report = backups.lastRestore!;

    const [{ events, imported }] = await dataSource.query(
      `SELECT count(*)::int AS events, count(*) FILTER (WHERE type = 'CaseImported')::int AS imported
         FROM events WHERE global_position > $1::bigint`,
      [before],
    );
    expect(answer).toEqual({ users: current.users.length, cases: CASES });
    expect(imported).toBe(CASES);
    expect(report.cases.events).toBe(CASES);
    // The marker, the users, the cases, and a CaseDeleted for each demo case the backup lacks.
    expect(events).toBeGreaterThanOrEqual(1 + current.users.length + CASES);
    const [{ cases }] = await dataSource.query(
      'SELECT count(*)::int AS cases FROM case_view WHERE NOT deleted',
    );
    expect(cases).toBe(CASES);

    // The same rows, raw: staged untimed, then one INSERT … SELECT into a copy of the events table.
    await dataSource.query(
      `CREATE TABLE bench_staging AS
         SELECT stream_id, stream_version, type, schema_version, data, metadata FROM events
          WHERE global_position > $1::bigint AND type = 'CaseImported' ORDER BY global_position`,
      [before],
    );
    await dataSource.query(
      `CREATE TABLE bench_staging_text AS
         SELECT stream_id, stream_version, type, schema_version, data::text AS data, metadata FROM bench_staging`,
    );
    const [{ bytes }] = await dataSource.query(
      'SELECT avg(octet_length(data))::int AS bytes FROM bench_staging_text',
    );
    await dataSource.query('CREATE TABLE bench_events (LIKE events INCLUDING ALL)');
    await dataSource.query('VACUUM ANALYZE bench_staging, bench_staging_text');
    // The restore's events wake the app's readers (live updates, notifications): let them finish.
    await settled();
    const rawStarted = performance.now();
    let postgresBefore = serverCpuSeconds('postgres');
    await dataSource.query(
      `INSERT INTO bench_events (stream_id, stream_version, type, schema_version, data, metadata)
       SELECT stream_id, stream_version, type, schema_version, data, metadata FROM bench_staging`,
    );
    const rawMs = performance.now() - rawStarted;
    const rawPostgresCpu = serverCpuSeconds('postgres') - postgresBefore;
    await dataSource.query('TRUNCATE bench_events');
    const textStarted = performance.now();
    postgresBefore = serverCpuSeconds('postgres');
    await dataSource.query(
      `INSERT INTO bench_events (stream_id, stream_version, type, schema_version, data, metadata)
       SELECT stream_id, stream_version, type, schema_version, data::jsonb, metadata FROM bench_staging_text`,
    );
    const textMs = performance.now() - textStarted;
    const textPostgresCpu = serverCpuSeconds('postgres') - postgresBefore;
    await dataSource.query('DROP TABLE bench_staging, bench_staging_text, bench_events');

    // The steps no restore of these events can leave out, each alone on the same events.
    const bound = await unavoidableCpu(lab, body.cases);
    const parseMicros = (textPostgresCpu * 1e6) / CASES;
    const boundMicros = parseMicros + bound.sealMicros + bound.jsonMicros + bound.keyMicros;
    const boundRate = (CORES * 1e6) / boundMicros;

    // The cases' keys are made before the transaction opens, for the append's sealing: counted in it
    // (with the wait for a connection and the BEGIN, which come in the same interval).
    const appendMs = report.keysMs + report.cases.appendMs;
    const rate = CASES / (appendMs / 1000);
    const rawRate = CASES / (rawMs / 1000);
    const seconds = (milliseconds: number) => `${(milliseconds / 1000).toFixed(1)} s`;
    recordFigure({
      id: 'bulk-import',
      figure:
        `Restore's bulk append of its ${thousands(CASES)} CaseImported events (EventStore.appendMany ` +
        `in the restore's transaction: JSON built in Node, inserted; ${thousands(bytes)} B of JSON each)`,
      measured:
        `${thousands(rate)} events/s (${seconds(appendMs)}: the cases' keys made and the transaction opened ` +
        `${seconds(report.keysMs)}, the append in it ${seconds(report.cases.appendMs)})`,
      target: '—',
      bench: BENCH,
    });
    recordFigure({
      id: 'bulk-import-raw',
      figure: `Raw INSERT … SELECT of the same ${thousands(CASES)} rows from a staging table (jsonb)`,
      measured:
        `${thousands(rawRate)} events/s (${seconds(rawMs)}, PostgreSQL CPU ${micros(rawPostgresCpu)} µs/event; ` +
        `from the same JSON as text, parsed by the INSERT: ${thousands(CASES / (textMs / 1000))} events/s, ` +
        `${micros(textPostgresCpu)} µs/event)`,
      target: '—',
      bench: BENCH,
    });
    recordFigure({
      id: 'bulk-import-ratio',
      figure: "Restore's bulk append / raw INSERT … SELECT",
      measured: (rate / rawRate).toFixed(2),
      target: `≥ ${TARGET_RATIO}`,
      met: rate / rawRate >= TARGET_RATIO,
      bench: BENCH,
    });
    recordFigure({
      id: 'bulk-import-bound',
      figure:
        'The most two cores allow a restore of the same events, from the CPU of the steps it cannot leave out ' +
        '(each measured alone on the same events with the product’s code; CPU per event from /proc)',
      measured:
        `${thousands(boundRate)} events/s = ${(boundRate / rawRate).toFixed(2)} of the raw INSERT: ` +
        `${boundMicros.toFixed(1)} µs of CPU per event — PostgreSQL parsing and inserting the JSON text ` +
        `${parseMicros.toFixed(1)} µs, sealing the patient fields (keys at hand) ${bound.sealMicros.toFixed(1)} µs, ` +
        `the sealed events' JSON ${bound.jsonMicros.toFixed(1)} µs, making the case's key ` +
        `${bound.keyMicros.toFixed(1)} µs (Node ${bound.keyNodeMicros.toFixed(1)}, PostgreSQL ` +
        `${(bound.keyMicros - bound.keyNodeMicros).toFixed(1)})`,
      target: `≥ ${TARGET_RATIO}`,
      met: boundRate / rawRate >= TARGET_RATIO,
      bench: BENCH,
    });
    recordFigure({
      id: 'bulk-import-restore',
      figure: `Whole restore of ${thousands(CASES)} cases (file check, import transaction with read models, commit)`,
      measured:
        `${thousands(events / (restoreMs / 1000))} events/s (${seconds(restoreMs)}: check ` +
        `${seconds(report.checkMs)}, transaction ${seconds(report.transactionMs)} of which the append ` +
        `${seconds(appendMs)}; Node CPU ${((user + system) / events).toFixed(1)} µs/event)`,
      target: '—',
      bench: BENCH,
    });

    // What limits it: the same restore again, into a fresh database, with the profiler open.
    await lab.close();
    lab = await startTestApp();
    const waits = sampleWaitEvents(lab.databaseUrl);
    const profiledStarted = performance.now();
    const { profile } = await profileThisProcess(() =>
      lab.app.get(BackupService).restore(body, MANAGER, 'bench-restore-profiled'),
    );
    const profiledMs = performance.now() - profiledStarted;
    const waited = await waits();
    recordFigure({
      id: 'bulk-import-profile',
      figure:
        'Where the restore’s time goes (the same restore again into a fresh database, its CPU profile in this process; PostgreSQL’s wait events meanwhile, average sessions)',
      measured:
        `profile by place: ${profile.places}; by function: ${profile.functions}; database: ${waited}; ` +
        `the profiled restore took ${seconds(profiledMs)}`,
      target: '—',
      bench: BENCH,
    });
  });
});

const micros = (cpuSeconds: number) => ((cpuSeconds * 1e6) / CASES).toFixed(1);

/** Node CPU (µs) per event of `work`, which handles `count` events. */
async function nodeMicros(count: number, work: () => Promise<unknown> | unknown): Promise<number> {
  const before = process.cpuUsage();
  await work();
  const { user, system } = process.cpuUsage(before);
  return (user + system) / count;
}

/**
 * The CPU per event of the restore's steps that no design can leave out, each run alone on the
 * backup's cases with the product's code: sealing each CaseImported event's patient fields under
 * its case's key (the event store's cipher, the keys loaded into its cache first, untimed), the
 * JSON text of the sealed events, and making a key for each case (CaseKeys.keysFor on as many
 * new ids: random bytes, the wrap, the INSERT; Node and PostgreSQL), those keys deleted after.
 */
async function unavoidableCpu(lab: TestApp, cases: Omit<Case, 'version'>[]) {
  const cipher = lab.app.get(EventStore).cipher as CaseEventCipher;
  const dataSource = lab.app.get(DataSource);
  const metadata = { actor: MANAGER, correlationId: 'bench-bound' };
  let sealMicros = 0;
  let jsonMicros = 0;
  // In parts the key cache holds whole.
  const PART = 20_000;
  for (let start = 0; start < cases.length; start += PART) {
    const part = cases.slice(start, start + PART);
    const appends: StreamAppend[] = caseImportEvents(part).map((stream) => ({
      ...stream,
      expectedVersion: 0,
      metadata,
    }));
    await cipher.keys.keysFor(part.map(({ id }) => id));
    let sealed: StreamAppend[] = [];
    sealMicros += await nodeMicros(cases.length, async () => (sealed = await cipher.seal(appends)));
    jsonMicros += await nodeMicros(cases.length, () => {
      for (const { events } of sealed) for (const event of events) JSON.stringify(event.data);
    });
  }
  const ids = cases.map((_, index) => `BENCH-KEY-${index}`);
  const postgresBefore = serverCpuSeconds('postgres');
  const keyNodeMicros = await nodeMicros(cases.length, () => cipher.keys.keysFor(ids));
  const keyMicros = keyNodeMicros + ((serverCpuSeconds('postgres') - postgresBefore) * 1e6) / cases.length;
  await dataSource.query("DELETE FROM case_keys WHERE case_id LIKE 'BENCH-KEY-%'");
  cipher.keys.forget();
  return { sealMicros, jsonMicros, keyMicros, keyNodeMicros };
}

/** Waits until this process (the app and its background readers) has been idle for half a second. */
async function settled(): Promise<void> {
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    const before = process.cpuUsage();
    await new Promise((resolve) => setTimeout(resolve, 500));
    const { user, system } = process.cpuUsage(before);
    if (user + system < 50_000) return;
  }
}
