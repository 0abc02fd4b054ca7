import { DataSource } from 'typeorm';
import { AuditSealer } from '../backend/src/audit/audit-sealer';
import { AUDIT_KEY } from '../backend/src/audit/signing-key';
import { Clock } from '../backend/src/common/clock';
import { eventually, sql } from './support/helpers';
import type { ApiClient } from './support/http';
import { startTestApp, type TestApp } from './support/test-app';

/**
 * The sealer under faults (backend/src/audit/README.md): its leader keeps the chain's head in
 * memory while it holds the lock, so a leader that loses its session mid-batch, or leads again
 * after another process sealed, must read the head again; nothing is lost or sealed twice.
 */
/** The contract's bound between an event's commit and its seal. */
const SEAL_BOUND_MS = 5000;

let lab: TestApp;
let admin: ApiClient;

async function allSealed(timeoutMs = 30_000): Promise<void> {
  await eventually(
    async () => {
      const [row] = await sql(
        lab.databaseUrl,
        `SELECT (SELECT count(*)::int FROM events) AS events, (SELECT count(*)::int FROM audit_chain) AS seals`,
      );
      return row.events === row.seals;
    },
    timeoutMs,
    'every event to be sealed',
  );
}

async function verify() {
  const answer = await admin.get('/audit/verify');
  expect(answer.status).toBe(200);
  return answer.body;
}

beforeAll(async () => {
  lab = await startTestApp();
  admin = await lab.login('admin');
});

afterAll(async () => {
  await lab?.close();
});

describe('sealing across faults', () => {
  it('a leader whose connection dies mid-batch, and that leads again after another sealed, seals everything once', async () => {
    const sealer = lab.app.get(AuditSealer);
    await eventually(() => sealer.isLeader, 5000, 'the sealer to lead');
    // A second process's sealer, eager to take over.
    const other = new AuditSealer(lab.app.get(DataSource), lab.app.get(AUDIT_KEY), lab.app.get(Clock));
    other.start({ followerPollMs: 20, idlePollMs: 50 });
    const [item] = (await admin.get('/cases')).body;
    const kills: number[] = [];
    try {
      for (let round = 0; round < 4; round++) {
        for (let note = 0; note < 10; note++) {
          const answer = await admin.post(`/cases/${item.id}/notes`, {
            text: `Round ${round}, note ${note}.`,
          });
          expect(answer.status).toBeLessThan(300);
          // Halfway through the round's notes, the session of whichever process leads ends.
          const pid = note === 5 ? (sealer.leaderPid ?? other.leaderPid) : undefined;
          if (pid !== undefined) {
            kills.push(pid);
            await sql(lab.databaseUrl, 'SELECT pg_terminate_backend($1)', [pid]);
          }
        }
      }
      expect(kills.length).toBeGreaterThan(0);
      await allSealed(30_000);
    } finally {
      await other.stop();
    }
    const [{ seals, distinct }] = await sql(
      lab.databaseUrl,
      `SELECT count(*)::int AS seals, count(DISTINCT global_position)::int AS distinct FROM audit_chain`,
    );
    expect(seals).toBe(distinct);
    expect(await verify()).toMatchObject({ ok: true, firstBroken: null });
    // The process's own sealer leads again and carries on from the other's seals.
    await eventually(() => sealer.isLeader, 10_000, 'the first sealer to lead again');
    await admin.post(`/cases/${item.id}/notes`, { text: 'After the faults.' });
    await allSealed(SEAL_BOUND_MS);
    expect(await verify()).toMatchObject({ ok: true, firstBroken: null });
  }, 120_000);
});
