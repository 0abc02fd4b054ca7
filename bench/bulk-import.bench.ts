import { evolve, type Actor, type Case } from '@alignerflow/domain';
import { DataSource } from 'typeorm';
import { BackupService } from '../backend/src/backup/backup.service';
import { ProjectionRebuildService } from '../backend/src/projections/projection-rebuild.service';
import { startTestApp, type TestApp } from '../test/support/test-app';
import { thousands } from './support/load';
import { recordFigure } from './support/report';

/**
 * Bulk import: a restore of a backup of CASES cases, beside a raw INSERT … SELECT of the same
 * rows on the same server.
 *
 * - bulk-import: `BackupService.restore(body)`, what POST /api/restore runs once the body is
 *   parsed: the check of the whole file, the one import transaction (the BackupRestored marker, a
 *   UserImported per user, a CaseImported per case, each with its read-model rows; nothing else
 *   to delete, the lab being empty of cases), and the rebuild of the read models it awaits. Rate:
 *   events appended per second of that call.
 * - bulk-import-raw: `INSERT INTO copy (LIKE events INCLUDING ALL) SELECT … FROM staging`, the
 *   same rows (the restore's events, copied untimed to a staging table beforehand) into a table
 *   with the same columns, defaults, constraints and indexes as `events`, one statement, commit
 *   included. No validation, no read models, no JSON crossing the wire or parsed. Printed beside
 *   it, not in the ratio: the same rows sent as one JSON text and inserted by json_to_recordset.
 */
const BENCH = 'bench/bulk-import.bench.ts';
const CASES = Number(process.env.BENCH_IMPORT_CASES ?? 100_000);
const TARGET_RATIO = 0.4;
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
    const rebuild = lab.app.get(ProjectionRebuildService).status();
    const rebuildMs = Date.parse(rebuild.finishedAt!) - Date.parse(rebuild.startedAt!);

    const [{ events }] = await dataSource.query(
      'SELECT count(*)::int AS events FROM events WHERE global_position > $1::bigint',
      [before],
    );
    expect(answer).toEqual({ users: current.users.length, cases: CASES });
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
          WHERE global_position > $1::bigint ORDER BY global_position`,
      [before],
    );
    await dataSource.query('CREATE TABLE bench_events (LIKE events INCLUDING ALL)');
    await dataSource.query('VACUUM ANALYZE bench_staging');
    const rawStarted = performance.now();
    await dataSource.query(
      `INSERT INTO bench_events (stream_id, stream_version, type, schema_version, data, metadata)
       SELECT stream_id, stream_version, type, schema_version, data, metadata FROM bench_staging`,
    );
    const rawMs = performance.now() - rawStarted;
    // For reference: the same rows from JSON text, as a client would send them (json_to_recordset).
    const [{ json }] = await dataSource.query(
      `SELECT json_agg(json_build_object('stream_id', stream_id, 'stream_version', stream_version, 'type', type,
                'schema_version', schema_version, 'data', data, 'metadata', metadata))::text AS json
         FROM bench_staging`,
    );
    await dataSource.query('TRUNCATE bench_events');
    const jsonStarted = performance.now();
    await dataSource.query(
      `INSERT INTO bench_events (stream_id, stream_version, type, schema_version, data, metadata)
       SELECT * FROM json_to_recordset($1::json)
         AS r(stream_id text, stream_version int, type text, schema_version int, data jsonb, metadata jsonb)`,
      [json],
    );
    const jsonMs = performance.now() - jsonStarted;
    await dataSource.query('DROP TABLE bench_staging, bench_events');

    const rate = events / (restoreMs / 1000);
    const rawRate = events / (rawMs / 1000);
    recordFigure({
      id: 'bulk-import',
      figure: `Restore of ${thousands(CASES)} cases (POST /api/restore's service, rebuild included)`,
      measured:
        `${thousands(rate)} events/s (${(restoreMs / 1000).toFixed(1)} s, of which the rebuild ` +
        `${(rebuildMs / 1000).toFixed(1)} s; Node CPU ${((user + system) / events).toFixed(1)} µs/event)`,
      target: '—',
      bench: BENCH,
    });
    recordFigure({
      id: 'bulk-import-raw',
      figure: `Raw INSERT … SELECT of the same ${thousands(events)} rows`,
      measured:
        `${thousands(rawRate)} events/s (${(rawMs / 1000).toFixed(1)} s; from JSON text with json_to_recordset: ` +
        `${thousands(events / (jsonMs / 1000))} events/s)`,
      target: '—',
      bench: BENCH,
    });
    recordFigure({
      id: 'bulk-import-ratio',
      figure: 'Bulk import / raw INSERT … SELECT',
      measured: `${(rate / rawRate).toFixed(2)} (against the same rows inserted from JSON text: ${(rate / (events / (jsonMs / 1000))).toFixed(2)})`,
      target: `≥ ${TARGET_RATIO}`,
      met: rate / rawRate >= TARGET_RATIO,
      bench: BENCH,
    });
  });
});
