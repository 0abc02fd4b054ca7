import { caseIdSuffixRange, formatCaseId, pickCaseIdSuffix } from '@alignerflow/domain';
import type { DataSource, QueryRunner } from 'typeorm';
import { DomainRejection } from '../../common/domain-rejection.js';

const UNIQUE_VIOLATION = '23505';

/** A fresh random id CA-{year}-{suffix}, to be reserved with the events that create its case. */
export interface FreshCaseId {
  id: string;
  reserve: (runner: QueryRunner) => Promise<void>;
}

/**
 * Picks an id no case has taken. The pick is only a guess until `reserve` inserts it into
 * case_ids in the creating transaction: two creations racing for one id cannot both win, and no
 * id is ever reused.
 */
export async function freshCaseId(dataSource: DataSource): Promise<FreshCaseId> {
  const year = new Date().getFullYear();
  const rows: { suffix: number }[] = await dataSource.query('SELECT suffix FROM case_ids WHERE year = $1', [
    year,
  ]);
  const taken = new Set(rows.map((row) => row.suffix));
  for (let count = taken.size; ;) {
    const range = caseIdSuffixRange(count);
    const suffix = pickCaseIdSuffix(range, taken);
    if (suffix !== undefined) {
      const id = formatCaseId(year, suffix);
      return {
        id,
        reserve: async (runner) => {
          await runner.query('INSERT INTO case_ids (id, year, suffix) VALUES ($1, $2, $3)', [
            id,
            year,
            suffix,
          ]);
        },
      };
    }
    // The range is full (ids reserved by an import, say): move on to the next width.
    count = range.max - 100 + 1;
  }
}

/**
 * Another creation took the id first: either its reservation is still uncommitted (the unique
 * key on case_ids) or it is committed and the stream exists (the domain's conflict). Ids are the
 * server's choice, so either way the answer is to pick another.
 */
export function isIdCollision(error: unknown): boolean {
  return (error instanceof DomainRejection && error.getStatus() === 409) || isReservationTaken(error);
}

/** The id's reservation lost to another creation's (the unique key on case_ids). */
export function isReservationTaken(error: unknown): boolean {
  return (error as { driverError?: { code?: string } }).driverError?.code === UNIQUE_VIOLATION;
}
