import { Injectable } from '@nestjs/common';
import type { Case } from '@alignerflow/domain';
import type { QueryRunner } from 'typeorm';

/** The row of one case: the Case minus `deleted`, which has a column of its own. */
export interface CaseViewRow {
  data: Omit<Case, 'deleted'>;
  version: number;
  deleted: boolean;
}

/**
 * The case list/detail read model. Commands apply it in their own transaction (or statement), so
 * a command's answer and every later read already show the change; a rebuild replays the same
 * function. The row also serves commands as the case's snapshot: the folded state and its version.
 */
@Injectable()
export class CaseViewProjection {
  async apply(state: Case, lastPosition: string, runner: QueryRunner, table = 'case_view'): Promise<void> {
    const params: unknown[] = [];
    const param = (value: unknown) => `$${params.push(value)}`;
    await runner.query(
      this.upsertSql(state, { param, lastPosition: param(lastPosition), when: 'true' }, table),
      params,
    );
  }

  /**
   * The upsert of `state` as SQL, for a statement that also does other work (the event store's
   * append). `when` is an SQL condition: the row is written only if it holds.
   */
  upsertSql(
    state: Case,
    sql: { param: (value: unknown) => string; lastPosition: string; when: string },
    table = 'case_view',
  ): string {
    const { deleted = false, ...data } = state;
    const p = sql.param;
    return `INSERT INTO ${table} (id, data, status, assigned_doctor, on_hold, delivery_date, status_entered_at,
                             created_date, version, deleted, last_position)
       SELECT ${p(state.id)}, ${p(JSON.stringify(data))}::jsonb, ${p(state.status)}, ${p(state.assignedDoctorUsername?.toLowerCase() ?? null)},
              ${p(state.onHold)}::boolean, ${p(state.deliveryDate)}::date, ${p(state.statusEnteredAt)}::timestamptz,
              ${p(state.createdDate)}::timestamptz, ${p(state.version)}::int, ${p(deleted)}::boolean, ${sql.lastPosition}::bigint
        WHERE ${sql.when}
       ON CONFLICT (id) DO UPDATE SET data = excluded.data, status = excluded.status,
         assigned_doctor = excluded.assigned_doctor, on_hold = excluded.on_hold,
         delivery_date = excluded.delivery_date, status_entered_at = excluded.status_entered_at,
         created_date = excluded.created_date, version = excluded.version, deleted = excluded.deleted,
         last_position = excluded.last_position`;
  }

  /** The case as its row holds it (the same state folding its stream gives), or null if none. */
  static toCase(row: CaseViewRow): Case {
    const state = { ...row.data, version: row.version } as Case;
    if (row.deleted) state.deleted = true;
    return state;
  }
}
