import { Injectable } from '@nestjs/common';
import type { RecallRow } from '@alignerflow/domain';
import { DataSource } from 'typeorm';

/**
 * A supplier recall: every case and stage a lot went into, in one query over case_view (the
 * stage records live in the case document; migration 035 indexes them for this containment).
 */
@Injectable()
export class RecallQuery {
  constructor(private readonly dataSource: DataSource) {}

  casesOf(lotNumber: string): Promise<RecallRow[]> {
    return this.dataSource.query(
      `SELECT v.id AS "caseId", v.data->>'assignedDoctorUsername' AS "doctorUsername",
              v.data->>'clinicName' AS "clinicName", v.status, r->>'status' AS stage,
              r->>'completedAt' AS "usedAt"
         FROM case_view v
        CROSS JOIN LATERAL jsonb_array_elements(v.data->'stageRecords') r
        WHERE NOT v.deleted
          AND v.data->'stageRecords' @> jsonb_build_array(jsonb_build_object('lots', jsonb_build_array($1::text)))
          AND r->'lots' ? $1
        ORDER BY r->>'completedAt', v.id`,
      [lotNumber],
    );
  }
}
