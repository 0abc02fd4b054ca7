import { createHash } from 'node:crypto';

/**
 * The hash chain both sealed logs share: the events' seals (audit/) and the access log's entries
 * (access-log/). Each link is computed from the previous one, so a changed, deleted or inserted
 * row breaks every link after it.
 */

/** The chain_hash before the first link: 32 zero bytes. */
export const GENESIS = Buffer.alloc(32);

/** chain_hash = sha256(previous chain_hash || the row's hash). */
export function chainHash(previous: Buffer, rowHash: Buffer): Buffer {
  return createHash('sha256').update(previous).update(rowHash).digest();
}

/** What a chain's verifier needs of a database: TypeORM's DataSource (a pool) fits. */
export interface Queryable {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  query(sql: string, params?: unknown[]): Promise<any[]>;
}
