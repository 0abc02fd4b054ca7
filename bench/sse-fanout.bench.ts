import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import http from 'node:http';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from 'pg';
import { freePort } from '../test/support/app-process';
import { createTestDatabase } from '../test/support/database';
import { longTransactionOnServer } from '../test/support/sse';
import { summarise, thousands, cpuSeconds } from './support/load';
import { recordFigure } from './support/report';

/**
 * SSE fan-out: one API process (backend/src/main.ts run from source, as the worker benchmark
 * does, so the clients in this process do not share its event loop) with 2,000 open
 * `GET /api/events` streams: staff of four roles and 100 doctors. Notes are added one at a time,
 * spaced out, to cases of one doctor; every client that may see the case must get its
 * `case_updated`. Measured per client and message: from the moment this process has the
 * command's HTTP answer to the moment that client has read the frame (0 if the frame came
 * first). Also: when the last of the 2,000 got it, and the API process's CPU per message.
 */
const BENCH = 'bench/sse-fanout.bench.ts';
const CLIENTS = Number(process.env.BENCH_SSE_CLIENTS ?? 2000);
const DOCTOR_CLIENTS = Math.round(CLIENTS / 20);
const COMMANDS = Number(process.env.BENCH_SSE_COMMANDS ?? 100);
const SPACING_MS = 100;
const CASES = 10;
const REPO = join(__dirname, '..');

async function startApi(env: Record<string, string>): Promise<{ child: ChildProcess; api: string }> {
  const port = await freePort();
  const nodeArgs = process.env.BENCH_API_NODE_ARGS?.split(' ').filter(Boolean) ?? [];
  const child = spawn(
    process.execPath,
    [...nodeArgs, '-r', join(REPO, 'test/support/swc-register.cjs'), join(REPO, 'backend/src/main.ts')],
    {
      cwd: REPO,
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/tmp', ...env, PORT: String(port) },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const api = `http://127.0.0.1:${port}/api`;
  const deadline = Date.now() + 90_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`The API process exited:\n${output}`);
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`The API process did not start:\n${output}`);
    }
    const up = await fetch(`${api}/health`).then(
      (response) => response.ok,
      () => false,
    );
    if (up) return { child, api };
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

async function stopProcess(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
  await exited;
  clearTimeout(timer);
}

