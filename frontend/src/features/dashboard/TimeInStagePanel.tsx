import { CASE_STATUSES } from '@alignerflow/domain';
import type { StageTime } from '@alignerflow/domain';
import { formatHours } from '../../components/format';
import { StatusBadge } from '../../components/StatusBadge';
import { DASHBOARD_TEXTS } from './texts';

/** Where cases wait: per active status, how many and for how long (average and longest). */
export function TimeInStagePanel({ timeInStage }: { timeInStage: Partial<Record<string, StageTime>> }) {
  const rows = CASE_STATUSES.filter((status) => (timeInStage[status]?.count ?? 0) > 0);
  const longest = Math.max(1, ...rows.map((status) => timeInStage[status]?.averageHours ?? 0));
  return (
    <section className="panel" aria-labelledby="time-in-stage">
      <div className="panel__header">
        <h2 id="time-in-stage">{DASHBOARD_TEXTS.timeInStage}</h2>
        <p className="muted small">{DASHBOARD_TEXTS.timeInStageHint}</p>
      </div>
      {rows.length === 0 ? (
        <p className="muted">{DASHBOARD_TEXTS.noActiveCases}</p>
      ) : (
        <div className="table-wrap">
          <table className="table table--compact">
            <thead>
              <tr>
                <th scope="col">{DASHBOARD_TEXTS.stageColumns.status}</th>
                <th scope="col" className="num">
                  {DASHBOARD_TEXTS.stageColumns.count}
                </th>
                <th scope="col">{DASHBOARD_TEXTS.stageColumns.average}</th>
                <th scope="col" className="num">
                  {DASHBOARD_TEXTS.stageColumns.longest}
                </th>
              </tr>
            </thead>
            <tbody>
              {rows.map((status) => {
                const entry = timeInStage[status]!;
                return (
                  <tr key={status}>
                    <td>
                      <StatusBadge status={status} />
                    </td>
                    <td className="num">{entry.count}</td>
                    <td>
                      <span className="meter" aria-hidden="true">
                        <span style={{ width: `${(entry.averageHours / longest) * 100}%` }} />
                      </span>
                      {formatHours(entry.averageHours)}
                    </td>
                    <td className="num">{formatHours(entry.maxHours)}</td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
