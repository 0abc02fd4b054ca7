import { execFile } from 'node:child_process';
import { createPublicKey, verify } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { Client } from 'pg';
import { chainHash } from '../backend/src/common/hash-chain';
import { checkpointMessage, EVENT_HEAD_SQL, eventHash, sha256Hex } from '../backend/src/audit/audit-chain';
import { Clock } from '../backend/src/common/clock';
import { buildBackend, BUILD_TIMEOUT_MS } from './support/app-process';
import { eventually, sql } from './support/helpers';
import type { ApiClient } from './support/http';
import { startTestApp, type TestApp } from './support/test-app';

/**
 * Signed history (api.md, "Patient data"; backend/src/audit/README.md): seals computed and signed
 * by the app, signed checkpoints, and the offline check of an export. The tampering is done as the
 * schema's owner would: the append-only triggers' functions redefined to let every change through,
 * then an event rewritten together with its seal (and every later seal, so the chain stays whole).
 */
const ROOT = join(__dirname, '..');
// Sealing follows the commit-safe horizon, which another test file's long restore holds back.
jest.setTimeout(120_000);
const TEN_MINUTES = 10 * 60_000;

let lab: TestApp;
let admin: ApiClient;
let owner: Client;
let clockOffset = 0;

async function allSealed(): Promise<number> {
  let events = 0;
  await eventually(
    async () => {
      const [row] = await sql(
        lab.databaseUrl,
        'SELECT (SELECT count(*)::int FROM events) AS events, (SELECT count(*)::int FROM audit_chain) AS seals',
      );
      events = row.events;
      return row.events === row.seals;
    },
    60_000,
    'every event to be sealed',
  );
  return events;
}

/**
 * Writes an event, then moves the sealer's clock past the 10-minute bound until the checkpoint of
 * the newest seal is signed. Only meanwhile: sessions and step-up are judged by the same clock.
 */
async function checkpointAtHead(): Promise<string> {
  const [item] = (await admin.get('/cases')).body;
  expect(
    (await admin.post(`/cases/${item.id}/notes`, { text: 'A checkpoint follows.' })).status,
  ).toBeLessThan(300);
  const [{ position }] = await sql(
    lab.databaseUrl,
    'SELECT max(global_position)::text AS position FROM events',
  );
  clockOffset += TEN_MINUTES + 1000;
  const moved = jest.spyOn(lab.app.get(Clock), 'now').mockImplementation(() => Date.now() + clockOffset);
  try {
    await eventually(
      async () =>
        (await sql(lab.databaseUrl, 'SELECT 1 FROM audit_checkpoints WHERE global_position = $1', [position]))
          .length === 1,
      // Commit-safe sealing waits for older transactions anywhere on the server (another test's restore).
      60_000,
      'a checkpoint at the newest event',
    );
  } finally {
    moved.mockRestore();
  }
  return position;
}

/** The three files an auditor takes: the key, the checkpoints (first), then the export. */
async function auditFiles(dir: string) {
  const key = await lab.anonymous.get('/audit/public-key');
  expect(key.status).toBe(200);
  const checkpoints = await admin.get('/audit/checkpoints?after=0');
  expect(checkpoints.status).toBe(200);
  const exported = await admin.get('/events/export');
  expect(exported.status).toBe(200);
  const files = {
    key: join(dir, 'key.pem'),
    checkpoints: join(dir, 'checkpoints.json'),
    file: join(dir, 'export.jsonl'),
  };
  writeFileSync(files.key, key.body as string);
  writeFileSync(files.checkpoints, JSON.stringify(checkpoints.body));
  writeFileSync(files.file, exported.body as string);
  return files;
}

