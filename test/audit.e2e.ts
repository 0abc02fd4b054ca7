import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { Client } from 'pg';
import { createApp } from '../backend/src/app';
import { AuditSealer } from '../backend/src/audit/audit-sealer';
import { loadConfig } from '../backend/src/config/config';
import { buildBackend, BUILD_TIMEOUT_MS } from './support/app-process';
import { eventually, sql } from './support/helpers';
import type { ApiClient } from './support/http';
import { startTestApp, type TestApp } from './support/test-app';

/**
 * Tamper evidence (api.md, Security; backend/src/audit/README.md). The tampering is done as an
 * attacker with database access would: as the postgres superuser, with the append-only triggers
 * switched off for the session (session_replication_role = replica). Each tampering test puts the
 * row back as it was afterwards, which also shows that the seal matches the original content.
 */
const ROOT = path.resolve(__dirname, '..');
/** The contract's bound between an event's commit and its seal. */
const SEAL_BOUND_MS = 5000;

let lab: TestApp;
let admin: ApiClient;
let attacker: Client;

async function allSealed(timeoutMs = 30_000): Promise<number> {
  let events = 0;
  await eventually(
    async () => {
      const [row] = await sql(
        lab.databaseUrl,
        `SELECT (SELECT count(*)::int FROM events) AS events, (SELECT count(*)::int FROM audit_chain) AS seals`,
      );
      events = row.events;
      return row.events === row.seals;
    },
    timeoutMs,
    'every event to be sealed',
  );
  return events;
}

/** Runs `sql` with the triggers of the events table off, as the superuser. */
async function tamper(text: string, params: unknown[] = []): Promise<void> {
  await attacker.query('BEGIN');
  await attacker.query('SET LOCAL session_replication_role = replica');
  await attacker.query(text, params);
  await attacker.query('COMMIT');
}

/** Every column of an event as text, to put it back exactly (microseconds included). */
async function eventAt(position: string): Promise<Record<string, string>> {
  const [row] = await sql(
    lab.databaseUrl,
    `SELECT global_position::text, stream_id, stream_version::text, type, schema_version::text, data::text,
            metadata::text, recorded_at::text, transaction_id::text
       FROM events WHERE global_position = $1`,
    [position],
  );
  return row;
}

/** A case's events, oldest first: [global_position, ...]. */
async function positionsOf(caseId: string): Promise<string[]> {
  const rows = await sql(
    lab.databaseUrl,
    'SELECT global_position::text AS p FROM events WHERE stream_id = $1 ORDER BY stream_version',
    [`case-${caseId}`],
  );
  return rows.map((row) => row.p);
}

async function verify(query = '') {
  const answer = await admin.get(`/audit/verify${query}`);
  expect(answer.status).toBe(200);
  return answer.body;
}

beforeAll(async () => {
  lab = await startTestApp();
  admin = await lab.login('admin');
  attacker = new Client({ connectionString: lab.databaseUrl });
  await attacker.connect();
});

afterAll(async () => {
  await attacker?.end();
  await lab?.close();
});

describe('sealing', () => {
  it('seals a new event within 5 s of its commit', async () => {
    // The bound is for an event that joins an idle sealer: the seed's backlog, sealed at start-up,
    // is a bulk like a restore's (next test), and on a loaded machine it can still be in progress.
    await allSealed();
    const [item] = (await admin.get('/cases')).body;
    const noted = await admin.post(`/cases/${item.id}/notes`, { text: 'Sealed soon.' });
    expect(noted.status).toBeLessThan(300);
    const answeredAt = Date.now();
    const [last] = (await positionsOf(item.id)).slice(-1);
    await eventually(
      async () =>
        (await sql(lab.databaseUrl, 'SELECT 1 FROM audit_chain WHERE global_position = $1', [last]))
          .length === 1,
      SEAL_BOUND_MS - (Date.now() - answeredAt),
      'the note to be sealed',
    );
  });

  it('seals every event of a restore', async () => {
    const backup = (await admin.get('/backup')).body;
    const [template] = backup.cases;
    // 12,000 cases: more than one batch of the sealer.
    const cases = Array.from({ length: 12_000 }, (_, i) => ({ ...template, id: `CA-2031-${10_000 + i}` }));
    const restored = await admin.post('/restore', {
      users: backup.users,
      cases: [...backup.cases, ...cases],
    });
    expect(restored.status).toBe(200);
    const events = await allSealed(60_000);
    expect(events).toBeGreaterThan(12_000);
    expect(await verify()).toMatchObject({ ok: true, events, firstBroken: null });
  }, 120_000);

  it('keeps one sealer among several API processes, and another takes over when it stops', async () => {
    const config = loadConfig({
      DATABASE_URL: lab.databaseUrl,
      DATA_DIR: lab.dataDir,
      DEMO_DATA: '1',
      ADMIN_PASSWORD: 'demo',
      PORT: '0',
    });
    const second = await createApp({
      config,
      databaseUrl: lab.databaseUrl,
      logger: false,
      spaDir: '/nonexistent',
    });
    await second.init();
    const sealers = [lab.app.get(AuditSealer), second.get(AuditSealer)];
    try {
      await eventually(() => sealers.some((sealer) => sealer.isLeader), 5000, 'a leader');
      expect(sealers.filter((sealer) => sealer.isLeader)).toHaveLength(1);
      const [leader, follower] = sealers[0].isLeader ? sealers : [sealers[1], sealers[0]];
      await leader.stop();
      await eventually(() => follower.isLeader, 5000, 'the other process to take over');
      const [item] = (await admin.get('/cases')).body;
      await admin.post(`/cases/${item.id}/notes`, { text: 'Sealed by the other process.' });
      await allSealed(SEAL_BOUND_MS);
      leader.start();
    } finally {
      await second.close();
    }
    await eventually(() => lab.app.get(AuditSealer).isLeader, 5000, 'the first process to lead again');
  });
});

