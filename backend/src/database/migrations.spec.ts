import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Client } from 'pg';
import { createTestDatabase } from '../../../test/support/database.js';
import { migrationsDir, runMigrations } from './migrations.js';

async function query<T>(url: string, sql: string): Promise<T[]> {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query(sql)).rows as T[];
  } finally {
    await client.end();
  }
}

describe('runMigrations', () => {
  const databases: { url: string; drop: () => Promise<void> }[] = [];
  const freshDatabase = async (): Promise<string> => {
    // createTestDatabase migrates; an empty MIGRATIONS_DIR leaves the database bare.
    const emptyDir = await mkdtemp(path.join(os.tmpdir(), 'af-migrations-'));
    process.env.MIGRATIONS_DIR = emptyDir;
    try {
      const database = await createTestDatabase();
      databases.push(database);
      return database.url;
    } finally {
      delete process.env.MIGRATIONS_DIR;
      await rm(emptyDir, { recursive: true });
    }
  };

  afterEach(() => {
    delete process.env.MIGRATIONS_DIR;
  });

  afterAll(async () => {
    for (const database of databases) await database.drop();
  });

  it('finds the repository migrations and applies each once, even when run concurrently', async () => {
    const url = await freshDatabase();
    const files = (await readdir(migrationsDir())).filter((name) => name.endsWith('.sql')).sort();
    expect(files).toContain('001_event_store.sql');

    const runs = await Promise.all([runMigrations(url), runMigrations(url), runMigrations(url)]);
    expect(runs.flat().sort()).toEqual(files);
    expect(await runMigrations(url)).toEqual([]);
    const applied = await query<{ name: string }>(url, 'SELECT name FROM schema_migrations ORDER BY name');
    expect(applied.map((row) => row.name)).toEqual(files);
  });

  it('keeps the files before a failing one and rolls the failing one back entirely', async () => {
    const url = await freshDatabase();
    const dir = await mkdtemp(path.join(os.tmpdir(), 'af-migrations-'));
    try {
      await writeFile(path.join(dir, '001_a.sql'), 'CREATE TABLE a (id int);');
      await writeFile(path.join(dir, '002_b.sql'), 'CREATE TABLE b (id int);\nSELECT no_such_function();');
      await writeFile(path.join(dir, '003_c.sql'), 'CREATE TABLE c (id int);');
      await expect(runMigrations(url, undefined, dir)).rejects.toThrow(
        /Migration 002_b\.sql failed: .*no_such_function/,
      );
      const tables = await query<{ name: string }>(
        url,
        `SELECT table_name AS name FROM information_schema.tables WHERE table_name IN ('a', 'b', 'c')`,
      );
      expect(tables.map((t) => t.name)).toEqual(['a']);
      const applied = await query<{ name: string }>(url, 'SELECT name FROM schema_migrations');
      expect(applied.map((row) => row.name)).toEqual(['001_a.sql']);

      await writeFile(path.join(dir, '002_b.sql'), 'CREATE TABLE b (id int);');
      expect(await runMigrations(url, undefined, dir)).toEqual(['002_b.sql', '003_c.sql']);
    } finally {
      await rm(dir, { recursive: true });
    }
  });
});
