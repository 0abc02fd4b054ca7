import { execFileSync, spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { Client } from 'pg';
import { buildBackend, startApiProcess, type ApiProcess } from '../test/support/app-process';
import { createTestDatabase } from '../test/support/database';
import { leanClient } from './support/lean-http-client';
import {
  load,
  summarise,
  thousands,
  cpuSeconds,
  cpuSecondsByName,
  cpuSecondsSince,
  mainThreadCpuSeconds,
} from './support/load';
import {
  closePausesWindow,
  closeProfileWindow,
  sampleWaitEvents,
  type PausesTimeline,
} from './support/profiles';
import { recordFigure } from './support/report';

/**
 * Command throughput and latency over HTTP, beside pgbench's single-insert transaction rate at 32
 * clients on the same PostgreSQL server.
 *
 * Topology, as production runs it: API processes built and started as `node backend/dist/main.js`
 * (PROCESS_ROLE=api, the production pool size of 20), PostgreSQL and this process (the clients:
 * keep-alive connections of bench/support/lean-http-client.ts) on the same 2-core machine. The
 * clients add notes to 320 cases in turn: one command = load the case, decide, append, project,
 * answer the whole case.
 * First one API process at 32 clients in a closed loop (its peak, after HALF_SECONDS of the same
 * load, as each setup's figure is taken warm), then two API processes with the 32 clients split
 * between them; then, on the faster of the two setups (API B stopped first when one process is
 * faster), an open loop: requests sent evenly paced at half that peak whether or not earlier ones
 * were answered, each latency counted from the request's due time (so a stall counts for every
 * request it delays). The CPU per
 * command is the API processes' own (from /proc), the clients' apart; the WAL per command is the
 * whole server's (other databases count); commands per commit comes from the events' transaction
 * ids (group commit), and the database transactions per command (every statement outside a
 * transaction counts as one: the round trips of the command and of whoever follows the log)
 * from pg_stat_database. Last, a lone client on API A, one request at a time: a note's p50 beside
 * `GET /auth/me`'s, the fixed cost of a command over the cheapest signed-in answer. No worker
 * process runs: the followers of the log (sealer, dispatcher) are the workers' work, not the API's.
 *
 * pgbench runs right before and right after API A's peak, and the ratio is taken against the mean.
 *
 * What limits it, from the same run: a CPU profile of API A in a profiled pass at its peak, after
 * the unprofiled one that gives the figure (node:inspector, bench/support/cpu-profile.cjs), and
 * PostgreSQL's wait events sampled from pg_stat_activity in the same profiled pass
 * (pg_stat_statements needs shared_preload_libraries, which a shared test server may not have).
 * The sampler's queries and its client cost the two cores several percent (docs/performance.md),
 * so, like the profiler, it stays out of the passes that give the figures.
 * The open loop runs twice: its latencies come from the unprofiled pass, with API A's garbage
 * collections and event loop delay counted, its slow answers grouped into episodes set beside API
 * A's mark-compacts, and PostgreSQL's background work in it (WAL flushes, checkpoints,
 * autovacuum) counted; the profile from the second pass.
 *
 * BENCH_COMMANDS_SECONDS shortens or lengthens each load.
 */
const CLIENTS = 32;
/** Cases the notes go round, so that no case grows much during a run (as in the figures). */
const CASES = 320;
const SECONDS = Number(process.env.BENCH_COMMANDS_SECONDS ?? 10);
/**
 * Half a load: a new API process's first seconds of load before its peak is measured (V8 is still
 * compiling the request path then, and its optimising compiler's threads count in the process's
 * CPU, where a lab's API runs for days; printed beside the peak as its cold figure), the profiled
 * pass after the peak, and each of the two pgbench runs beside it.
 */
const HALF_SECONDS = Math.max(1, Math.round(SECONDS / 2));
const BENCH = 'bench/commands.bench.ts';
const CORES = availableParallelism();
const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
const METRICS_TOKEN = `bench-metrics-${process.pid}-token`;

/** Cumulative counts per bucket's upper bound in seconds (+Inf: all). */
type Buckets = Map<number, number>;

/**
 * API A's own timings so far (its /metrics histograms): how long the notes took inside it
 * (http_request_duration_seconds: from the request's first byte read to the answer's last byte
 * sent), how long each append waited for the flush before its own, how long each flush took.
 */
async function apiTimings(api: ApiProcess): Promise<{ notes: Buckets; waits: Buckets; flushes: Buckets }> {
  const answer = await fetch(`${api.api}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } });
  const text = await answer.text();
  if (!answer.ok) throw new Error(`GET /metrics: ${answer.status} ${text}`);
  const timings: { notes: Buckets; waits: Buckets; flushes: Buckets } = {
    notes: new Map(),
    waits: new Map(),
    flushes: new Map(),
  };
  const isNote = (labels: string) =>
    labels.includes('route="/api/cases/:id/notes"') && labels.includes('method="POST"');
  const series: [RegExp, Buckets, (labels: string) => boolean][] = [
    [/^http_request_duration_seconds_bucket\{(.*)\} (\d+)$/, timings.notes, isNote],
    [/^alignerflow_append_wait_seconds_bucket\{(.*)\} (\d+)$/, timings.waits, () => true],
    [/^alignerflow_append_flush_seconds_bucket\{(.*)\} (\d+)$/, timings.flushes, () => true],
  ];
  for (const line of text.split('\n')) {
    for (const [pattern, counts, wanted] of series) {
      const match = pattern.exec(line);
      if (!match || !wanted(match[1])) continue;
      const bound = /le="([^"]+)"/.exec(match[1])![1];
      const le = bound === '+Inf' ? Infinity : Number(bound);
      counts.set(le, (counts.get(le) ?? 0) + Number(match[2]));
    }
  }
  return timings;
}

/** Of what was counted between two readings, the share that took longer than `seconds`. */
function shareOver(before: Buckets, after: Buckets, seconds: number): number {
  const delta = (le: number) => (after.get(le) ?? 0) - (before.get(le) ?? 0);
  const all = delta(Infinity);
  return all === 0 ? 0 : (all - delta(seconds)) / all;
}

/** pgbench: one INSERT per transaction, 32 clients, on a scratch table of the same server. */
function pgbenchInsertRate(databaseUrl: string, seconds: number): number {
  const script = join(tmpdir(), 'af-pgbench-insert.sql');
  writeFileSync(script, 'INSERT INTO bench_inserts (payload) VALUES (\'{"n": 1}\');\n');
  execFileSync('psql', [
    databaseUrl,
    '-qc',
    'CREATE TABLE IF NOT EXISTS bench_inserts (id bigserial PRIMARY KEY, payload jsonb)',
  ]);
  const output = execFileSync(
    'pgbench',
    ['-n', '-c', String(CLIENTS), '-j', '2', '-T', String(seconds), '-f', script, databaseUrl],
    { encoding: 'utf8' },
  );
  return Math.round(Number(/tps = ([\d.]+)/.exec(output)![1]));
}

/**
 * Open loop: `perSecond` calls a second, each sent at its due time whether or not earlier ones were
 * answered; the latency is from the due time to the answer.
 */
async function openLoop(seconds: number, perSecond: number, call: (n: number) => Promise<unknown>) {
  const latencies: number[] = [];
  /** Each answer's due time (epoch ms, the clock the API's process shares) and latency. */
  const answers: [number, number][] = [];
  const start = performance.now();
  const calls: Promise<void>[] = [];
  // Requests this process sent more than 5 ms after their due time: its own event loop was late.
  let lateSends = 0;
  for (let n = 0; n < seconds * perSecond; n++) {
    const due = start + (n * 1000) / perSecond;
    const wait = due - performance.now();
    if (wait >= 1) await sleep(wait);
    if (performance.now() - due > 5) lateSends++;
    calls.push(
      call(n).then(() => {
        latencies.push(performance.now() - due);
        answers.push([performance.timeOrigin + due, performance.now() - due]);
      }),
    );
  }
  await Promise.all(calls);
  return {
    perSecond: Math.round(latencies.length / seconds),
    ...summarise(latencies),
    over25: latencies.filter((latency) => latency > 25).length,
    lateSends,
    answers,
  };
}

/** The stretches an episode is made of, and what makes one slow: most of its answers over 25 ms. */
const EPISODE_BIN_MS = 100;
/**
 * A mark-compact's entry gives the start of its last pause, which comes at the end of the marking
 * that slowed the answers due before it: it counts for an episode it starts in or this soon after.
 */
const MARK_COMPACT_AFTER_MS = 200;
/** Episodes described one by one, the longest first. */
const EPISODES_DESCRIBED = 3;

/**
 * The open loop's slow answers by when they were due: runs of EPISODE_BIN_MS stretches in which
 * most answers took over 25 ms (episodes, where everything in flight waited on one thing), the
 * share of all answers over 25 ms that fell in them, and how many episodes had one of the API's
 * mark-compacts in them. For the longest: how many of the requests due in it the API took in it
 * (fewer: it was not reading them), how long those it took spent inside it, and how long its event
 * loop stopped in it.
 */
function episodes(answers: [number, number][], timeline: PausesTimeline): string {
  const bins = new Map<number, { count: number; slow: number }>();
  for (const [due, latency] of answers) {
    const bin = Math.floor(due / EPISODE_BIN_MS);
    const counted = bins.get(bin) ?? bins.set(bin, { count: 0, slow: 0 }).get(bin)!;
    counted.count++;
    if (latency > 25) counted.slow++;
  }
  const found: { from: number; to: number; due: number; over25: number }[] = [];
  for (const bin of [...bins.keys()].sort((a, b) => a - b)) {
    const { count, slow } = bins.get(bin)!;
    if (slow * 2 <= count) continue;
    const last = found[found.length - 1];
    if (last && last.to === bin * EPISODE_BIN_MS)
      Object.assign(last, {
        to: last.to + EPISODE_BIN_MS,
        due: last.due + count,
        over25: last.over25 + slow,
      });
    else found.push({ from: bin * EPISODE_BIN_MS, to: (bin + 1) * EPISODE_BIN_MS, due: count, over25: slow });
  }
  const over25 = answers.filter(([, latency]) => latency > 25).length;
  const inEpisodes = found.reduce((sum, episode) => sum + episode.over25, 0);
  const withMarkCompact = found.filter(({ from, to }) =>
    timeline.markCompacts.some((at) => at >= from && at < to + MARK_COMPACT_AFTER_MS),
  ).length;
  const first = Math.min(...answers.map(([due]) => due));
  const seconds = (at: number) => ((at - first) / 1000).toFixed(1);
  const described = [...found]
    .sort((a, b) => b.to - b.from - (a.to - a.from))
    .slice(0, EPISODES_DESCRIBED)
    .map(({ from, to, due }) => {
      const taken = timeline.requests.filter(([arrived]) => arrived >= from && arrived < to);
      const inside = taken.map(([arrived, ended]) => (ended ?? Infinity) - arrived).sort((a, b) => a - b)[
        Math.floor(taken.length / 2)
      ];
      const stopped = timeline.stops.reduce(
        (sum, [at, ms]) => sum + Math.max(0, Math.min(at + ms, to) - Math.max(at, from)),
        0,
      );
      return (
        `${seconds(from)}–${seconds(to)} s: took ${percent(taken.length / due)} as many requests as came due, ` +
        `p50 ${inside === undefined ? '—' : Math.round(inside)} ms inside; loop stopped ${Math.round(stopped)} ms`
      );
    });
  return (
    `${found.length} episode(s) (${EPISODE_BIN_MS} ms stretches, by due time, where most answers took over 25 ms) ` +
    `held ${over25 ? percent(inEpisodes / over25) : '—'} of the answers over 25 ms; API A made ` +
    `${timeline.markCompacts.length} mark-compact(s) in the loop, and ${withMarkCompact} of the episodes had one ` +
    `begin in them or within ${MARK_COMPACT_AFTER_MS} ms after` +
    (described.length ? `; in API A, the longest: ${described.join('; ')}` : '')
  );
}

/** 12.3% */
const percent = (share: number) => `${(share * 100).toFixed(1)}%`;

/**
 * The floor of the HTTP stack alone (bench/support/http-floor-server.cjs in its own process: `nest`
 * as the API runs it, bare `node:http`, or bare `node:http` committing each body as one row with
 * group commit), under the same clients as the commands: what no command can beat on this machine,
 * whatever it does behind the route. A closed loop of `clients`; with `perSecond`, then an open loop
 * at that rate (a fraction of the closed loop's, as the commands' half-load figure).
 */
async function httpFloor(
  mode: 'nest' | 'node' | 'node-pg',
  seconds: number,
  clients: number,
  databaseUrl: string,
  /** Also an open loop at this rate: the commands' own half load, to set the floor's tail beside theirs. */
  commandsHalfRate?: number,
) {
  const child = spawn(process.execPath, [join(__dirname, 'support', 'http-floor-server.cjs'), mode], {
    cwd: join(__dirname, '..'),
    env: { ...process.env, DATABASE_URL: databaseUrl },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  try {
    const port = await new Promise<number>((resolve, reject) => {
      child.stdout!.once('data', (chunk: Buffer) => resolve(Number(chunk.toString().trim())));
      child.once('exit', (code) => reject(new Error(`http-floor-server ${mode} exited with ${code}`)));
    });
    const measure = async (
      run: () => Promise<{ perSecond: number; count: number; p50: number; p99: number }>,
    ) => {
      const cpuBefore = cpuSeconds(child.pid!);
      const clientCpuBefore = process.cpuUsage();
      const result = await run();
      const clientCpu = process.cpuUsage(clientCpuBefore);
      return {
        ...result,
        cpuMs: ((cpuSeconds(child.pid!) - cpuBefore) * 1000) / result.count,
        clientCpuMs: (clientCpu.user + clientCpu.system) / 1000 / result.count,
      };
    };
    const { post } = leanClient(`http://127.0.0.1:${port}`, 'none', clients);
    const closed = await measure(() => load(seconds, clients, () => post('x', { text: 'bench' })));
    const { post: openPost } = leanClient(`http://127.0.0.1:${port}`, 'none', 256);
    // Warm, as the commands' open loop is measured.
    const warm = await openLoop(HALF_SECONDS, closed.perSecond / 2, () => openPost('x', { text: 'bench' }));
    const half = await measure(() =>
      openLoop(seconds, closed.perSecond / 2, () => openPost('x', { text: 'bench' })),
    );
    const atCommandsHalf =
      commandsHalfRate === undefined
        ? undefined
        : await measure(() => openLoop(seconds, commandsHalfRate, () => openPost('x', { text: 'bench' })));
    return { ...closed, half, atCommandsHalf, warmCount: warm.count };
  } finally {
    child.kill();
  }
}

describe('command benchmarks', () => {
  let database: { url: string; drop: () => Promise<void> } | undefined;
  const apis: ApiProcess[] = [];
  const profileFile = join(tmpdir(), `af-bench-commands-${process.pid}.cpuprofile`);
  const env = () => ({
    DATABASE_URL: database!.url,
    DATABASE_POOL_SIZE: '20',
    PROCESS_ROLE: 'api',
    REDIS_URL,
    NOTIFICATIONS_QUEUE_PREFIX: `af-bench-commands-${process.pid}`,
    METRICS_TOKEN,
  });

  beforeAll(async () => {
    await buildBackend();
    database = await createTestDatabase();
    // The time each WAL flush took, in pg_stat_wal, for the sessions of the API's database (the
    // setting is a superuser's; without it the bench says it has no such time).
    await query(
      `ALTER DATABASE "${new URL(database.url).pathname.slice(1)}" SET track_wal_io_timing = on`,
    ).catch(() => undefined);
    apis.push(
      await startApiProcess('API A', {
        ...env(),
        NODE_OPTIONS: `--require ${join(__dirname, 'support', 'cpu-profile.cjs')}`,
        CPU_PROFILE_FILE: profileFile,
      }),
    );
  }, 300_000);
  afterAll(async () => {
    await Promise.all(apis.map((api) => api.stop()));
    await database?.drop();
  });

  /** One query on the bench database. */
  async function query<T>(sql: string): Promise<T> {
    const client = new Client({ connectionString: database!.url });
    await client.connect();
    try {
      return (await client.query(sql)).rows[0];
    } finally {
      await client.end();
    }
  }

  /**
   * Notes through the `targets` (client or request n through targets[n % count]), on the cases in
   * turn: a closed loop of `clients`, or an open loop at `perSecond`.
   */
  async function notes(
    targets: ApiProcess[],
    cases: string[],
    clients: number,
    perSecond?: number,
    seconds = SECONDS,
    /** Called once an open loop is warm, right before what it measures starts. */
    warm?: () => Promise<void>,
  ) {
    const posts = await Promise.all(
      targets.map(
        async (api) => leanClient(api.api, (await api.login('rep')).token!, perSecond ? 256 : clients).post,
      ),
    );
    let sent = 0;
    const note = (n: number) =>
      posts[n % posts.length](`/cases/${cases[sent++ % cases.length]}/notes`, { text: 'bench' });
    // An open loop is measured warm, as the closed loops are: its client opens its sockets as requests
    // come due, and a fresh one opening them in the measured seconds made their first half second
    // the loop's slowest (docs/performance.md, "The half-load tail's episodes").
    const warmCount = perSecond ? (await openLoop(HALF_SECONDS, perSecond, note)).count : 0;
    await warm?.();
    const pids = targets.map((api) => api.child.pid!);
    const cpuBefore = pids.map(cpuSeconds);
    const mainBefore = pids.map(mainThreadCpuSeconds);
    const postgresBefore = cpuSecondsByName('postgres');
    const xacts = `(SELECT xact_commit + xact_rollback FROM pg_stat_database WHERE datname = current_database())`;
    const before = await query<{ wal: string; position: string; xacts: string }>(
      `SELECT pg_current_wal_lsn() - '0/0' AS wal, coalesce(max(global_position), 0) AS position,
              ${xacts} AS xacts FROM events`,
    );
    const clientCpuBefore = process.cpuUsage();
    const result = perSecond
      ? await openLoop(seconds, perSecond, note)
      : { ...(await load(seconds, clients, note)), over25: 0, lateSends: 0, answers: [] };
    const apiCpu = pids.reduce((sum, pid, i) => sum + cpuSeconds(pid) - cpuBefore[i], 0);
    const apiMainCpu = pids.reduce((sum, pid, i) => sum + mainThreadCpuSeconds(pid) - mainBefore[i], 0);
    const postgresCpu = cpuSecondsSince(postgresBefore, 'postgres');
    const clientCpu = process.cpuUsage(clientCpuBefore);
    // Each backend reports its transactions once idle for a second: wait for the API's to.
    await sleep(1500);
    const after = await query<{ wal: string; perCommit: number; xacts: string }>(
      `SELECT pg_current_wal_lsn() - '0/0' AS wal, ${xacts} AS xacts,
              (SELECT count(*)::float / greatest(count(DISTINCT transaction_id), 1) FROM events
                WHERE global_position > ${Number(before.position)}) AS "perCommit"`,
    );
    return {
      ...result,
      warmCount,
      walKb: (Number(after.wal) - Number(before.wal)) / 1024 / result.count,
      perCommit: after.perCommit,
      // Every transaction of the bench database (a statement outside one counts as one), the two
      // connections this measurement opens (one or two).
      xactsPerCommand: (Number(after.xacts) - Number(before.xacts)) / result.count,
      apiCpuMs: (apiCpu * 1000) / result.count,
      apiMainCpuMs: (apiMainCpu * 1000) / result.count,
      postgresCpuMs: (postgresCpu * 1000) / result.count,
      seconds,
      clientCpuMs: (clientCpu.user + clientCpu.system) / 1000 / result.count,
      load: loadavg()[0].toFixed(1),
    };
  }
  /**
   * What the server did in the background so far: its checkpoints (pg_stat_bgwriter; from
   * PostgreSQL 17 pg_stat_checkpointer) and the autovacuum and autoanalyze runs that ended on the
   * bench database's tables.
   */
  async function backgroundWork() {
    const { checkpointer } = await query<{ checkpointer: boolean }>(
      `SELECT to_regclass('pg_catalog.pg_stat_checkpointer') IS NOT NULL AS checkpointer`,
    );
    const checkpoints = checkpointer
      ? `SELECT num_timed + num_requested AS checkpoints, buffers_written AS buffers FROM pg_stat_checkpointer`
      : `SELECT checkpoints_timed + checkpoints_req AS checkpoints, buffers_checkpoint AS buffers FROM pg_stat_bgwriter`;
    const row = await query<{
      checkpoints: string;
      buffers: string;
      vacuums: string;
      analyzes: string;
      syncs: string;
      syncMs: number;
    }>(
      `SELECT c.checkpoints, c.buffers, t.vacuums, t.analyzes, w.wal_sync AS syncs, w.wal_sync_time AS "syncMs"
         FROM (${checkpoints}) AS c, pg_stat_wal AS w,
         (SELECT coalesce(sum(autovacuum_count), 0) AS vacuums, coalesce(sum(autoanalyze_count), 0) AS analyzes
            FROM pg_stat_user_tables) AS t`,
    );
    return {
      checkpoints: Number(row.checkpoints),
      buffers: Number(row.buffers),
      vacuums: Number(row.vacuums),
      analyzes: Number(row.analyzes),
      syncs: Number(row.syncs),
      syncMs: Number(row.syncMs),
    };
  }
  const describeBackground = (before: BackgroundWork, after: BackgroundWork) => {
    const syncs = after.syncs - before.syncs;
    const syncMs = after.syncMs - before.syncMs;
    return (
      `PostgreSQL in the loop: ${thousands(syncs)} WAL flushes to disk, ` +
      (syncMs > 0 && syncs > 0
        ? `${(syncMs / syncs).toFixed(2)} ms each on average (${thousands(syncMs)} ms in all), `
        : '(their time not tracked), ') +
      `${after.checkpoints - before.checkpoints} checkpoint(s) ` +
      `(${thousands(after.buffers - before.buffers)} buffers written), ${after.vacuums - before.vacuums} autovacuum and ` +
      `${after.analyzes - before.analyzes} autoanalyze run(s) ended on the bench database's tables`
    );
  };
  type BackgroundWork = Awaited<ReturnType<typeof backgroundWork>>;

  const describeRun = (run: Awaited<ReturnType<typeof notes>>) =>
    `${thousands(run.perSecond)}/s, p50 ${run.p50} ms, p99 ${run.p99} ms, ` +
    `${run.apiCpuMs.toFixed(2)} ms API CPU per command (its main thread ${run.apiMainCpuMs.toFixed(2)} ms; ` +
    `clients ${run.clientCpuMs.toFixed(2)} ms, PostgreSQL ${run.postgresCpuMs.toFixed(2)} ms; ` +
    `the ${CORES} cores ${percent(((run.apiCpuMs + run.clientCpuMs + run.postgresCpuMs) * run.count) / (run.seconds * 1000 * CORES))} busy with these), ` +
    `${run.walKb.toFixed(1)} KB of WAL per command (whole server), ${run.perCommit.toFixed(1)} commands per commit, ` +
    `${run.xactsPerCommand.toFixed(2)} database transactions per command`;

  it('command throughput and latency at 32 clients, beside pgbench', async () => {
    const rep = await apis[0].login('rep');
    // Two creators: one user may create at most USER_LIMITS.casesPerHour cases an hour.
    const creators = [rep, await apis[0].login('admin')];
    const cases: string[] = [];
    for (let i = 0; i < CASES; i++) {
      const created = await creators[i % creators.length].post('/cases', {
        patientName: `Bench ${i}`,
        doctorName: 'D',
        clinicName: 'C',
      });
      expect(created.status).toBe(201);
      cases.push(created.body.id);
    }
    const noteCount = async () =>
      (await Promise.all(cases.map((id) => rep.get(`/cases/${id}`)))).reduce(
        (sum, answer) => sum + answer.body.version - 1,
        0,
      );
    const notesBefore = await noteCount();

    // One API process at its peak, warmed up first, unprofiled (a profiler's own work would be in
    // its CPU per command); then a shorter profiled pass, with PostgreSQL's wait events. pgbench
    // runs right before and right after the peak: this machine's speed drifts within minutes, and
    // the ratio is taken against the mean of the two.
    const cold = await notes(apis, cases, CLIENTS, undefined, HALF_SECONDS);
    const pgbenchBefore = pgbenchInsertRate(database!.url, HALF_SECONDS);
    const peak = await notes(apis, cases, CLIENTS);
    const pgbenchAfter = pgbenchInsertRate(database!.url, HALF_SECONDS);
    const pgbench = Math.round((pgbenchBefore + pgbenchAfter) / 2);
    process.stdout.write(
      `[bench] one API process, load average ${peak.load}: ${describeRun(peak)}; cold: ${describeRun(cold)}\n`,
    );
    apis[0].child.kill('SIGUSR2');
    const waits = sampleWaitEvents(database!.url);
    const peakProfiled = await notes(apis, cases, CLIENTS, undefined, HALF_SECONDS);
    const waitEvents = await waits();
    const profile = await closeProfileWindow(apis[0].child, profileFile);

    apis.push(await startApiProcess('API B', env()));
    const pairCold = await notes(apis, cases, CLIENTS, undefined, HALF_SECONDS);
    const pair = await notes(apis, cases, CLIENTS);
    process.stdout.write(`[bench] two API processes, load average ${pair.load}: ${describeRun(pair)}\n`);

    const best = pair.perSecond > peak.perSecond ? { run: pair, apis: 2 } : { run: peak, apis: 1 };
    const setup = best.apis === 2 ? 'two API processes' : 'one API process';
    // An API process hears every commit's NOTIFY, whoever made it: left running idle beside the
    // one that takes the open loop, API B would be woken by each of its flushes (docs/performance.md,
    // "The half-load tail's episodes").
    if (best.apis === 1) await apis.pop()!.stop();
    // The open loop's latencies unprofiled (a profiler's own pauses would be in them), with API
    // A's pauses counted (garbage collection, event loop delay).
    // The notes go round the same cases in every load: by now each holds hundreds, and every answer
    // carries them all (the whole case). One case's answer tells how large the open loop's are.
    const sample = await fetch(`${apis[0].api}/cases/${cases[0]}`, {
      headers: { authorization: `Bearer ${rep.token}` },
    });
    const sampleText = await sample.text();
    const sampleBytes = Buffer.byteLength(sampleText);
    const sampleNotes = (JSON.parse(sampleText) as { notes: unknown[] }).notes.length;
    let backgroundBefore!: BackgroundWork;
    let serverBefore!: Awaited<ReturnType<typeof apiTimings>>;
    const half = await notes(
      apis.slice(0, best.apis),
      cases,
      CLIENTS,
      best.run.perSecond / 2,
      SECONDS,
      async () => {
        apis[0].child.kill('SIGWINCH');
        backgroundBefore = await backgroundWork();
        serverBefore = await apiTimings(apis[0]);
      },
    );
    const serverAfter = await apiTimings(apis[0]);
    const halfPauses = await closePausesWindow(apis[0].child, profileFile);
    const backgroundAfter = await backgroundWork();
    // Against the clients' own count of answers over 25 ms: what the time outside the API's
    // request handling (its event loop's queue, the sockets, the clients' process) adds.
    const clientShareOver25 = half.over25 / half.count;
    const serverShareOver25 = shareOver(serverBefore.notes, serverAfter.notes, 0.025);
    const serverShareOver10 = shareOver(serverBefore.notes, serverAfter.notes, 0.01);
    // Of all appends, those that waited long for the flush before theirs; of all flushes, the long ones.
    const waitedOver10 = shareOver(serverBefore.waits, serverAfter.waits, 0.01);
    const flushesOver10 = shareOver(serverBefore.flushes, serverAfter.flushes, 0.01);
    const flushesOver100 = shareOver(serverBefore.flushes, serverAfter.flushes, 0.1);
    process.stdout.write(`[bench] open loop on ${setup}, load average ${half.load}: ${describeRun(half)}\n`);
    // Then the same open loop profiled: where API A's CPU goes while the tail forms, and what
    // PostgreSQL's sessions wait for.
    let halfWaits!: ReturnType<typeof sampleWaitEvents>;
    const halfProfiled = await notes(
      apis.slice(0, best.apis),
      cases,
      CLIENTS,
      best.run.perSecond / 2,
      SECONDS,
      async () => {
        apis[0].child.kill('SIGUSR2');
        halfWaits = sampleWaitEvents(database!.url);
      },
    );
    const halfWaitEvents = await halfWaits();
    const halfProfile = await closeProfileWindow(apis[0].child, profileFile);

    // A lone client, one request at a time, on API A: a note beside the cheapest signed-in read.
    const lone = leanClient(apis[0].api, (await apis[0].login('rep')).token!, 1);
    let loneSent = 0;
    const loneNote = await load(SECONDS, 1, () =>
      lone.post(`/cases/${cases[loneSent++ % cases.length]}/notes`, { text: 'bench' }),
    );
    const loneMe = await load(SECONDS, 1, () => lone.get('/auth/me'));
    const loneRatio = loneNote.p50 / loneMe.p50;
    process.stdout.write(
      `[bench] lone client, load average ${loadavg()[0].toFixed(1)}: note p50 ${loneNote.p50} ms, ` +
        `GET /auth/me p50 ${loneMe.p50} ms\n`,
    );

    const ratio = best.run.perSecond / pgbench;
    const nestFloor = await httpFloor('nest', SECONDS, CLIENTS, database!.url);
    const nodeFloor = await httpFloor('node', SECONDS, CLIENTS, database!.url);
    const durableFloor = await httpFloor('node-pg', SECONDS, CLIENTS, database!.url, best.run.perSecond / 2);
    const floorRows = await query<{ rows: string }>('SELECT count(*) AS rows FROM bench_floor_events');

    recordFigure({
      id: 'commands-peak',
      figure: `Commands over HTTP (notes), ${CLIENTS} clients, one API process (node backend/dist, clients in another process)`,
      measured:
        `${describeRun(peak)}; its first ${HALF_SECONDS} s from its start (cold, not counted): ` +
        `${thousands(cold.perSecond)}/s, ${cold.apiCpuMs.toFixed(2)} ms API CPU per command`,
      target: '—',
      bench: BENCH,
    });
    recordFigure({
      id: 'commands-peak-two-apis',
      figure: `Commands over HTTP (notes), ${CLIENTS} clients split over two API processes`,
      measured: describeRun(pair),
      target: '—',
      bench: BENCH,
    });
    recordFigure({
      id: 'commands-pgbench',
      figure: `pgbench single-insert transactions, ${CLIENTS} clients, same server`,
      measured: `${thousands(pgbench)}/s (the mean of ${HALF_SECONDS} s right before API A's peak, ${thousands(pgbenchBefore)}/s, and ${HALF_SECONDS} s right after it, ${thousands(pgbenchAfter)}/s)`,
      target: '—',
      bench: BENCH,
    });
    recordFigure({
      id: 'commands-ratio',
      figure: `Command throughput (${setup}) / pgbench single-insert rate`,
      measured: ratio.toFixed(2),
      target: '≥ 0.25',
      met: ratio >= 0.25,
      bench: BENCH,
    });
    recordFigure({
      id: 'commands-half',
      figure:
        `Command p99, open loop evenly paced at half the peak (${thousands(best.run.perSecond / 2)}/s, ${setup}), ` +
        'latency from each request’s due time',
      measured:
        `${describeRun(half)}; on cases holding about ${thousands(sampleNotes)} notes each by then (an answer ` +
        `${thousands(sampleBytes)} B); over 25 ms: ${percent(clientShareOver25)} of answers as the clients timed them, ` +
        `${percent(serverShareOver25)} as API A timed them inside (over 10 ms: ${percent(serverShareOver10)}); ` +
        `inside API A, ${percent(waitedOver10)} of the appends waited over 10 ms for the flush before theirs, ` +
        `and ${percent(flushesOver10)} of the flushes took over 10 ms (over 100 ms: ${percent(flushesOver100)}); ` +
        `${percent(half.lateSends / half.count)} sent over 5 ms late by the clients' own process; ` +
        `unprofiled, API A's pauses ${halfPauses.text}; ${episodes(half.answers, halfPauses)}; ` +
        describeBackground(backgroundBefore, backgroundAfter),
      target: '≤ 25 ms',
      met: half.p99 <= 25,
      bench: BENCH,
    });
    recordFigure({
      id: 'commands-http-floor',
      figure:
        `The HTTP stack alone, ${CLIENTS} clients, the same client: an empty POST route of NestJS on Fastify ` +
        '(its own process) ÷ pgbench, beside bare node:http',
      measured:
        `${(nestFloor.perSecond / pgbench).toFixed(2)} (Nest: ${thousands(nestFloor.perSecond)}/s, ` +
        `${(nestFloor.cpuMs * 1000).toFixed(0)} µs server CPU per request, clients ` +
        `${(nestFloor.clientCpuMs * 1000).toFixed(0)} µs; node:http: ${thousands(nodeFloor.perSecond)}/s, ` +
        `${(nodeFloor.cpuMs * 1000).toFixed(0)} µs, clients ${(nodeFloor.clientCpuMs * 1000).toFixed(0)} µs); ` +
        `open loop at half of each one's peak: Nest p99 ${nestFloor.half.p99} ms, node:http p99 ${nodeFloor.half.p99} ms`,
      target: '—',
      bench: BENCH,
    });
    recordFigure({
      id: 'commands-durable-floor',
      figure:
        `The least a durable command costs here: bare node:http committing each body as one jsonb row ` +
        `(group commit on one connection, no framework, no domain), ${CLIENTS} clients ÷ pgbench; ` +
        "its open loops at half its peak and at the commands' half-load rate",
      measured:
        `${(durableFloor.perSecond / pgbench).toFixed(2)} (${thousands(durableFloor.perSecond)}/s, p50 ` +
        `${durableFloor.p50} ms, p99 ${durableFloor.p99} ms, ${(durableFloor.cpuMs * 1000).toFixed(0)} µs ` +
        `server CPU per request, clients ${(durableFloor.clientCpuMs * 1000).toFixed(0)} µs); half load ` +
        `${thousands(durableFloor.half.perSecond)}/s: p50 ${durableFloor.half.p50} ms, p99 ${durableFloor.half.p99} ms; ` +
        `at the commands' half-load rate (${thousands(durableFloor.atCommandsHalf!.perSecond)}/s): ` +
        `p50 ${durableFloor.atCommandsHalf!.p50} ms, p99 ${durableFloor.atCommandsHalf!.p99} ms`,
      target: '—',
      bench: BENCH,
    });
    recordFigure({
      id: 'commands-lone',
      figure: 'A lone command (1 client, sequential) p50 ÷ GET /auth/me p50, one API process',
      measured:
        `${loneRatio.toFixed(2)} (note p50 ${loneNote.p50} ms, p99 ${loneNote.p99} ms; ` +
        `GET /auth/me p50 ${loneMe.p50} ms, p99 ${loneMe.p99} ms)`,
      target: '≤ 3',
      met: loneRatio <= 3,
      bench: BENCH,
    });
    recordFigure({
      id: 'commands-profile-api',
      figure: `Where API A’s CPU goes at its peak (CPU profile of a second, profiled pass of ${HALF_SECONDS} s; share of busy samples)`,
      measured:
        `by place: ${profile.places}; by function: ${profile.functions}; ` +
        `the profiled pass: ${thousands(peakProfiled.perSecond)}/s, ${peakProfiled.apiCpuMs.toFixed(2)} ms API CPU per command`,
      target: '—',
      bench: BENCH,
    });
    recordFigure({
      id: 'commands-half-profile',
      figure:
        'Where the open loop’s time goes (API A’s CPU profile and PostgreSQL’s sessions, pg_stat_activity every 10 ms, in a second, profiled pass)',
      measured:
        `by place: ${halfProfile.places}; by function: ${halfProfile.functions}; database: ${halfWaitEvents}; ` +
        `the profiled pass: p50 ${halfProfiled.p50} ms, p99 ${halfProfiled.p99} ms`,
      target: '—',
      bench: BENCH,
    });
    recordFigure({
      id: 'commands-profile-db',
      figure:
        'What PostgreSQL’s sessions do at API A’s peak (pg_stat_activity every 10 ms in the profiled pass, average sessions)',
      measured: waitEvents,
      target: '—',
      bench: BENCH,
    });
    // Nothing lost: every answered note is in its case, every answered floor request in its table.
    expect(Number(floorRows.rows)).toBe(
      durableFloor.count +
        durableFloor.warmCount +
        durableFloor.half.count +
        durableFloor.atCommandsHalf!.count,
    );
    expect((await noteCount()) - notesBefore).toBe(
      cold.count +
        peak.count +
        peakProfiled.count +
        pairCold.count +
        pair.count +
        half.warmCount +
        half.count +
        halfProfiled.warmCount +
        halfProfiled.count +
        loneNote.count,
    );
  });
});
