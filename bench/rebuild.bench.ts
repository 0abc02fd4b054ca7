import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { evolveInPlace, foldCase, type Case } from '@alignerflow/domain';
import { DataSource } from 'typeorm';
import { toCaseEvent } from '../backend/src/cases/case-events';
import { CaseKeys } from '../backend/src/event-store/encryption/case-keys';
import { encryptStoredEvents } from '../backend/src/event-store/encryption/encrypt-stored-events';
import { loadMasterKey } from '../backend/src/event-store/encryption/master-key';
import { createEventStore } from '../backend/src/event-store/event-store.module';
import { readAllInOneDocument } from '../backend/src/event-store/batch-read';
import type { Checkpoint, RecordedEvent } from '../backend/src/event-store/event-types';
import { lz4Available, READ_MODEL_TABLES } from '../backend/src/rebuild/shadow-tables';
import { caseViewRow, noteRows } from '../backend/src/cases/projections/case-view.projection';
import { createTestDatabase } from '../test/support/database';
import { buildBackend, BUILD_TIMEOUT_MS } from '../test/support/app-process';
import { serverCpuSeconds, thousands } from './support/load';
import { cpuProfileSummary, sampleWaitEvents } from './support/profiles';
import { recordFigure } from './support/report';
import { fillLog, syntheticCaseId } from './support/synthetic-log';

/**
 * Projection rebuild rate with 100k and 1M events in the log, over a synthetic log
 * (bench/support/synthetic-log.ts), as production runs it: `node backend/dist/replay.js` (what
 * `npm run replay` runs after building; the admin endpoint's service runs the same
 * ProjectionRebuilder). The rate is the rebuilder's own: events / wall time of the whole run —
 * statistics check, shadow tables, replay, catch-up and swap — without the process's start-up.
 * The replay process's CPU (start-up included), PostgreSQL's CPU during the run and how long the
 * replay sat idle waiting for PostgreSQL are printed beside it; the one-time encryption of
 * the synthetic log's plaintext patient fields runs before it, in this process, timed apart.
 */
const BENCH = 'bench/rebuild.bench.ts';
const TARGET = 100_000;
const CORES = availableParallelism();
const ROOT = join(__dirname, '..');
const TIME = '/usr/bin/time';

async function replay(
  databaseUrl: string,
  profileDir: string,
  masterKeyFile: string,
): Promise<{
  rate: number;
  swapMs: number;
  idleMs: number;
  cpuSeconds?: number;
  postgresCpuSeconds: number;
}> {
  const command = [
    process.execPath,
    '--cpu-prof',
    '--cpu-prof-dir',
    profileDir,
    join(ROOT, 'backend', 'dist', 'replay.js'),
  ];
  const timed = existsSync(TIME);
  const postgresBefore = serverCpuSeconds('postgres');
  const { stdout, stderr } = await promisify(execFile)(
    timed ? TIME : command[0],
    timed ? ['-f', 'cpu %U %S', ...command] : command.slice(1),
    {
      cwd: ROOT,
      env: { ...process.env, DATABASE_URL: databaseUrl, MASTER_KEY_FILE: masterKeyFile },
      maxBuffer: 16 * 1024 * 1024,
    },
  );
  const postgresCpuSeconds = serverCpuSeconds('postgres') - postgresBefore;
  const done =
    /Read models rebuilt: [\d,]+ of [\d,]+ events, ([\d,]+) events\/s; the swap took (\d+) ms/.exec(stdout);
  const idle = /sat idle, waiting for PostgreSQL, (\d+) ms/.exec(stdout);
  if (!done || !idle) throw new Error(`replay said: ${stdout}${stderr}`);
  const cpu = /cpu ([\d.]+) ([\d.]+)/.exec(stderr);
  return {
    rate: Number(done[1].replace(/,/g, '')),
    swapMs: Number(done[2]),
    idleMs: Number(idle[1]),
    cpuSeconds: cpu ? Number(cpu[1]) + Number(cpu[2]) : undefined,
    postgresCpuSeconds,
  };
}

/** The rebuilder's batch (DEFAULT_BATCH in backend/src/rebuild/projection-rebuilder.ts). */
const FLOOR_BATCH = 10_000;

type LogBatchRead = (
  after: Checkpoint | null,
  limit: number,
) => Promise<{ events: RecordedEvent[]; more: boolean }>;

/**
 * Reads the whole log with `read` as the rebuilder reads it (ProjectionRebuilder.replayLog): the
 * next batch is read from where the key index says this one ends (keyAfter, asked as the read
 * starts) while this one is read, and read again from this one's last event if it ended elsewhere
 * (a batch cut short by size). Nothing else is done with the events: the least a rebuild costs.
 */