async function call(api: string, method: string, path: string, token?: string, body?: unknown) {
  const response = await fetch(`${api}${path}`, {
    method,
    headers: {
      'content-type': 'application/json',
      ...(token ? { authorization: `Bearer ${token}` } : {}),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${text}`);
  return text ? JSON.parse(text) : undefined;
}

/** The marker of the note currently awaited, and when each client first read it. */
interface Round {
  marker: string;
  /** Per client: when it read the frame (performance.now()), or undefined. */
  receivedAt: (number | undefined)[];
  expected: Set<number>;
  missing: number;
  allIn: () => void;
}

/** A bare SSE reader: only looks for the current marker in what arrives (no parsing per client). */
function openStream(
  api: string,
  token: string,
  index: number,
  current: () => Round | undefined,
): Promise<http.ClientRequest> {
  return new Promise((resolve, reject) => {
    const request = http.request(`${api}/events`, {
      agent: false,
      headers: { authorization: `Bearer ${token}`, accept: 'text/event-stream' },
    });
    request.on('response', (response) => {
      if (response.statusCode !== 200) return reject(new Error(`stream ${index}: ${response.statusCode}`));
      response.setEncoding('utf8');
      let tail = '';
      let opened = false;
      response.on('data', (chunk: string) => {
        const text = tail + chunk;
        tail = text.slice(-40);
        // The first bytes (retry:) are written in the same step that registers the stream.
        if (!opened) {
          opened = true;
          resolve(request);
        }
        const round = current();
        if (round && round.receivedAt[index] === undefined && text.includes(round.marker)) {
          round.receivedAt[index] = performance.now();
          if (round.expected.has(index) && --round.missing === 0) round.allIn();
        }
      });
    });
    request.on('error', reject);
    request.end();
  });
}

describe('SSE fan-out', () => {
  it(`delivers each case_updated to ${CLIENTS} open streams`, async () => {
    const database = await createTestDatabase();
    // A database in use is safe from other runs' sweep of leftover test databases.
    const holder = new Client({ connectionString: database.url });
    await holder.connect();
    const dataDir = mkdtempSync(join(tmpdir(), 'af-bench-sse-'));
    const { child, api } = await startApi({
      DATABASE_URL: database.url,
      DATA_DIR: dataDir,
      DEMO_DATA: '1',
      ADMIN_PASSWORD: 'demo',
      HOST: '127.0.0.1',
      // Thousands of streams on six sessions: lift the per-session cap of a real deployment.
      LIVE_STREAMS_PER_SESSION: String(CLIENTS),
    });
    const streams: http.ClientRequest[] = [];
    try {
      const tokens: Record<string, string> = {};
      for (const username of ['admin', 'rep', 'designer', 'tech', 'dr.lee', 'dr.patel'])
        tokens[username] = (
          await call(api, 'POST', '/auth/login', undefined, { username, password: 'demo' })
        ).token;
      // Cases of dr.lee (a doctor's own case is assigned to them): staff and dr.lee's streams get them.
      const caseIds: string[] = [];
      // Live messages carry summaries: a note shows as its case's next noteCount.
      const noteCounts: number[] = [];
      for (let n = 0; n < CASES; n++) {
        const created = await call(api, 'POST', '/cases', tokens['dr.lee'], {
          patientName: `Fan-out ${n}`,
          doctorName: 'Dr. Sarah Lee',
          clinicName: 'Bright Smiles',
          priority: 'Normal',
        });
        caseIds.push(created.id);
        noteCounts.push(created.notes.length);
      }

      const staff = ['admin', 'rep', 'designer', 'tech'];
      const viewers = Array.from({ length: CLIENTS }, (_, index) =>
        index < DOCTOR_CLIENTS ? (index % 2 ? 'dr.patel' : 'dr.lee') : staff[index % staff.length],
      );
      const expected = new Set(viewers.flatMap((viewer, index) => (viewer === 'dr.patel' ? [] : [index])));
      let round: Round | undefined;
      const opening = Date.now();
      for (let start = 0; start < CLIENTS; start += 100) {
        const batch = viewers.slice(start, start + 100);
        streams.push(
          ...(await Promise.all(
            batch.map((viewer, offset) => openStream(api, tokens[viewer], start + offset, () => round)),
          )),
        );
      }
      const openMs = Date.now() - opening;

      const samples: number[] = [];
      // Upper bound: the clients share this event loop with the command's caller, so its answer
      // may be handled after frames that arrived with it; measured from the send it cannot hide.
      const fromSend: number[] = [];
      const lastClient: number[] = [];
      const commandMs: number[] = [];
      let lost = 0;
      // Commit-safe readers wait for every older transaction on the whole server (the live README's
      // "Costs"): another session's long transaction delays every stream, so say when one ran.
      const heldBack = new Set<string>();
      const cpuBefore = cpuSeconds(child.pid!);
      for (let n = 0; n < COMMANDS; n++) {
        // Counts stay below 20 with the default commands over CASES cases, so no marker is a prefix of another.
        const marker = `"noteCount":${++noteCounts[n % CASES]}`;
        let allIn!: () => void;
        const arrived = new Promise<void>((resolve) => (allIn = resolve));
        round = {
          marker,
          receivedAt: new Array(CLIENTS),
          expected,
          missing: expected.size,
          allIn,
        };
        const sent = performance.now();
        await call(api, 'POST', `/cases/${caseIds[n % CASES]}/notes`, tokens.admin, {
          text: `fan-out-note-${n}`,
        });
        const answered = performance.now();
        const holder = await longTransactionOnServer(200);
        if (holder) heldBack.add(holder.replace(/, running for .*/, ''));
        commandMs.push(answered - sent);
        let timer!: NodeJS.Timeout;
        const timeout = new Promise<'timeout'>(
          (resolve) => (timer = setTimeout(() => resolve('timeout'), 10_000)),
        );
        if ((await Promise.race([arrived, timeout])) === 'timeout') lost += round.missing;
        clearTimeout(timer);
        const times = round.receivedAt;
        for (const index of expected) {
          const at = times[index];
          if (at !== undefined) {
            samples.push(Math.max(0, at - answered));
            fromSend.push(at - sent);
          }
        }
        lastClient.push(Math.max(0, ...[...expected].map((index) => (times[index] ?? answered) - answered)));
        // A doctor never gets another doctor's case.
        expect(
          viewers.filter((viewer, index) => viewer === 'dr.patel' && times[index] !== undefined),
        ).toEqual([]);
        await new Promise((resolve) => setTimeout(resolve, SPACING_MS));
      }
      const cpu = cpuSeconds(child.pid!) - cpuBefore;
      round = undefined;
      expect(lost).toBe(0);

      const perClient = summarise(samples);
      const sendToRead = summarise(fromSend);
      const last = summarise(lastClient);
      const command = summarise(commandMs);
      recordFigure({
        id: 'sse-fanout',
        figure: `SSE delivery, command answer → message read, ${thousands(CLIENTS)} clients`,
        measured: `p50 ${perClient.p50} ms, p99 ${perClient.p99} ms (${thousands(samples.length)} deliveries; last client p50 ${last.p50} ms)`,
        target: '≤ 200 ms',
        met: perClient.p99 <= 200,
        bench: BENCH,
      });
      process.stdout.write(
        `\nSSE fan-out (${cpus().length} cores, load average ${loadavg()[0].toFixed(1)}): ${CLIENTS} streams ` +
          `(${DOCTOR_CLIENTS} doctors) opened in ${openMs} ms; ${COMMANDS} notes ${SPACING_MS} ms apart, ` +
          `${expected.size} recipients each.\n` +
          `  per delivery: p50 ${perClient.p50} ms, p99 ${perClient.p99} ms; last recipient per note: ` +
          `p50 ${last.p50} ms, p99 ${last.p99} ms; note command p50 ${command.p50} ms, p99 ${command.p99} ms\n` +
          `  from the command's send to the frame read (includes the command): p50 ${sendToRead.p50} ms, p99 ${sendToRead.p99} ms\n` +
          `  API process CPU ${((cpu / COMMANDS) * 1000).toFixed(1)} ms per note (command + fan-out to ${expected.size})\n` +
          (heldBack.size
            ? `  Held back at times by another session's transaction on this server: ${[...heldBack].join('; ')}\n`
            : ''),
      );
    } finally {
      for (const stream of streams) stream.destroy();
      await stopProcess(child);
      await holder.end();
      await database.drop();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