describe('GET /audit/verify', () => {
  let events: number;
  let caseId: string;
  let positions: string[];

  beforeAll(async () => {
    caseId = (await admin.get('/cases')).body[0].id;
    for (const text of ['First note.', 'Second note.'])
      expect((await admin.post(`/cases/${caseId}/notes`, { text })).status).toBeLessThan(300);
    events = await allSealed();
    positions = await positionsOf(caseId);
    expect(positions.length).toBeGreaterThanOrEqual(3);
  });

  it('answers 403 to everyone but a Manager, 401 anonymously', async () => {
    for (const username of ['rep', 'designer', 'tech', 'dr.lee']) {
      const other = await lab.login(username);
      expect((await other.get('/audit/verify')).status).toBe(403);
      expect((await other.get(`/audit/verify?caseId=${caseId}`)).status).toBe(403);
    }
    expect((await lab.anonymous.get('/audit/verify')).status).toBe(401);
  });

  it('says an untouched log is intact, with the head hash to record elsewhere', async () => {
    const answer = await verify();
    expect(answer).toEqual({
      ok: true,
      events,
      firstBroken: null,
      headHash: expect.stringMatching(/^[0-9a-f]{64}$/),
      // The access log's own chain (test/access-log.e2e.ts); here only the export made above.
      accessLog: { ok: true, entries: expect.any(Number), firstBroken: null },
    });
    const [head] = await sql(
      lab.databaseUrl,
      `SELECT encode(chain_hash, 'hex') AS hash FROM audit_chain ORDER BY seq DESC LIMIT 1`,
    );
    expect(answer.headHash).toBe(head.hash);
  });

  it("finds an event whose content was changed, and the case's check finds it too", async () => {
    const target = positions[1];
    const original = await eventAt(target);
    await tamper(
      `UPDATE events SET data = jsonb_set(data, '{tampered}', 'true') WHERE global_position = $1`,
      [target],
    );
    try {
      expect(await verify()).toMatchObject({ ok: false, events, firstBroken: target });
      expect(await verify(`?caseId=${caseId}`)).toMatchObject({ ok: false, caseId, firstBroken: target });
    } finally {
      await tamper('UPDATE events SET data = $2 WHERE global_position = $1', [target, original.data]);
    }
    expect(await verify()).toMatchObject({ ok: true, events, firstBroken: null });
  });

  it('finds a changed time, actor or type', async () => {
    const target = positions[0];
    for (const change of [
      `recorded_at = recorded_at + interval '1 microsecond'`,
      `metadata = metadata || '{"actor": {"username": "someone", "role": "Manager"}}'`,
      `type = type || 'X'`,
    ]) {
      const original = await eventAt(target);
      await tamper(`UPDATE events SET ${change} WHERE global_position = $1`, [target]);
      try {
        expect(await verify()).toMatchObject({ ok: false, firstBroken: target });
      } finally {
        await tamper(
          'UPDATE events SET recorded_at = $2, metadata = $3, type = $4 WHERE global_position = $1',
          [target, original.recorded_at, original.metadata, original.type],
        );
      }
    }
    expect(await verify()).toMatchObject({ ok: true, firstBroken: null });
  });

  it('finds a deleted event', async () => {
    const target = positions[positions.length - 1];
    const original = await eventAt(target);
    await tamper('DELETE FROM events WHERE global_position = $1', [target]);
    try {
      expect(await verify()).toMatchObject({ ok: false, events, firstBroken: target });
      expect(await verify(`?caseId=${caseId}`)).toMatchObject({ ok: false, firstBroken: target });
    } finally {
      const columns = Object.keys(original);
      await tamper(
        `INSERT INTO events (${columns.join(', ')}) VALUES (${columns.map((_, i) => `$${i + 1}`).join(', ')})`,
        Object.values(original),
      );
    }
    expect(await verify()).toMatchObject({ ok: true, events, firstBroken: null });
  });

  it('finds two events whose contents were swapped, at the first of them', async () => {
    const [first, second] = [positions[0], positions[1]];
    const swap = `UPDATE events AS e SET type = o.type, data = o.data, metadata = o.metadata, recorded_at = o.recorded_at
                    FROM events o WHERE (e.global_position, o.global_position) IN (($1::bigint, $2::bigint), ($2, $1))`;
    await tamper(swap, [first, second]);
    try {
      expect(await verify()).toMatchObject({ ok: false, events, firstBroken: first });
    } finally {
      await tamper(swap, [first, second]);
    }
    expect(await verify()).toMatchObject({ ok: true, events, firstBroken: null });
  });

  it('finds two events put in each other’s place in the log, at the first of them', async () => {
    const [first, second] = [positions[0], positions[1]];
    const reorder = async () => {
      await tamper('UPDATE events SET global_position = -1 WHERE global_position = $1', [first]);
      await tamper('UPDATE events SET global_position = $1 WHERE global_position = $2', [first, second]);
      await tamper('UPDATE events SET global_position = $1 WHERE global_position = -1', [second]);
    };
    await reorder();
    try {
      expect(await verify()).toMatchObject({ ok: false, events, firstBroken: first });
    } finally {
      await reorder();
    }
    expect(await verify()).toMatchObject({ ok: true, events, firstBroken: null });
  });

  it('finds an event written into the past, behind the sealer', async () => {
    const [{ position }] = await sql(
      lab.databaseUrl,
      `INSERT INTO events (stream_id, stream_version, type, data, transaction_id)
       VALUES ('case-forged', 1, 'CaseCreated', '{}', '3') RETURNING global_position::text AS position`,
    );
    try {
      expect(await verify()).toMatchObject({ ok: false, events, firstBroken: position });
    } finally {
      await tamper('DELETE FROM events WHERE global_position = $1', [position]);
    }
  });

  it("checks one case's events: all sealed and intact", async () => {
    expect(await verify(`?caseId=${caseId}`)).toEqual({
      ok: true,
      caseId,
      events: positions.length,
      unsealed: 0,
      firstBroken: null,
    });
    expect((await admin.get('/audit/verify?caseId=CA-1999-000')).status).toBe(404);
  });
});

