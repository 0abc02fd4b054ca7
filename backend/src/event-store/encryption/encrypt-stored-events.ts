import { DataSource } from 'typeorm';
import { CaseKeys } from './case-keys.js';
import { sealEvent } from './case-event-cipher.js';
import { loadMasterKey } from './master-key.js';
import { caseOfStream, SEALED_FIELDS } from './sealed-fields.js';

export const ENCRYPT_EVENTS_STEP = 'encrypt-case-events-v1';
/** Not the migrations' lock: this step runs after they released theirs. */
const STEP_LOCK_ID = '7240913350164081042';
const BATCH = 1000;

/**
 * Encrypts, once, the patient data of case events stored in plaintext by versions before
 * per-case encryption (sealed-fields.ts says which fields). Runs where the migrations run, with
 * their role, after them and before the app serves or seals anything: it rewrites stored rows,
 * which the `events` trigger otherwise refuses (disabled for each batch's transaction alone).
 * Recorded in `data_steps`, so later starts skip it; a run stopped halfway resumes, as values
 * already sealed are left as they are.
 */
export async function encryptStoredEvents(
  databaseUrl: string,
  masterKeyFile: string,
  log: (message: string) => void = () => undefined,
): Promise<number> {
  const dataSource = await new DataSource({ type: 'postgres', url: databaseUrl, poolSize: 2 }).initialize();
  try {
    const lock = await dataSource.createQueryRunner();
    await lock.connect();
    try {
      await lock.query('SELECT pg_advisory_lock($1)', [STEP_LOCK_ID]);
      const [done] = await lock.query('SELECT 1 FROM data_steps WHERE name = $1', [ENCRYPT_EVENTS_STEP]);
      if (done) return 0;
      const keys = new CaseKeys(dataSource, loadMasterKey(masterKeyFile));
      let [after, changed] = ['0', 0];
      for (;;) {
        const rows: { position: string; stream_id: string; type: string; data: unknown }[] = await lock.query(
          `SELECT global_position::text AS position, stream_id, type, data FROM events
            WHERE stream_id LIKE 'case-%' AND type = ANY($1::text[]) AND global_position > $2::bigint
            ORDER BY global_position LIMIT ${BATCH}`,
          [Object.keys(SEALED_FIELDS), after],
        );
        if (!rows.length) break;
        after = rows[rows.length - 1].position;
        const caseKeys = await keys.keysFor(rows.map((row) => caseOfStream(row.stream_id)!));
        const updates = rows.flatMap((row) => {
          const caseId = caseOfStream(row.stream_id)!;
          const sealed = sealEvent({ type: row.type, data: row.data }, caseId, caseKeys.get(caseId)!);
          return sealed.data === row.data
            ? []
            : [{ position: row.position, data: JSON.stringify(sealed.data) }];
        });
        if (!updates.length) continue;
        await lock.startTransaction();
        try {
          await lock.query('ALTER TABLE events DISABLE TRIGGER events_no_update_or_delete');
          // The documents as one text of JSON lines (JSON.stringify writes no raw newline): node-pg
          // would quote every '"' of each one in a text[] parameter.
          await lock.query(
            `UPDATE events e SET data = u.data::jsonb
               FROM unnest($1::bigint[], string_to_array($2::text, E'\\n')) AS u(position, data)
              WHERE e.global_position = u.position`,
            [updates.map((update) => update.position), updates.map((update) => update.data).join('\n')],
          );
          await lock.query('ALTER TABLE events ENABLE TRIGGER events_no_update_or_delete');
          await lock.commitTransaction();
        } catch (error) {
          await lock.rollbackTransaction();
          throw error;
        }
        changed += updates.length;
      }
      await lock.query('INSERT INTO data_steps (name, detail) VALUES ($1, $2)', [
        ENCRYPT_EVENTS_STEP,
        JSON.stringify({ events: changed }),
      ]);
      if (changed) log(`encrypted the patient data of ${changed} stored case events`);
      return changed;
    } finally {
      await lock.query('SELECT pg_advisory_unlock($1)', [STEP_LOCK_ID]).catch(() => undefined);
      await lock.release();
    }
  } finally {
    await dataSource.destroy();
  }
}