async function verifyOffline(files: { key: string; checkpoints: string; file: string }) {
  const args = ['--file', files.file, '--checkpoints', files.checkpoints, '--public-key', files.key];
  // No DATABASE_URL, no DATA_DIR: the check must not need a database.
  return promisify(execFile)(process.execPath, [join(ROOT, 'backend/dist/verify-log.js'), ...args], {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? '' },
    maxBuffer: 64 * 1024 * 1024,
  }).then(
    ({ stdout, stderr }) => ({ code: 0, answer: JSON.parse(stdout), stderr }),
    (error: { code: number; stdout: string; stderr: string }) => ({
      code: error.code,
      answer: error.stdout ? JSON.parse(error.stdout) : null,
      stderr: error.stderr,
    }),
  );
}

/** As the owner: the append-only triggers let everything through until `restoreTriggers`. */
async function redefineTriggers(): Promise<void> {
  for (const fn of ['events_reject_change', 'audit_seals_reject_change'])
    await owner.query(`CREATE OR REPLACE FUNCTION ${fn}() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN IF TG_OP = 'DELETE' THEN RETURN OLD; END IF; RETURN NEW; END $$`);
}

async function restoreTriggers(): Promise<void> {
  await owner.query(`CREATE OR REPLACE FUNCTION events_reject_change() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN RAISE EXCEPTION 'events are append-only' USING HINT = 'Append a compensating event instead.'; END $$`);
  await owner.query(`CREATE OR REPLACE FUNCTION audit_seals_reject_change() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN RAISE EXCEPTION 'audit seals are append-only'; END $$`);
}

/** Recomputes the chain_hash of every seal from `seq` on from the rows as they are now, as an attacker would. */
async function resealFrom(seq: number): Promise<void> {
  const rows = await sql(
    lab.databaseUrl,
    `SELECT s.seq, ${EVENT_HEAD_SQL} AS head, e.data::text AS data,
            (SELECT chain_hash FROM audit_chain p WHERE p.seq = s.seq - 1) AS previous
       FROM audit_chain s JOIN events e ON e.global_position = s.global_position
      WHERE s.seq >= $1 ORDER BY s.seq`,
    [seq],
  );
  let previous: Buffer = rows[0].previous;
  for (const row of rows) {
    previous = chainHash(previous, eventHash(row.head, sha256Hex(row.data)));
    await owner.query('UPDATE audit_chain SET chain_hash = $2 WHERE seq = $1', [row.seq, previous]);
  }
}

beforeAll(async () => {
  lab = await startTestApp();
  admin = await lab.login('admin');
  owner = new Client({ connectionString: lab.databaseUrl });
  await owner.connect();
  await buildBackend();
}, BUILD_TIMEOUT_MS);

afterAll(async () => {
  jest.restoreAllMocks();
  await owner?.end();
  await lab?.close();
});

