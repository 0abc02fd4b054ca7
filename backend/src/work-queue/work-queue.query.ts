import { Injectable } from '@nestjs/common';
import { queueStatusesOf, workQueueOf, type Actor, type CaseSummary } from '@alignerflow/domain';
import { DataSource } from 'typeorm';
import { CASE_SUMMARY_SQL } from '../cases/projections/case-view.projection.js';

/**
 * GET /work-queue from the case_view read model. PostgreSQL narrows the rows to the caller's
 * candidates (the statuses the domain's stage ownership gives the role, or the current stage
 * assigned to them); the domain rule then decides and orders, so there is one copy of the rule.
 */
@Injectable()
export class WorkQueueQuery {
  constructor(private readonly dataSource: DataSource) {}

  async forActor(actor: Actor): Promise<CaseSummary[]> {
    const rows: { item: CaseSummary }[] = await this.dataSource.query(
      `SELECT ${CASE_SUMMARY_SQL} AS item
         FROM case_view v
        WHERE NOT v.deleted AND NOT v.on_hold
          AND (v.status = ANY($1::text[])
               OR v.data->'alignerWorkflow' @> jsonb_build_array(jsonb_build_object('name', v.status, 'assignedTo', $2::text)))`,
      [queueStatusesOf(actor.role), actor.username],
    );
    return workQueueOf(
      rows.map((row) => row.item),
      actor,
    );
  }
}
