import { DataSource } from 'typeorm';
import { createTestDatabase } from './database';

/** A file's own database and its pool, as `useTestDataSource` answers them. */
export interface FileDataSource {
  /** The database's URL; read it inside tests and hooks. */
  readonly url: string;
  /** A pool on the database; read it inside tests and hooks. */
  readonly dataSource: DataSource;
}

/**
 * Registers the hooks that give the file a fresh, migrated database of its own and a pool of
 * `poolSize` connections on it (before the file's own `beforeAll`s that come after this call),
 * and close the pool and drop the database after its tests. For code tested without an app.
 */
export function useTestDataSource(poolSize = 2): FileDataSource {
  let database: { url: string; drop: () => Promise<void> } | undefined;
  let dataSource: DataSource | undefined;
  const ready = <T>(value: T | undefined): T => {
    if (value === undefined)
      throw new Error('The test database is not ready: use it inside a test or a hook.');
    return value;
  };
  beforeAll(async () => {
    database = await createTestDatabase();
    dataSource = await new DataSource({ type: 'postgres', url: database.url, poolSize }).initialize();
  });
  afterAll(async () => {
    await dataSource?.destroy();
    await database?.drop();
  });
  return {
    get url() {
      return ready(database).url;
    },
    get dataSource() {
      return ready(dataSource);
    },
  };
}
