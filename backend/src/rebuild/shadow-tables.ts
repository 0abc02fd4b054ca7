/** The catalog reads a rebuild needs to swap its shadow tables in: their shape, indexes and triggers. */
import type { DataSource, QueryRunner } from 'typeorm';
import type { ReadModelTables } from './read-model-rows.js';

/** Every table projected from the events; a rebuild replaces all of them at once. */
export const READ_MODEL_TABLES = [
  'case_view',
  'case_notes',
  'user_view',
  'case_ids',
  'report_cases',
  'report_stage_intervals',
] as const;

/**
 * Whether the server can compress TOASTed values with lz4 (PostgreSQL 14+ built with it): a
 * rebuild's writes compress the large case documents with it, faster than the default pglz.
 */
export async function lz4Available(db: DataSource): Promise<boolean> {
  const [row] = await db.query(
    "SELECT 'lz4' = ANY(enumvals) AS lz4 FROM pg_settings WHERE name = 'default_toast_compression'",
  );
  return row?.lz4 === true;
}

export const SHADOW: ReadModelTables = {
  caseView: 'case_view_rebuild',
  caseNotes: 'case_notes_rebuild',
  userView: 'user_view_rebuild',
  caseIds: 'case_ids_rebuild',
  reportCases: 'report_cases_rebuild',
  reportStages: 'report_stage_intervals_rebuild',
};

export const shadowOf = (table: string) => `${table}_rebuild`;

export interface IndexDefinition {
  name: string;
  /** The definition without its own name and table: equal for a table and its LIKE copy. */
  shape: string;
}

/** Columns and indexes of a table, without its name: equal for a table and its LIKE copy. */
export async function shape(dataSource: DataSource, table: string): Promise<string | null> {
  const [row] = await dataSource.query(
    `SELECT (SELECT string_agg(a.attname || ' ' || format_type(a.atttypid, a.atttypmod) || CASE WHEN a.attnotnull THEN ' not null' ELSE '' END, ', ' ORDER BY a.attnum)
               FROM pg_attribute a WHERE a.attrelid = c.oid AND a.attnum > 0 AND NOT a.attisdropped) AS columns,
            (SELECT string_agg(d, ', ' ORDER BY d) FROM (
               SELECT regexp_replace(pg_get_indexdef(i.indexrelid), '^CREATE (UNIQUE )?INDEX \\S+ ON \\S+ ', '\\1') AS d
                 FROM pg_index i WHERE i.indrelid = c.oid) s) AS indexes
       FROM pg_class c WHERE c.oid = to_regclass($1)`,
    [table],
  );
  return row ? `${row.columns} | ${row.indexes}` : null;
}

export async function indexDefinitions(runner: QueryRunner, table: string): Promise<IndexDefinition[]> {
  const rows: { name: string; definition: string }[] = await runner.query(
    `SELECT c.relname AS name, pg_get_indexdef(c.oid) AS definition
       FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid
      WHERE i.indrelid = to_regclass($1) ORDER BY c.relname`,
    [table],
  );
  return rows.map(({ name, definition }) => ({
    name,
    shape: definition.replace(/^CREATE (UNIQUE )?INDEX \S+ ON \S+ /, '$1'),
  }));
}

/** The copied indexes got names from the shadow table; give them the names the live ones had. */
export async function restoreIndexNames(
  runner: QueryRunner,
  table: string,
  wanted: IndexDefinition[],
): Promise<void> {
  const current = await indexDefinitions(runner, table);
  for (const { name, shape } of wanted) {
    const index = current.findIndex((candidate) => candidate.shape === shape);
    if (index < 0) continue;
    const [match] = current.splice(index, 1);
    if (match.name !== name) await runner.query(`ALTER INDEX "${match.name}" RENAME TO "${name}"`);
  }
}

/** LIKE … INCLUDING ALL copies no triggers: they are recreated on the new table. */
export async function triggerDefinitions(runner: QueryRunner, table: string): Promise<string[]> {
  const rows: { definition: string }[] = await runner.query(
    `SELECT pg_get_triggerdef(oid) AS definition FROM pg_trigger
      WHERE tgrelid = to_regclass($1) AND NOT tgisinternal ORDER BY tgname`,
    [table],
  );
  return rows.map((row) => row.definition);
}

/** lock_not_available (our lock_timeout) or deadlock_detected: the swap is tried again. */
export function isLockConflict(error: unknown): boolean {
  const code =
    (error as { driverError?: { code?: string } }).driverError?.code ?? (error as { code?: string }).code;
  return code === '55P03' || code === '40P01';
}

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/**
 * Statistics for the shadow tables, which are looked up by key and become the live tables.
 * Documents (jsonb) are left out: reading them all back costs seconds and no query filters on
 * them; autovacuum analyzes the whole tables later.
 */
export async function analyzeShadowTables(dataSource: DataSource): Promise<void> {
  // LIKE … INCLUDING ALL copies no storage parameters: the live tables' (case_view's fillfactor,
  // the room its HOT updates need, migrations/045) hold for the pages written from now on.
  const options: { name: string; options: string }[] = await dataSource.query(
    `SELECT t AS name, array_to_string(c.reloptions, ', ') AS options
       FROM unnest($1::text[]) AS t JOIN pg_class c ON c.oid = to_regclass(t)
      WHERE c.reloptions IS NOT NULL`,
    [[...READ_MODEL_TABLES]],
  );
  for (const { name, options: set } of options)
    await dataSource.query(`ALTER TABLE ${shadowOf(name)} SET (${set})`);
  const rows: { name: string; columns: string[] }[] = await dataSource.query(
    `SELECT c.relname AS name, array_agg(quote_ident(a.attname) ORDER BY a.attnum) AS columns
       FROM pg_class c JOIN pg_attribute a ON a.attrelid = c.oid
      WHERE c.oid = ANY(SELECT to_regclass(t) FROM unnest($1::text[]) AS t)
        AND a.attnum > 0 AND NOT a.attisdropped AND a.atttypid <> 'jsonb'::regtype
      GROUP BY c.relname`,
    [READ_MODEL_TABLES.map(shadowOf)],
  );
  await dataSource.query(
    `ANALYZE ${rows.map((row) => `${row.name} (${row.columns.join(', ')})`).join(', ')}`,
  );
}