async function readWholeLog(
  store: ReturnType<typeof createEventStore>,
  read: LogBatchRead,
  visit?: (events: RecordedEvent[]) => void,
) {
  type Read = { from: Checkpoint | null; batch: ReturnType<LogBatchRead>; end: Promise<Checkpoint | null> };
  const start = (from: Checkpoint | null): Read => ({
    from,
    batch: read(from, FLOOR_BATCH),
    end: store.keyAfter(from, FLOOR_BATCH),
  });
  const after = (current: Read) => current.end.then((end) => end && start(end));
  const started = performance.now();
  const cpuBefore = process.cpuUsage();
  let count = 0;
  let visitMicros = 0;
  let current = start(null);
  let ahead = after(current);
  for (;;) {
    const { events, more } = await current.batch;
    count += events.length;
    if (visit) {
      const before = process.cpuUsage();
      visit(events);
      const { user, system } = process.cpuUsage(before);
      visitMicros += user + system;
    }
    if (!more || !events.length) break;
    const last = events[events.length - 1];
    const guessed = await ahead;
    current =
      guessed && guessed.from?.transactionId === last.transactionId && guessed.from.position === last.position
        ? guessed
        : start({ transactionId: last.transactionId, position: last.position });
    ahead = after(current);
  }
  const seconds = (performance.now() - started) / 1000;
  const cpu = process.cpuUsage(cpuBefore);
  return {
    count,
    rate: count / seconds,
    seconds,
    cpuMicros: (cpu.user + cpu.system - visitMicros) / count,
    visitMicros: visitMicros / count,
  };
}

/**
 * What PostgreSQL spends taking every read model's rebuilt rows in from outside, at the least:
 * each table's rows as COPY's text (written out first by `psql \copy`, not counted), then read
 * back by COPY FROM into a table like it (LIKE … INCLUDING ALL: its columns, constraints and
 * indexes), with the rebuild's compression. Any write from a client sends the rows as text or
 * binary, and PostgreSQL parses every value (a jsonb's binary input is its text); COPY is the
 * cheapest statement for that, and each row comes once, with no upsert. Its CPU is every
 * `postgres` process's, so the checkpointer's and the WAL writer's count too.
 * Returns the number of rows and the CPU in seconds.
 */