describe('keys and checkpoints', () => {
  it('gives the public key to anyone, the PEM of the key generated into DATA_DIR', async () => {
    const answer = await lab.anonymous.get('/audit/public-key');
    expect(answer.status).toBe(200);
    const generated = readFileSync(join(lab.dataDir, 'audit-signing-key.pem'), 'utf8');
    expect(answer.body).toBe(createPublicKey(generated).export({ type: 'spki', format: 'pem' }).toString());
  });

  it('signs a checkpoint every 1,000 seals, and gives them to a Manager only', async () => {
    const backup = (await admin.get('/backup')).body;
    const [template] = backup.cases;
    const cases = Array.from({ length: 1200 }, (_, i) => ({ ...template, id: `CA-2032-${10_000 + i}` }));
    expect(
      (await admin.post('/restore', { users: backup.users, cases: [...backup.cases, ...cases] })).status,
    ).toBe(200);
    const events = await allSealed();
    const rows = await sql(
      lab.databaseUrl,
      'SELECT seq::int, global_position::text AS position FROM audit_checkpoints ORDER BY seq',
    );
    const thousands = rows.map((row) => row.seq).filter((seq) => seq % 1000 === 0);
    expect(thousands).toEqual(Array.from({ length: Math.floor(events / 1000) }, (_, i) => (i + 1) * 1000));

    const answer = await admin.get('/audit/checkpoints?after=0');
    expect(answer.status).toBe(200);
    expect(answer.body.map((checkpoint: { position: string }) => checkpoint.position)).toEqual(
      rows.map((row) => row.position),
    );
    const key = createPublicKey((await lab.anonymous.get('/audit/public-key')).body);
    for (const { signature, ...content } of answer.body) {
      expect(content).toEqual({
        position: expect.stringMatching(/^\d+$/),
        headHash: expect.stringMatching(/^[0-9a-f]{64}$/),
        at: expect.any(String),
      });
      expect(verify(null, checkpointMessage(content), key, Buffer.from(signature, 'base64'))).toBe(true);
    }
    const after = (await admin.get(`/audit/checkpoints?after=${rows[0].position}`)).body;
    expect(after.map((checkpoint: { position: string }) => checkpoint.position)).toEqual(
      rows.filter((row) => BigInt(row.position) > BigInt(rows[0].position)).map((row) => row.position),
    );
    expect((await (await lab.login('rep')).get('/audit/checkpoints')).status).toBe(403);
    expect((await lab.anonymous.get('/audit/checkpoints')).status).toBe(401);
  }, 120_000);

  it('signs a checkpoint of the newest seals once the last one is 10 minutes old', async () => {
    const position = await checkpointAtHead();
    const [last] = (await admin.get(`/audit/checkpoints?after=${BigInt(position) - 1n}`)).body;
    expect(last.position).toBe(position);
    expect(Date.parse(last.at)).toBeGreaterThanOrEqual(Date.now() + clockOffset - 60_000);
  });
});

