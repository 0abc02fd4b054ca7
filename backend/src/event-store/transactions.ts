import type { DataSource, QueryRunner } from 'typeorm';

/** Runs `fn` in a transaction on a dedicated connection: committed if it resolves, rolled back if it throws. */
export async function withTransaction<T>(
  dataSource: DataSource,
  fn: (queryRunner: QueryRunner) => Promise<T>,
): Promise<T> {
  const queryRunner = dataSource.createQueryRunner();
  await queryRunner.connect();
  try {
    await queryRunner.startTransaction();
    try {
      const result = await fn(queryRunner);
      await queryRunner.commitTransaction();
      return result;
    } catch (err) {
      // Keep the original error: a failed rollback (e.g. the connection died) says nothing new.
      if (queryRunner.isTransactionActive) await queryRunner.rollbackTransaction().catch(() => undefined);
      throw err;
    }
  } finally {
    await queryRunner.release();
  }
}

/**
 * Queues the writers of one stream for the rest of the transaction. Optimistic concurrency alone
 * stays correct, but twenty writers racing for one case would make some lose round after round;
 * waiting in line costs one round trip and no retries. Writers of other streams are not affected.
 */
export async function lockStream(queryRunner: QueryRunner, streamId: string): Promise<void> {
  await queryRunner.query('SELECT pg_advisory_xact_lock(hashtextextended($1, 0))', [streamId]);
}