async function copyReadModelsIn(
  dataSource: DataSource,
  databaseUrl: string,
  lz4: boolean,
): Promise<{ rows: number; postgresSeconds: number }> {
  const dir = mkdtempSync(join(tmpdir(), 'af-bench-rows-'));
  // Repeated -c: one session, and psql runs a backslash command only alone in a -c.
  const psql = (...commands: string[]) =>
    promisify(execFile)('psql', [
      databaseUrl,
      '-X',
      '-v',
      'ON_ERROR_STOP=1',
      ...commands.flatMap((command) => ['-c', command]),
    ]);
  // psql answers each \copy with "COPY n".
  const copied = (answer: { stdout: string }) => Number(/^COPY (\d+)/m.exec(answer.stdout)![1]);
  let rows = 0;
  let postgresSeconds = 0;
  try {
    for (const table of READ_MODEL_TABLES) {
      const out = copied(await psql(`\\copy ${table} TO '${join(dir, table)}'`));
      await dataSource.query(`CREATE TABLE floor_${table} (LIKE ${table} INCLUDING ALL)`);
      const before = serverCpuSeconds('postgres');
      const back = copied(
        await psql(
          ...(lz4 ? ["SET default_toast_compression = 'lz4'"] : []),
          `\\copy floor_${table} FROM '${join(dir, table)}'`,
        ),
      );
      postgresSeconds += serverCpuSeconds('postgres') - before;
      if (back !== out) throw new Error(`${table}: ${out} rows written out, ${back} read back`);
      rows += back;
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
    await dataSource.query(
      `DROP TABLE IF EXISTS ${READ_MODEL_TABLES.map((table) => `floor_${table}`).join(', ')}`,
    );
  }
  return { rows, postgresSeconds };
}

describe('projection rebuild', () => {
  beforeAll(() => buildBackend(), BUILD_TIMEOUT_MS);

  for (const [id, events] of [
    ['rebuild-100k', 100_000],
    ['rebuild-1m', 1_000_000],
  ] as const) {
    it(`rebuilds the read models of a ${thousands(events)}-event log`, async () => {
      const database = await createTestDatabase();
      const dataSource = await new DataSource({
        type: 'postgres',
        url: database.url,
        // As the replay process's (replay.ts): the floor below keeps two reads and a key lookup under way.
        poolSize: 5,
      }).initialize();
      try {
        const log = await fillLog(database.url, { events });
        process.stdout.write(
          `[bench] ${thousands(events)} events, ${thousands(log.cases)} cases written in ${log.ms} ms\n`,
        );
        // What limits it, from this run: the replay process's CPU profile, PostgreSQL's wait events.
        const profileDir = mkdtempSync(join(tmpdir(), 'af-bench-replay-'));
        // The synthetic log is written in plaintext: its patient fields are encrypted first, as a
        // start after an upgrade would (the replay's own start then skips that step), so that the
        // replay process's CPU and profile are the rebuild's alone. Same master key for the check.
        const masterKeyFile = join(profileDir, 'master.key');
        const encryptStarted = Date.now();
        const encrypted = await encryptStoredEvents(database.url, masterKeyFile);
        const encryptMs = Date.now() - encryptStarted;
        // That rewrote a third of the log's rows: settle it as an old log is (fillLog's VACUUM), so
        // that autovacuum and the checkpointer do not run beside the replay, in its PostgreSQL CPU.
        const settleStarted = Date.now();
        await dataSource.query('VACUUM (ANALYZE) events');
        await dataSource.query('CHECKPOINT');
        const settleMs = Date.now() - settleStarted;
        const waits = sampleWaitEvents(database.url);
        const { rate, swapMs, idleMs, cpuSeconds, postgresCpuSeconds } = await replay(
          database.url,
          profileDir,
          masterKeyFile,
        );
        const waited = await waits();
        const [profileFile] = readdirSync(profileDir).filter((name) => name.endsWith('.cpuprofile'));
        const profile = cpuProfileSummary(join(profileDir, profileFile));
        const keys = new CaseKeys(dataSource, loadMasterKey(masterKeyFile));
        rmSync(profileDir, { recursive: true, force: true });
        // Two cores at the target rate allow 2 × 1e6 / TARGET µs of CPU per event, for both together.
        const perEvent = (seconds: number) => ((seconds * 1e6) / events).toFixed(1);
        const cpu =
          (cpuSeconds === undefined ? '' : `; replay process CPU ${perEvent(cpuSeconds)} µs/event`) +
          `; PostgreSQL CPU ${perEvent(postgresCpuSeconds)} µs/event, every backend and the sampler's ` +
          `(two cores at ${thousands(TARGET)} events/s allow ${((2 * 1e6) / TARGET).toFixed(0)} µs/event for both)`;
        recordFigure({
          id,
          figure: `Projection rebuild, ${thousands(events)} events in the log (npm run replay)`,
          measured:
            `${thousands(rate)} events/s (${(events / rate).toFixed(1)} s, swap ${swapMs} ms${cpu}; ` +
            `the replay's event loop sat idle, waiting for PostgreSQL, ${(idleMs / 1000).toFixed(1)} s; ` +
            `before it, encrypting the plaintext log's ${thousands(encrypted)} events with patient fields took ${(encryptMs / 1000).toFixed(1)} s, ` +
            `then VACUUM and CHECKPOINT ${(settleMs / 1000).toFixed(1)} s)`,
          target: '≥ 100,000 events/s',
          met: rate >= TARGET,
          bench: BENCH,
        });
        recordFigure({
          id: `${id}-profile`,
          figure: `Where the ${thousands(events)}-event rebuild's time goes (replay process CPU profile; PostgreSQL's wait events, average sessions)`,
          measured: `profile by place: ${profile.places}; by function: ${profile.functions}; database: ${waited}`,
          target: '—',
          bench: BENCH,
        });

        // The floor under any replay: the same reads of the log and the same opening of sealed
        // fields as the rebuilder's, with the domain's fold and no write; then the least of each step.
        const store = createEventStore(dataSource, keys);
        let postgresBefore = serverCpuSeconds('postgres');
        // Opened, and each case folded by the domain's evolve as the replay folds it (its CPU apart;
        // a sealed event is decrypted when its data is first read, so in the fold).
        const states = new Map<string, Case | null>();
        const opened = await readWholeLog(
          store,
          (after, limit) => store.readAllInOneDocument(after, limit),
          (batch) => {
            for (const event of batch)
              if (event.streamId.startsWith('case-'))
                states.set(
                  event.streamId,
                  evolveInPlace(states.get(event.streamId) ?? null, toCaseEvent(event)),
                );
          },
        );
        const readPostgresMicros = ((serverCpuSeconds('postgres') - postgresBefore) * 1e6) / events;
        // The least this process spends turning the folded cases into rows to send: each case's
        // case_view row and its notes' rows, once, by the read model's own functions (the rebuild
        // writes a case under way again at each write, and the reports' rows beside them).
        const serialiseBefore = process.cpuUsage();
        let serialised = 0;
        for (const state of states.values())
          if (state) serialised += caseViewRow(state, '0').length + noteRows(state).length;
        const serialiseCpu = process.cpuUsage(serialiseBefore);
        const serialiseMicros = (serialiseCpu.user + serialiseCpu.system) / events;
        expect(serialised).toBeGreaterThan(states.size);
        states.clear();
        // The least any read costs PostgreSQL: every event's document turned into text, in the
        // server, in the table's order (no wire, no JSON document per batch).
        postgresBefore = serverCpuSeconds('postgres');
        await dataSource.query('SELECT sum(octet_length(data::text)) FROM events');
        const leastReadPostgresMicros = ((serverCpuSeconds('postgres') - postgresBefore) * 1e6) / events;
        const sealed = await readWholeLog(store, (after, limit) =>
          readAllInOneDocument(dataSource, after, limit),
        );
        expect([opened.count, sealed.count]).toEqual([events, events]);
        // The least PostgreSQL spends taking in the rows the rebuild wrote: each read model's final
        // rows once, by COPY FROM their text (no upsert, no row written twice).
        const written = await copyReadModelsIn(dataSource, database.url, await lz4Available(dataSource));
        const writePostgresMicros = (written.postgresSeconds * 1e6) / events;
        const floorMicros =
          opened.cpuMicros +
          opened.visitMicros +
          serialiseMicros +
          leastReadPostgresMicros +
          writePostgresMicros;
        recordFigure({
          id: `${id}-floor`,
          figure: `The rebuild's floor, ${thousands(events)} events: the replay's reads of the log (batches of ${thousands(FLOOR_BATCH)}, two under way at once, in the bench process), with its events opened and folded by evolve, and as stored; no write. Then the least each step no rebuild can leave out costs (its rows made once and taken in by COPY), and what two cores allow with that, busy all the time`,
          measured:
            `opened and folded: ${thousands(opened.rate)} events/s (${opened.seconds.toFixed(1)} s; this process's CPU reading them ${opened.cpuMicros.toFixed(1)} µs/event, ` +
            `decrypting the sealed fields as the fold reads them and folding the cases ${opened.visitMicros.toFixed(1)} µs/event; PostgreSQL's ${readPostgresMicros.toFixed(1)} µs/event); ` +
            `as stored, no fold: ${thousands(sealed.rate)} events/s (${sealed.seconds.toFixed(1)} s, ${sealed.cpuMicros.toFixed(1)} µs/event). ` +
            `The least per event: PostgreSQL turning the documents into text ${leastReadPostgresMicros.toFixed(1)} µs (inside the server), ` +
            `reading them into this process ${opened.cpuMicros.toFixed(1)} µs, decrypting and folding ${opened.visitMicros.toFixed(1)} µs, ` +
            `turning the cases into their case_view and case_notes rows once ${serialiseMicros.toFixed(1)} µs, ` +
            `PostgreSQL taking in the ${thousands(written.rows)} rebuilt rows from their text ${writePostgresMicros.toFixed(1)} µs (COPY FROM, each row once): ` +
            `${floorMicros.toFixed(1)} µs of CPU, so two cores allow at most ${thousands((CORES * 1e6) / floorMicros)} events/s`,
          target: '—',
          bench: BENCH,
        });

        // Nothing lost: every case is in the new tables, and sampled ones are what evolve makes.
        const [{ cases, ids }] = await dataSource.query(
          'SELECT (SELECT count(*)::int FROM case_view) AS cases, (SELECT count(*)::int FROM case_ids) AS ids',
        );
        expect({ cases, ids }).toEqual({ cases: log.cases, ids: log.cases });
        for (const index of [0, Math.floor(log.cases / 2), log.cases - 1]) {
          const caseId = syntheticCaseId(index);
          const expected = foldCase((await store.readStream(`case-${caseId}`)).map(toCaseEvent)) as Case;
          const [row] = await dataSource.query('SELECT data, version FROM case_view WHERE id = $1', [caseId]);
          const notes = await dataSource.query(
            'SELECT note FROM case_notes WHERE case_id = $1 ORDER BY ordinal',
            [caseId],
          );
          // A case's notes are rows of their own (case_notes), and its version a column: not part of its document.
          expect({
            ...row.data,
            version: row.version,
            notes: notes.map((found: { note: unknown }) => found.note),
          }).toEqual(expected);
        }
      } finally {
        await dataSource.destroy();
        await database.drop();
      }
    });
  }
});
