import { Injectable, type OnModuleDestroy } from '@nestjs/common';
import {
  workQueueComparator,
  type Shipment,
  isInWorkQueue,
  queueStatusesOf,
  type Actor,
  type CaseStatus,
  type Priority,
} from '@alignerflow/domain';
import { DataSource } from 'typeorm';
import { CaseListCache, type ListVersion } from '../cases/case-list-cache.js';
import { LogListener } from '../event-store/log-listener.js';
import { MaterialsStore } from '../materials-store/materials.store.js';
import { CASE_SUMMARY_SQL } from '../cases/projections/case-view.projection.js';

const SHIPPED = {} as Shipment;

/** What the queue rule and order read of a case, and the case's summary as JSON text. */
interface QueueRow {
  id: string;
  status: CaseStatus;
  on_hold: boolean;
  delivery_date: string | null;
  priority: Priority;
  status_entered_at: string;
  shipped: boolean;
  assignee: string | null;
  summary: string;
}

/**
 * GET /work-queue from the case_view read model. PostgreSQL narrows the rows to the caller's
 * candidates (the statuses the domain's stage ownership gives the role, or the current stage
 * assigned to them); the domain's rule then decides and orders, so there is one copy of each.
 * The summaries stay JSON text from PostgreSQL to the answer (no parse and re-serialise), and a
 * caller's answer is kept, with its ETag, until the next committed event (CaseListCache).
 */
@Injectable()
export class WorkQueueQueries implements OnModuleDestroy {
  private readonly cache: CaseListCache;

  constructor(
    private readonly dataSource: DataSource,
    private readonly materials: MaterialsStore,
    log: LogListener,
  ) {
    this.cache = new CaseListCache(dataSource, log);
  }

  onModuleDestroy(): void {
    this.cache.close();
  }

  /** The caller's queue as GET /work-queue sends it: its ETag, and its JSON serialised once per change. */
  version(actor: Actor): Promise<ListVersion> {
    const scope = `queue:${actor.role}:${actor.username.toLowerCase()}`;
    return this.cache.version(scope, () => this.json(actor));
  }

  /** The queue's JSON text (Case summaries, in queue order). */
  async json(actor: Actor): Promise<string> {
    const { transitDays } = await this.materials.settings();
    const rows: QueueRow[] = await this.dataSource.query(
      `SELECT v.id, v.status, v.on_hold, v.data->>'deliveryDate' AS delivery_date,
              v.data->>'priority' AS priority, v.data->>'statusEnteredAt' AS status_entered_at,
              coalesce(jsonb_array_length(v.data->'shipments'), 0) > 0 AS shipped,
              (SELECT step->>'assignedTo' FROM jsonb_array_elements(v.data->'alignerWorkflow') step
                WHERE step->>'name' = v.status LIMIT 1) AS assignee,
              (${CASE_SUMMARY_SQL})::text AS summary
         FROM case_view v
        WHERE NOT v.deleted AND NOT v.on_hold
          AND (v.status = ANY($1::text[])
               OR v.data->'alignerWorkflow' @> jsonb_build_array(jsonb_build_object('name', v.status, 'assignedTo', $2::text)))`,
      [queueStatusesOf(actor.role), actor.username],
    );
    const queued = rows
      .map((row) => ({
        id: row.id,
        status: row.status,
        onHold: row.on_hold,
        deliveryDate: row.delivery_date,
        priority: row.priority,
        statusEnteredAt: row.status_entered_at,
        // Only whether it shipped matters to the ship-by order.
        shipments: row.shipped ? [SHIPPED] : [],
        // The rule reads only the current stage's step.
        alignerWorkflow:
          row.assignee === null
            ? []
            : [{ name: row.status, assignedTo: row.assignee, completed: false, date: null }],
        summary: row.summary,
      }))
      .filter((item) => isInWorkQueue(item, actor))
      .sort(workQueueComparator(transitDays));
    return `[${queued.map((item) => item.summary).join(',')}]`;
  }
}
