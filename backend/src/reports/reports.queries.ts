import { Injectable } from '@nestjs/common';
import {
  REPORT_STAGES,
  weeksOf,
  type GroupFigures,
  type ReportRange,
  type ReportSummary,
} from '@alignerflow/domain';
import { DataSource } from 'typeorm';

/** One row of GET /reports/cases.csv. */
export interface CompletedCaseRow {
  id: string;
  patient: string;
  doctor: string;
  clinic: string;
  created: string;
  due: string | null;
  completed: string;
  onTime: boolean;
  turnaroundDays: number;
  remakes: number;
}

/**
 * SQL: the cases completed in [$1, $2) (instants: the range's first and last day in the server's
 * time zone, $3), with whether each was on time (completed on or before its due day in that time
 * zone; a case without a due date cannot be late), its turnaround in days and its week's Monday.
 */
const DONE = `SELECT id, patient, doctor, clinic, created_at, due_date, completed_at, stage_ms,
         (due_date IS NULL OR local_completed::date <= due_date) AS on_time,
         extract(epoch FROM completed_at - created_at) / 86400 AS turnaround_days,
         date_trunc('week', local_completed)::date AS week
    FROM (SELECT *, completed_at AT TIME ZONE $3 AS local_completed
            FROM report_cases
           WHERE completed_at >= $1::timestamptz AND completed_at < $2::timestamptz
             AND completed_at IS NOT NULL AND NOT deleted) AS completed`;

/**
 * Per status of REPORT_STAGES: the cases that spent time in it, and the mean and 90th percentile
 * of their hours there (report_cases.stage_ms: every visit together). One pass over the completed
 * cases; each percentile sorts only that status's values.
 */
const STAGE_AGGREGATES = REPORT_STAGES.map((_, index) => {
  const ms = `stage_ms[${index + 1}]::float8`;
  return `json_build_array(count(${ms}), avg(${ms}) / 3600000, percentile_cont(0.9) WITHIN GROUP (ORDER BY ${ms}) / 3600000)`;
}).join(',\n    ');

/**
 * The whole summary in one statement (one round trip): totals, time per stage, weeks, doctors,
 * clinics, and the remakes ordered in the range.
 */
export const SUMMARY_SQL = `WITH done AS MATERIALIZED (
    SELECT doctor, clinic, stage_ms, on_time, turnaround_days, week FROM (${DONE}) AS d),
  groups AS (
    SELECT 'doctor' AS kind, doctor AS name, count(*)::int AS completed,
           count(*) FILTER (WHERE on_time)::int AS on_time, avg(turnaround_days)::float AS turnaround
      FROM done GROUP BY doctor
    UNION ALL
    SELECT 'clinic', clinic, count(*)::int, count(*) FILTER (WHERE on_time)::int, avg(turnaround_days)::float
      FROM done GROUP BY clinic)
SELECT
  (SELECT json_build_object('completed', count(*), 'onTime', count(*) FILTER (WHERE on_time),
                            'turnaround', coalesce(avg(turnaround_days), 0)::float,
                            'stages', json_build_array(
    ${STAGE_AGGREGATES}))
     FROM done) AS totals,
  (SELECT coalesce(json_agg(json_build_object('week', week, 'completed', n, 'onTime', on_time)), '[]')
     FROM (SELECT week::text, count(*)::int AS n, count(*) FILTER (WHERE on_time)::int AS on_time
             FROM done GROUP BY week) w) AS weeks,
  (SELECT coalesce(json_agg(json_build_object('kind', kind, 'name', name, 'completed', completed,
                                              'onTime', on_time, 'turnaround', turnaround)), '[]')
     FROM groups) AS groups,
  (SELECT coalesce(json_object_agg(code, n), '{}')
     FROM (SELECT coalesce(origin_reason_code, 'other') AS code, count(*)::int AS n
             FROM report_cases
            WHERE origin_kind = 'remake' AND NOT deleted
              AND created_at >= $1::timestamptz AND created_at < $2::timestamptz
            GROUP BY 1) r) AS remakes`;

interface SummaryRow {
  totals: {
    completed: number;
    onTime: number;
    turnaround: number;
    /** Per REPORT_STAGES status: [cases, average hours, p90 hours] (null averages without cases). */
    stages: [number, number | null, number | null][];
  };
  weeks: { week: string; completed: number; onTime: number }[];
  groups: {
    kind: 'doctor' | 'clinic';
    name: string;
    completed: number;
    onTime: number;
    turnaround: number;
  }[];
  remakes: Record<string, number>;
}