describe('npm run verify-log -- --file … --checkpoints … --public-key … (offline)', () => {
  it('says an untouched export is intact', async () => {
    await checkpointAtHead();
    const events = await allSealed();
    const result = await verifyOffline(await auditFiles(lab.dataDir));
    expect(result).toMatchObject({
      code: 0,
      answer: { ok: true, events, firstBroken: null, badCheckpoints: [], missing: null },
    });
    expect(result.answer.checkpointsMatched).toBeGreaterThan(1);
    expect((await admin.get('/audit/verify')).body).toMatchObject({ ok: true, events, firstBroken: null });
  });

  it('finds an event the owner rewrote together with its seal and every later seal, at its position', async () => {
    const [{ seq, position }] = await sql(
      lab.databaseUrl,
      `SELECT seq::int, global_position::text AS position FROM audit_chain
        WHERE stream_id LIKE 'case-%' ORDER BY seq LIMIT 1 OFFSET 5`,
    );
    const [original] = await sql(
      lab.databaseUrl,
      'SELECT data::text FROM events WHERE global_position = $1',
      [position],
    );
    await redefineTriggers();
    try {
      await owner.query(
        `UPDATE events SET data = jsonb_set(data, '{rewritten}', 'true') WHERE global_position = $1`,
        [position],
      );
      await resealFrom(seq);
      // Inside the database the chain is whole again: only the signatures tell.
      expect((await admin.get('/audit/verify')).body).toMatchObject({ ok: true });
      const result = await verifyOffline(await auditFiles(lab.dataDir));
      expect(result).toMatchObject({ code: 1, answer: { ok: false, firstBroken: position } });
      expect(result.stderr).toContain(`Broken at position ${position}:`);
    } finally {
      await owner.query('UPDATE events SET data = $2 WHERE global_position = $1', [position, original.data]);
      await resealFrom(seq);
      await restoreTriggers();
    }
    expect((await verifyOffline(await auditFiles(lab.dataDir))).code).toBe(0);
  });

  it('finds an event the owner changed without its seal, and a deleted one, at their positions', async () => {
    const rows = await sql(
      lab.databaseUrl,
      `SELECT global_position::text AS position FROM audit_chain ORDER BY seq LIMIT 2 OFFSET 20`,
    );
    const [changed, deleted] = rows.map((row) => row.position);
    const [original] = await sql(
      lab.databaseUrl,
      `SELECT global_position::text, stream_id, stream_version::text, type, schema_version::text, data::text,
              metadata::text, recorded_at::text, transaction_id::text FROM events WHERE global_position = $1`,
      [deleted],
    );
    await redefineTriggers();
    try {
      await owner.query(
        `UPDATE events SET recorded_at = recorded_at + interval '1 microsecond' WHERE global_position = $1`,
        [changed],
      );
      const files = await auditFiles(lab.dataDir);
      expect(await verifyOffline(files)).toMatchObject({ code: 1, answer: { firstBroken: changed } });
      await owner.query(
        `UPDATE events SET recorded_at = recorded_at - interval '1 microsecond' WHERE global_position = $1`,
        [changed],
      );
      await owner.query('DELETE FROM events WHERE global_position = $1', [deleted]);
      const result = await verifyOffline(await auditFiles(lab.dataDir));
      // The event after the gap is the first that does not follow: its seal names the missing one.
      const [{ next }] = await sql(
        lab.databaseUrl,
        `SELECT global_position::text AS next FROM audit_chain
          WHERE seq = (SELECT seq + 1 FROM audit_chain WHERE global_position = $1)`,
        [deleted],
      );
      expect(result).toMatchObject({ code: 1, answer: { firstBroken: next } });
      expect(result.answer.reason).toMatch(/missing before this event: an event was deleted/);
    } finally {
      const columns = Object.keys(original);
      await owner.query(
        `INSERT INTO events (${columns.join(', ')}) VALUES (${columns.map((_, i) => `$${i + 1}`).join(', ')})`,
        Object.values(original),
      );
      await restoreTriggers();
    }
    expect((await verifyOffline(await auditFiles(lab.dataDir))).code).toBe(0);
  });

  it('names a checkpoint whose signature does not hold', async () => {
    const files = await auditFiles(lab.dataDir);
    const checkpoints = JSON.parse(readFileSync(files.checkpoints, 'utf8'));
    const forged = checkpoints[0];
    forged.at = new Date(Date.parse(forged.at) + 1000).toISOString();
    writeFileSync(files.checkpoints, JSON.stringify(checkpoints));
    const result = await verifyOffline(files);
    expect(result).toMatchObject({ code: 1, answer: { ok: false, badCheckpoints: [forged.position] } });
    expect(result.stderr).toContain(
      `Checkpoint at position ${forged.position}: its signature does not hold.`,
    );
  });

  it('names the range of the newest events deleted after a checkpoint reached them', async () => {
    const newest = await checkpointAtHead();
    await allSealed();
    // The auditor keeps the checkpoints (fetched before the export, as docs/security.md says).
    const kept = (await admin.get('/audit/checkpoints?after=0')).body;
    expect(kept[kept.length - 1].position).toBe(newest);
    const [{ before }] = await sql(
      lab.databaseUrl,
      'SELECT global_position::text AS before FROM audit_chain ORDER BY seq DESC OFFSET 2 LIMIT 1',
    );
    await redefineTriggers();
    try {
      // The newest two events, their seals and the checkpoints on them: the database no longer shows them.
      await owner.query(
        'DELETE FROM audit_checkpoints WHERE seq > (SELECT seq FROM audit_chain WHERE global_position = $1)',
        [before],
      );
      await owner.query(
        'DELETE FROM audit_chain WHERE seq > (SELECT seq FROM audit_chain WHERE global_position = $1)',
        [before],
      );
      await owner.query('DELETE FROM events WHERE global_position > $1', [before]);
    } finally {
      await restoreTriggers();
    }
    const files = await auditFiles(lab.dataDir);
    writeFileSync(files.checkpoints, JSON.stringify(kept));
    const result = await verifyOffline(files);
    expect(result).toMatchObject({
      code: 1,
      answer: { ok: false, missing: { after: before, through: newest } },
    });
    expect(result.stderr).toContain(`Events after position ${before} up to position ${newest} are missing`);
  });
});
