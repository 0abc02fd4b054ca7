import { Injectable } from '@nestjs/common';
import type { Case } from '@alignerflow/domain';
import type { QueryRunner } from 'typeorm';

/**
 * The case list/detail read model. Commands apply it in their own transaction, so a command's
 * answer and every later read already show the change; a rebuild replays the same function.
 */
@Injectable()
export class CaseViewProjection {
  async apply(state: Case, lastPosition: string, runner: QueryRunner, table = 'case_view'): Promise<void> {
    const { deleted = false, ...data } = state;
    await runner.query(
      `INSERT INTO ${table} (id, data, status, assigned_doctor, on_hold, delivery_date, status_entered_at,
                             created_date, version, deleted, last_position)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)
       ON CONFLICT (id) DO UPDATE SET data = $2, status = $3, assigned_doctor = $4, on_hold = $5,
         delivery_date = $6, status_entered_at = $7, created_date = $8, version = $9, deleted = $10, last_position = $11`,
      [
        state.id,
        JSON.stringify(data),
        state.status,
        state.assignedDoctorUsername?.toLowerCase() ?? null,
        state.onHold,
        state.deliveryDate,
        state.statusEnteredAt,
        state.createdDate,
        state.version,
        deleted,
        lastPosition,
      ],
    );
  }
}
