import { Injectable, type OnModuleDestroy } from '@nestjs/common';
import {
  ALL_CASE_STATUSES,
  canSeeCase,
  caseStreamId,
  isActiveStatus,
  STATUS_LABELS,
  type Actor,
  type Case,
  type CaseStatus,
  type CaseHistoryEntry,
  type DashboardFigures,
  type StageTime,
  type CaseSummary,
  SYSTEM_ACTOR,
} from '@alignerflow/domain';
import { DataSource } from 'typeorm';
import { EventStore } from '../event-store/event-store.js';
import { MaterialsStore } from '../materials-store/materials.store.js';
import { LogListener } from '../event-store/log-listener.js';
import { CaseListCache, type ListVersion } from './case-list-cache.js';
import { CASE_SUMMARY_SQL, WHOLE_CASE_SQL } from './projections/case-view.projection.js';

/** SQL: the transit days ($7) a case not yet shipped must leave before its due date (ship-by). */
const SHIP_BY_OFFSET = `CASE WHEN coalesce(jsonb_array_length(data->'shipments'), 0) > 0 THEN 0 ELSE $7::int END`;

/** Every case read comes from the case_view projection; the history from the case's stream. */
@Injectable()
export class CasesQueries implements OnModuleDestroy {
  private readonly listCache: CaseListCache;

  constructor(
    private readonly dataSource: DataSource,
    private readonly store: EventStore,
    private readonly materials: MaterialsStore,
    log: LogListener,
  ) {
    this.listCache = new CaseListCache(dataSource, log);
  }

  onModuleDestroy(): void {
    this.listCache.close();
  }

  private visibleTo(actor: Actor): { where: string; params: unknown[] } {
    return actor.role === 'Doctor'
      ? { where: 'NOT deleted AND assigned_doctor = $1', params: [actor.username.toLowerCase()] }
      : { where: 'NOT deleted', params: [] };
  }

  /** The caller's list as GET /cases sends it: its ETag, and its JSON serialised once per change. */
  listVersion(actor: Actor): Promise<ListVersion> {
    const scope = actor.role === 'Doctor' ? `d:${actor.username.toLowerCase()}` : 'staff';
    return this.listCache.version(scope, () => this.listJson(actor));
  }

  async list(actor: Actor): Promise<CaseSummary[]> {
    return JSON.parse(await this.listJson(actor));
  }

  /**
   * Summaries (a note count, not the notes), so the list does not grow with the cases' notes.
   * The JSON is assembled by PostgreSQL: no parse and re-serialise of every case in Node.
   */
  private async listJson(actor: Actor): Promise<string> {
    const { where, params } = this.visibleTo(actor);
    const [row] = await this.dataSource.query(
      `SELECT coalesce(json_agg(${CASE_SUMMARY_SQL} ORDER BY created_date DESC, id), '[]')::text AS list
         FROM case_view v WHERE ${where}`,
      params,
    );
    return row.list;
  }

  /** The whole case, notes included, if the caller may see it. */
  async findVisible(actor: Actor, id: string): Promise<Case | undefined> {
    const [row]: { found: Case; deleted: boolean }[] = await this.dataSource.query(
      `SELECT ${WHOLE_CASE_SQL} AS found, v.deleted FROM case_view v WHERE v.id = $1`,
      [id],
    );
    if (!row) return undefined;
    return canSeeCase(actor, { ...row.found, deleted: row.deleted }) ? row.found : undefined;
  }

  /** Whether the caller may see the case (its notes left unread). */
  async isVisible(actor: Actor, id: string): Promise<boolean> {
    const [row]: { assigned_doctor: string | null; deleted: boolean }[] = await this.dataSource.query(
      "SELECT data->>'assignedDoctorUsername' AS assigned_doctor, deleted FROM case_view WHERE id = $1",
      [id],
    );
    if (!row) return false;
    return canSeeCase(actor, { assignedDoctorUsername: row.assigned_doctor, deleted: row.deleted });
  }

  async history(id: string): Promise<CaseHistoryEntry[]> {
    const events = await this.store.readStream(caseStreamId(id));
    return events.map((event) => ({
      position: event.position,
      version: event.version,
      type: event.type,
      data: event.data,
      actor: (event.metadata.actor as Actor | null) ?? SYSTEM_ACTOR,
      at: event.recordedAt,
    }));
  }

  /** The Lab Dashboard figures, counted by PostgreSQL over the projection. */
  async dashboard(now = new Date()): Promise<DashboardFigures> {
    const active = `NOT deleted AND status NOT IN ('${STATUS_LABELS.Completed}', '${STATUS_LABELS.Rejected}')`;
    const [figures] = await this.dataSource.query(
      `SELECT
         count(*) FILTER (WHERE ${active})::int AS "totalActive",
         count(*) FILTER (WHERE NOT deleted AND status = $1)::int AS "pendingManagerApproval",
         count(*) FILTER (WHERE NOT deleted AND status = $2)::int AS "awaitingDoctorApproval",
         count(*) FILTER (WHERE ${active} AND delivery_date - ${SHIP_BY_OFFSET} < $4::date)::int AS "overdue",
         count(*) FILTER (WHERE NOT deleted AND status = $3 AND status_entered_at >= $5 AND status_entered_at < $6)::int
           AS "completedToday"
       FROM case_view`,
      [
        STATUS_LABELS.PendingApproval,
        STATUS_LABELS.DoctorApproval,
        STATUS_LABELS.Completed,
        localDate(now),
        ...localDayBounds(now),
        (await this.materials.settings()).transitDays,
      ],
    );
    const perStatus: { status: string; n: number; average_hours: number; max_hours: number }[] =
      await this.dataSource.query(
        `SELECT status, count(*)::int AS n,
                round(avg(extract(epoch FROM ($1::timestamptz - status_entered_at)) / 3600)::numeric, 1)::float AS average_hours,
                round(max(extract(epoch FROM ($1::timestamptz - status_entered_at)) / 3600)::numeric, 1)::float AS max_hours
           FROM case_view WHERE NOT deleted GROUP BY status`,
        [now.toISOString()],
      );
    const byStatus: Record<string, number> = Object.fromEntries(
      ALL_CASE_STATUSES.map((status) => [status, 0]),
    );
    const timeInStage: Record<string, StageTime> = {};
    for (const row of perStatus) {
      byStatus[row.status] = row.n;
      // Where active cases wait: a Completed or Rejected case is not waiting in its status.
      if (isActiveStatus(row.status as CaseStatus))
        timeInStage[row.status] = { count: row.n, averageHours: row.average_hours, maxHours: row.max_hours };
    }
    return { ...figures, byStatus, timeInStage };
  }
}

/** Today in the server's time zone as instants, so PostgreSQL's own time zone setting plays no part. */
function localDayBounds(now: Date): [string, string] {
  const start = new Date(now.getFullYear(), now.getMonth(), now.getDate());
  const end = new Date(now.getFullYear(), now.getMonth(), now.getDate() + 1);
  return [start.toISOString(), end.toISOString()];
}

/** Today's date in the server's time zone ("completed today", "overdue"). */
function localDate(now: Date): string {
  const offset = now.getTimezoneOffset() * 60_000;
  return new Date(now.getTime() - offset).toISOString().slice(0, 10);
}
