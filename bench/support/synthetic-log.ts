import { CASE_STATUSES } from '@alignerflow/domain';
import { Client } from 'pg';

/**
 * A realistic event log of any size, written by PostgreSQL itself (INSERT … SELECT FROM
 * generate_series): a million events take seconds, where appending them through the API would
 * take an hour. Every event is one the domain's evolve accepts, in the shapes the commands write
 * (current schema versions), so a rebuild turns the log into real cases.
 *
 * The shape of the lab: cases are worked on in cohorts of `activeCases` at a time, their events
 * interleaved (as in a lab where many cases are under way at once); each case follows the same
 * life — created by the representative, approved by the manager, then notes, stage assignments and
 * stage advances through the workflow to Completed, then aligner stages — for `eventsPerCase`
 * events. The last cohort may stop earlier in that life. Only case streams: users are left to
 * the app's seed (`rep`, `admin`, `tech`, `dr.lee`, `dr.patel` are the actors named here).
 *
 * Case ids are CA-2000-10000 … (a year of their own, 90,000 a year), so cases the app creates in
 * the current year never collide with them. Fill a database once: a second fill would repeat the
 * ids. Only `events` is written: the read models (case_view, user_view, case_ids) know nothing of
 * these cases until a rebuild (ProjectionRebuilder, `npm run replay`) has run.
 */
export interface SyntheticLogOptions {
  /** Events to write. */
  events: number;
  /** Events in each case's life (≥ 2); 20 by default. */
  eventsPerCase?: number;
  /** Cases whose events interleave at any time; 1000 by default. */
  activeCases?: number;
  /** Events per INSERT statement, each its own transaction; 250,000 by default. */
  eventsPerTransaction?: number;
}

export interface SyntheticLog {
  events: number;
  cases: number;
  /** Wall time of the fill, ANALYZE included. */
  ms: number;
}

/** The first case id of the synthetic log, e.g. for a benchmark that sends commands to it. */
export function syntheticCaseId(index: number): string {
  return `CA-${2000 + Math.floor(index / 90_000)}-${10_000 + (index % 90_000)}`;
}

const FILL = `
  WITH numbered AS (
    SELECT i,
           -- cohort × activeCases + position in the cohort (a cohort's events are a multiple of $2)
           (i / ($2::bigint * $3)) * $2 + i % $2 AS c,
           (i % ($2::bigint * $3)) / $2 + 1 AS v
      FROM generate_series($4::bigint, $5::bigint) AS i
  ), shaped AS (
    SELECT i, c, v, v - 3 AS s,
           'CA-' || (2000 + c / 90000) || '-' || (10000 + c % 90000) AS id,
           CASE WHEN c % 2 = 0 THEN 'dr.lee' ELSE 'dr.patel' END AS doctor,
           timestamptz '2020-01-01 08:00:00+00' + i * interval '1 second' AS at
      FROM numbered
  ), typed AS (
    SELECT *,
           CASE
             WHEN v = 1 THEN 'CaseCreated'
             WHEN v = 2 THEN 'CaseApproved'
             WHEN s % 3 = 0 THEN 'NoteAdded'
             WHEN s % 3 = 1 THEN 'StageAssigneeChanged'
             WHEN s / 3 < 8 THEN 'StageAdvanced'
             ELSE 'AlignerStageChanged'
           END AS type
      FROM shaped
  )
  INSERT INTO events (stream_id, stream_version, type, schema_version, data, metadata, recorded_at)
  SELECT 'case-' || id, v, type,
         CASE WHEN type IN ('CaseCreated', 'NoteAdded') THEN 2 ELSE 1 END,
         CASE type
           WHEN 'CaseCreated' THEN jsonb_build_object(
             'id', id, 'patientName', 'Patient ' || c, 'doctorName',
             CASE doctor WHEN 'dr.lee' THEN 'Dr. Sarah Lee' ELSE 'Dr. Raj Patel' END,
             'clinicName', 'Clinic ' || (c % 97), 'priority', CASE WHEN c % 5 = 0 THEN 'High' ELSE 'Normal' END,
             'deliveryDate', to_char(at + interval '30 days', 'YYYY-MM-DD'),
             'treatmentPlanNotes', 'Crowding, upper and lower arch.', 'assignedDoctorUsername', NULL,
             'files', jsonb_build_array(jsonb_build_object('name', 'upper.stl', 'type', 'STL',
               'url', '/api/files/synthetic-' || c, 'size', '2.41 MB')),
             'price', 1200, 'upperSheets', 20, 'lowerSheets', 18, 'fee', NULL)
           WHEN 'CaseApproved' THEN jsonb_build_object('doctorUsername', doctor)
           WHEN 'NoteAdded' THEN jsonb_build_object('text', 'Checked at step ' || s || ', all good.')
           WHEN 'StageAssigneeChanged' THEN jsonb_build_object(
             'stage', ($1::text[])[least(3 + (s + 1) / 3, 11)], 'assignee', 'tech', 'viaQr', false)
           WHEN 'StageAdvanced' THEN jsonb_build_object(
             'from', ($1::text[])[3 + s / 3], 'to', ($1::text[])[4 + s / 3])
           ELSE jsonb_build_object(
             'stageNumber', (s / 3 - 8) / 2 % 20 + 1,
             'status', CASE WHEN (s / 3 - 8) % 2 = 0 THEN 'In Progress' ELSE 'Completed' END)
         END,
         jsonb_build_object(
           'actor', CASE
             WHEN type = 'CaseCreated' THEN '{"username": "rep", "role": "Representative"}'::jsonb
             WHEN type IN ('CaseApproved', 'StageAssigneeChanged') THEN '{"username": "admin", "role": "Manager"}'::jsonb
             ELSE '{"username": "tech", "role": "Technician"}'::jsonb
           END,
           'correlationId', 'synthetic-' || i),
         at
    FROM typed
   ORDER BY i`;

/** Writes `options.events` events into the (migrated) database at `databaseUrl`; see above. */
export async function fillLog(databaseUrl: string, options: SyntheticLogOptions): Promise<SyntheticLog> {
  const eventsPerCase = options.eventsPerCase ?? 20;
  const activeCases = options.activeCases ?? 1000;
  const perTransaction = options.eventsPerTransaction ?? 250_000;
  if (eventsPerCase < 2) throw new RangeError('eventsPerCase must be at least 2');
  const started = Date.now();
  const client = new Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    for (let first = 0; first < options.events; first += perTransaction) {
      const last = Math.min(options.events, first + perTransaction) - 1;
      await client.query(FILL, [CASE_STATUSES, activeCases, eventsPerCase, first, last]);
    }
    // As an old log would be: statistics and visibility map in place (readers plan by them).
    await client.query('VACUUM (ANALYZE) events');
  } finally {
    await client.end();
  }
  const cohort = activeCases * eventsPerCase;
  const full = Math.floor(options.events / cohort) * activeCases;
  const cases = full + Math.min(activeCases, options.events % cohort);
  return { events: options.events, cases, ms: Date.now() - started };
}
