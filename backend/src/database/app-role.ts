import { Client } from 'pg';

/** Arbitrary but fixed, like the migrations' lock. */
const GRANT_LOCK_ID = '7240913350164081046';

/** The tables whose rows are history: the app role may read them and add to them, nothing else. */
export const APPEND_ONLY_TABLES = ['events', 'audit_chain', 'audit_checkpoints', 'audit_seals'];
/**
 * The read models a rebuild replaces by renaming a shadow copy into place (rebuild/README.md):
 * renaming needs ownership, so the app role owns them.
 */
export const REBUILT_TABLES = [
  'case_view',
  'case_notes',
  'user_view',
  'case_ids',
  'report_cases',
  'report_stage_intervals',
];

/**
 * With two roles (DATABASE_OWNER_URL, or the embedded database), gives the app's role what it
 * needs and no more, as the owner, after the migrations: read and append the history, but not
 * update, delete or truncate it, nor alter its tables, triggers or functions (it owns none of
 * them); full use of every other table. Run at every start, so the tables of later migrations are
 * covered. Nothing when both URLs are one role.
 */
export async function grantAppRole(ownerUrl: string, appUrl: string, log: (msg: string) => void = () => {}) {
  if (ownerUrl === appUrl) return;
  const app = await roleOf(appUrl);
  const owner = new Client({ connectionString: ownerUrl });
  owner.on('error', (err) => log(`owner connection error: ${err.message}`));
  await owner.connect();
  try {
    const { rows } = await owner.query<{ owner: string }>('SELECT current_user AS owner');
    if (rows[0].owner === app) return;
    const role = quoteIdent(app);
    await owner.query('BEGIN');
    // Processes starting together would otherwise collide on the catalog rows GRANT rewrites.
    await owner.query('SELECT pg_advisory_xact_lock($1)', [GRANT_LOCK_ID]);
    // Other roles (PUBLIC) create nothing in the schema; the app only its rebuild's shadow tables.
    await owner.query('REVOKE CREATE ON SCHEMA public FROM PUBLIC');
    await owner.query(`GRANT USAGE, CREATE ON SCHEMA public TO ${role}`);
    await owner.query(
      `GRANT SELECT, INSERT, UPDATE, DELETE, TRUNCATE ON ALL TABLES IN SCHEMA public TO ${role}`,
    );
    await owner.query(`GRANT USAGE, SELECT, UPDATE ON ALL SEQUENCES IN SCHEMA public TO ${role}`);
    const history = APPEND_ONLY_TABLES;
    await owner.query(`REVOKE ALL ON ${history.join(', ')}, schema_migrations FROM ${role}`);
    await owner.query(`GRANT SELECT, INSERT ON ${history.join(', ')} TO ${role}`);
    await owner.query(`GRANT SELECT ON schema_migrations TO ${role}`);
    const { rows: rebuilt } = await owner.query<{ name: string }>(
      `SELECT c.relname AS name FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
        WHERE n.nspname = 'public' AND c.relkind = 'r' AND c.relname = ANY($1)
          AND pg_get_userbyid(c.relowner) <> $2`,
      [REBUILT_TABLES, app],
    );
    if (rebuilt.length) {
      // The owner keeps the right to migrate them (membership in the app role).
      await owner.query('SAVEPOINT membership');
      await owner
        .query(`GRANT ${role} TO CURRENT_USER`)
        .catch(() => owner.query('ROLLBACK TO SAVEPOINT membership'));
      for (const { name } of rebuilt) await owner.query(`ALTER TABLE ${quoteIdent(name)} OWNER TO ${role}`);
    }
    await owner.query('COMMIT');
    log(`database role ${app} may append to the history but not change it`);
  } catch (error) {
    await owner.query('ROLLBACK').catch(() => undefined);
    throw new Error(`Setting the app role's rights failed: ${(error as Error).message}`, { cause: error });
  } finally {
    await owner.end().catch(() => undefined);
  }
}

async function roleOf(url: string): Promise<string> {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query<{ role: string }>('SELECT current_user AS role');
    return rows[0].role;
  } finally {
    await client.end().catch(() => undefined);
  }
}

function quoteIdent(name: string): string {
  return `"${name.replace(/"/g, '""')}"`;
}