describe('npm run verify-log', () => {
  beforeAll(() => buildBackend(), BUILD_TIMEOUT_MS);

  const run = () =>
    promisify(execFile)(process.execPath, [path.join(ROOT, 'backend/dist/verify-log.js')], {
      cwd: ROOT,
      env: { PATH: process.env.PATH ?? '', DATABASE_URL: lab.databaseUrl },
    }).then(
      ({ stdout }) => ({ code: 0, answer: JSON.parse(stdout) }),
      (error: { code: number; stdout: string; stderr: string }) => ({
        code: error.code,
        answer: error.stdout ? JSON.parse(error.stdout) : error.stderr,
      }),
    );

  it('prints the answer and exits 0 on an intact log, 1 on a broken one', async () => {
    const events = await allSealed();
    expect(await run()).toEqual({
      code: 0,
      // The access log's chain is checked too (test/access-log.e2e.ts).
      answer: {
        ok: true,
        events,
        firstBroken: null,
        headHash: expect.any(String),
        accessLog: { ok: true, entries: expect.any(Number), firstBroken: null },
      },
    });

    const [{ position }] = await sql(
      lab.databaseUrl,
      `SELECT global_position::text AS position FROM audit_chain WHERE seq = 2`,
    );
    const original = await eventAt(position);
    await tamper(`UPDATE events SET data = '{"rewritten": true}' WHERE global_position = $1`, [position]);
    try {
      expect(await run()).toMatchObject({ code: 1, answer: { ok: false, events, firstBroken: position } });
    } finally {
      await tamper('UPDATE events SET data = $2 WHERE global_position = $1', [position, original.data]);
    }

    // A changed access log entry breaks the run as well: the access log's chain is checked too.
    await admin.get('/backup');
    const [entry] = await eventually(
      async () =>
        (await sql(lab.databaseUrl, 'SELECT seq::text, detail FROM access_log ORDER BY seq LIMIT 1')).length >
        0,
      5000,
      'an access log entry',
    ).then(() => sql(lab.databaseUrl, 'SELECT seq::text, detail FROM access_log ORDER BY seq LIMIT 1'));
    await attacker.query('BEGIN');
    await attacker.query('SET LOCAL session_replication_role = replica');
    await attacker.query(`UPDATE access_log SET detail = 'nothing' WHERE seq = $1`, [entry.seq]);
    await attacker.query('COMMIT');
    try {
      expect(await run()).toMatchObject({
        code: 1,
        answer: { ok: true, accessLog: { ok: false, firstBroken: entry.seq } },
      });
    } finally {
      await attacker.query('BEGIN');
      await attacker.query('SET LOCAL session_replication_role = replica');
      await attacker.query('UPDATE access_log SET detail = $2 WHERE seq = $1', [entry.seq, entry.detail]);
      await attacker.query('COMMIT');
    }
  }, 60_000);
});
