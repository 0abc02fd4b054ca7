import { spawn } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { buildBackend, freePort } from '../test/support/app-process';
import { createTestDatabase } from '../test/support/database';
import { recordFigure } from './support/report';

/**
 * Issue 11: the API process's memory while 5 anonymous clients each send a 200 MB JSON body to
 * POST /api/restore at once. The server should answer 401 without reading the bodies.
 *
 * BENCH_CHECKOUT=<dir> runs the same measurement against another checkout's build (its
 * backend/dist/main.js, built beforehand), e.g. the commit before the session gate:
 *   git clone . /tmp/before && (cd /tmp/before && git checkout 99d5e77 && npm install && npm run build)
 *   BENCH_CHECKOUT=/tmp/before npx jest -c bench/jest.config.js bench/anonymous-body.bench.ts
 */
const CLIENTS = 5;
const BODY_BYTES = 200 * 1024 * 1024;
const ROOT = path.resolve(__dirname, '..');
const CHECKOUT = process.env.BENCH_CHECKOUT ? path.resolve(process.env.BENCH_CHECKOUT) : ROOT;

/** Megabytes of a /proc/<pid>/status field (VmRSS now, VmHWM the peak since the last reset). */
function memoryMb(pid: number, field: 'VmRSS' | 'VmHWM'): number {
  const line = readFileSync(`/proc/${pid}/status`, 'utf8')
    .split('\n')
    .find((entry) => entry.startsWith(`${field}:`));
  return line ? Math.round(Number(line.split(/\s+/)[1]) / 1024) : NaN;
}

/** A restore-shaped body: many cases of about 1 kB each, exactly BODY_BYTES long. */
function bodyParts(): { head: Buffer; item: Buffer; count: number; tail: Buffer } {
  const head = Buffer.from('{"users":[],"cases":[');
  const item = Buffer.from(
    `{"id":"CA-2024-999","patientName":"${'x'.repeat(960)}","status":"Digital Planning"},`,
  );
  const count = Math.floor((BODY_BYTES - head.length - 16) / item.length);
  const filler = BODY_BYTES - head.length - count * item.length - '{}]}'.length;
  const tail = Buffer.from(`{${' '.repeat(filler)}}]}`);
  return { head, item, count, tail };
}

/** Sends the whole body unless an answer comes first; resolves with the status (or the error). */
function sendBody(url: string): Promise<string> {
  const { head, item, count, tail } = bodyParts();
  const batch = Buffer.concat(Array.from({ length: 1024 }, () => item));
  return new Promise((resolve) => {
    let answer: string | undefined;
    const request = http.request(
      url,
      {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'content-length': String(BODY_BYTES) },
      },
      (response) => {
        answer = String(response.statusCode);
        response.resume();
        response.on('end', () => {
          request.destroy();
          resolve(answer!);
        });
      },
    );
    request.on('error', (error: NodeJS.ErrnoException) => resolve(answer ?? error.code ?? error.message));
    void (async () => {
      const write = (chunk: Buffer) =>
        new Promise<void>((done) => (request.write(chunk) ? done() : request.once('drain', done)));
      await write(head);
      let left = count;
      while (left > 0 && answer === undefined && !request.destroyed) {
        const n = Math.min(left, 1024);
        await write(n === 1024 ? batch : batch.subarray(0, n * item.length));
        left -= n;
      }
      if (answer === undefined && !request.destroyed) request.end(tail);
    })();
  });
}

describe('anonymous 200 MB bodies', () => {
  it(`peak RSS of the API process while ${CLIENTS} anonymous clients each send ${BODY_BYTES / 2 ** 20} MB to /api/restore`, async () => {
    if (CHECKOUT === ROOT) await buildBackend();
    const database = await createTestDatabase();
    const port = await freePort();
    const child = spawn(process.execPath, [path.join(CHECKOUT, 'backend/dist/main.js')], {
      cwd: CHECKOUT,
      env: {
        PATH: process.env.PATH ?? '',
        HOME: process.env.HOME ?? '/tmp',
        DATABASE_URL: database.url,
        DATA_DIR: path.join(CHECKOUT, 'tmp', `bench-anonymous-body-${port}`),
        DEMO_DATA: '1',
        ADMIN_PASSWORD: 'demo-password-long-enough',
        PORT: String(port),
        HOST: '127.0.0.1',
        LOG_LEVEL: 'warn',
      },
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    const exited = new Promise<string>((resolve) =>
      child.once('exit', (code, signal) => resolve(`exited (${signal ?? code})`)),
    );
    const api = `http://127.0.0.1:${port}/api`;
    try {
      for (;;) {
        if (child.exitCode !== null) throw new Error('the API process exited at start');
        const ready = await fetch(`${api}/health/ready`).then(
          (answer) => answer.ok,
          () => false,
        );
        if (ready) break;
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
      const pid = child.pid!;
      const idleMb = memoryMb(pid, 'VmRSS');
      // Resets VmHWM to the current RSS, so the peak below is the attack's, not the start's.
      writeFileSync(`/proc/${pid}/clear_refs`, '5');
      let sampledPeakMb = idleMb;
      const sampler = setInterval(() => {
        if (child.exitCode === null) sampledPeakMb = Math.max(sampledPeakMb, memoryMb(pid, 'VmRSS'));
      }, 20);
      const answers = await Promise.race([
        Promise.all(Array.from({ length: CLIENTS }, () => sendBody(`${api}/restore`))),
        exited.then((how) => [how]),
      ]);
      clearInterval(sampler);
      const alive = child.exitCode === null && child.signalCode === null;
      const peakMb = alive ? Math.max(memoryMb(pid, 'VmHWM'), sampledPeakMb) : sampledPeakMb;
      const which = CHECKOUT === ROOT ? 'this checkout' : `checkout ${path.basename(CHECKOUT)}`;
      recordFigure({
        id: `anonymous-body-${CHECKOUT === ROOT ? 'now' : 'other'}`,
        figure: `API peak RSS, ${CLIENTS} anonymous ${BODY_BYTES / 2 ** 20} MB restores at once (${which})`,
        measured: `idle ${idleMb} MB → peak ${peakMb} MB; answers ${[...new Set(answers)].join(', ')}${alive ? '' : '; the process died'}`,
        target: 'no growth: 401 before the body',
        bench: 'bench/anonymous-body.bench.ts',
      });
    } finally {
      child.kill('SIGTERM');
      await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 20_000))]);
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      await database.drop();
    }
  });
});