/** Reports over the report_cases and report_stage_intervals read model (see README.md). */
@Injectable()
export class ReportsQueries {
  private timeZone?: Promise<string>;

  constructor(private readonly dataSource: DataSource) {}

  async summary(range: ReportRange): Promise<ReportSummary> {
    const [row]: SummaryRow[] = await this.dataSource.query(SUMMARY_SQL, await this.parameters(range));
    const { completed, onTime, turnaround, stages } = row.totals;
    const weeks = new Map(row.weeks.map((week) => [week.week, week]));
    const group = (kind: 'doctor' | 'clinic'): GroupFigures[] =>
      row.groups
        .filter((entry) => entry.kind === kind)
        .map((entry) => ({
          name: entry.name,
          completed: entry.completed,
          onTime: entry.onTime,
          averageTurnaroundDays: round(entry.turnaround, 2),
        }))
        .sort((a, b) => b.completed - a.completed || a.name.localeCompare(b.name));
    return {
      from: range.from,
      to: range.to,
      completed,
      onTime,
      onTimeRate: completed ? round(onTime / completed, 4) : 0,
      averageTurnaroundDays: round(turnaround, 2),
      // Every stage in the manufacturing order, those no case passed through included, so a chart
      // and a CSV always have the same rows.
      byStage: REPORT_STAGES.map((status, index) => {
        const [cases, average, p90] = stages[index];
        return {
          status,
          cases,
          averageHours: round(average ?? 0, 2),
          p90Hours: round(p90 ?? 0, 2),
        };
      }),
      byWeek: weeksOf(range).map((weekStart) => ({
        weekStart,
        completed: weeks.get(weekStart)?.completed ?? 0,
        onTime: weeks.get(weekStart)?.onTime ?? 0,
      })),
      remakes: {
        total: Object.values(row.remakes).reduce((sum, n) => sum + n, 0),
        byReasonCode: row.remakes,
      },
      byDoctor: group('doctor'),
      byClinic: group('clinic'),
    };
  }

  /** The cases completed in the range, oldest completion first, with their remakes ordered so far. */
  async completedCases(range: ReportRange): Promise<CompletedCaseRow[]> {
    return this.dataSource.query(
      `SELECT d.id, d.patient, d.doctor, d.clinic,
              to_char(d.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS created,
              d.due_date::text AS due,
              to_char(d.completed_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS completed,
              d.on_time AS "onTime", round(d.turnaround_days::numeric, 2)::float AS "turnaroundDays",
              coalesce(r.n, 0)::int AS remakes
         FROM (${DONE}) d
         LEFT JOIN (SELECT origin_case_id, count(*) AS n FROM report_cases
                     WHERE origin_kind = 'remake' AND NOT deleted GROUP BY origin_case_id) r
           ON r.origin_case_id = d.id
        ORDER BY d.completed_at, d.id`,
      await this.parameters(range),
    );
  }

  /** [first instant, instant after the last day, time zone]: the range's days in the server's time zone. */
  async parameters({ from, to }: ReportRange): Promise<[string, string, string]> {
    const start = localMidnight(from);
    const end = localMidnight(to);
    end.setDate(end.getDate() + 1);
    return [start.toISOString(), end.toISOString(), await this.serverTimeZone()];
  }

  /**
   * The time zone days are counted in: the server's, as the dashboard's "completed today".
   * PostgreSQL must know its name; else UTC (and the README says days are then UTC days).
   */
  private serverTimeZone(): Promise<string> {
    this.timeZone ??= (async () => {
      const zone = Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
      try {
        await this.dataSource.query('SELECT now() AT TIME ZONE $1', [zone]);
        return zone;
      } catch {
        return 'UTC';
      }
    })();
    return this.timeZone;
  }
}

function localMidnight(date: string): Date {
  const [year, month, day] = date.split('-').map(Number);
  const midnight = new Date(year, month - 1, day);
  midnight.setFullYear(year); // years below 100 are not 19xx
  return midnight;
}

function round(value: number, digits: number): number {
  const factor = 10 ** digits;
  return Math.round(value * factor) / factor;
}
