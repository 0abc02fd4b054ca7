import { lazy, Suspense, useEffect, useRef, useState, type ReactNode } from 'react';
import {
  DEFAULT_REPORT_WEEKS,
  defaultReportRange,
  parseReportRange,
  REPORT_TEXTS,
  type GroupFigures,
  type ReportRange,
  type ReportSummary,
  type ReportTable,
} from '@alignerflow/domain';
import { useCache } from '../../api/cache';
import { api, ApiError, reportCsvUrl } from '../../api/client';
import { isoDay } from '../../components/format';
import { Icon, type IconName } from '../../components/Icon';
import { StatusBadge } from '../../components/StatusBadge';
import { REPORTS_SCREEN_TEXTS as T } from './texts';

// recharts is loaded with the first chart, not with the app: only managers open this screen.
const WeeksChart = lazy(() => import('./ReportCharts').then((module) => ({ default: module.WeeksChart })));
const StagesChart = lazy(() => import('./ReportCharts').then((module) => ({ default: module.StagesChart })));
const CountChart = lazy(() => import('./ReportCharts').then((module) => ({ default: module.CountChart })));

/** Changes of the case list within this time make one new request. */
const LIVE_REFRESH_MS = 1000;

interface ReportsScreenProps {
  /** Today, for the default range (tests fix it). */
  today?: Date;
}

type Load =
  { state: 'loading' } | { state: 'error'; message: string } | { state: 'done'; summary: ReportSummary };

/** The Manager's Reports: on time, turnaround, where cases wait, remakes, doctors and clinics. */
export function ReportsScreen({ today = new Date() }: ReportsScreenProps) {
  const [initial] = useState(() => defaultReportRange(isoDay(today)));
  const [from, setFrom] = useState(initial.from);
  const [to, setTo] = useState(initial.to);
  const parsed = parseReportRange(from, to);
  const range: ReportRange | null = 'range' in parsed ? parsed.range : null;
  const [load, setLoad] = useState<Load>({ state: 'loading' });
  const key = range ? `${range.from}/${range.to}` : null;
  // The live stream keeps the case list current: when it changes (a case completed, edited,
  // deleted), the figures are asked for again, quietly, a moment later.
  const cases = useCache((state) => state.cases);
  const [refresh, setRefresh] = useState(0);
  const shownKey = useRef<string | null>(null);
  const [firstCases] = useState(cases);
  useEffect(() => {
    if (cases === firstCases) return;
    const timer = setTimeout(() => setRefresh((n) => n + 1), LIVE_REFRESH_MS);
    return () => clearTimeout(timer);
  }, [cases, firstCases]);

  useEffect(() => {
    if (!key) return;
    const [keyFrom, keyTo] = key.split('/');
    let current = true;
    // A new range shows that it is loading; a live refresh keeps the figures until the new ones.
    if (shownKey.current !== key) setLoad({ state: 'loading' });
    shownKey.current = key;
    api.reportSummary({ from: keyFrom, to: keyTo }).then(
      (summary) => current && setLoad({ state: 'done', summary }),
      (error: unknown) =>
        current &&
        setLoad({
          state: 'error',
          message:
            error instanceof ApiError && typeof error.body === 'object' && error.body && 'error' in error.body
              ? String((error.body as { error: unknown }).error)
              : error instanceof Error
                ? error.message
                : String(error),
        }),
    );
    return () => {
      current = false;
    };
  }, [key, refresh]);

  const summary = load.state === 'done' ? load.summary : null;
  return (
    <div className="page reports">
      <div className="page__title-row page__title-row--split">
        <div>
          <h1>{REPORT_TEXTS.title}</h1>
          <p className="welcome">{T.subtitle}</p>
        </div>
      </div>

      <form
        className="reports__range panel"
        onSubmit={(event) => event.preventDefault()}
        aria-label="Report range"
      >
        <label className="field">
          <span className="field__label">{T.from}</span>
          <input
            type="date"
            value={from}
            max={to || undefined}
            onChange={(event) => setFrom(event.target.value)}
          />
        </label>
        <label className="field">
          <span className="field__label">{T.to}</span>
          <input
            type="date"
            value={to}
            min={from || undefined}
            onChange={(event) => setTo(event.target.value)}
          />
        </label>
        <button
          type="button"
          className="button button--ghost"
          onClick={() => {
            setFrom(initial.from);
            setTo(initial.to);
          }}
        >
          {T.lastWeeks(DEFAULT_REPORT_WEEKS)}
        </button>
        {range ? (
          <a className="button button--secondary" href={reportCsvUrl('cases', range)} download>
            <Icon name="download" />
            {T.casesCsv}
          </a>
        ) : null}
      </form>

      {!range ? (
        <p className="form-error" role="alert">
          {'error' in parsed
            ? parsed.error === REPORT_TEXTS.fromAfterTo
              ? T.rangeInvalid
              : parsed.error
            : null}
        </p>
      ) : load.state === 'error' ? (
        <p className="form-error" role="alert">
          {load.message}
        </p>
      ) : null}

      <ReportTiles summary={summary} />
      {load.state === 'loading' && range ? (
        <p className="muted" role="status">
          {T.loading}
        </p>
      ) : null}

      {summary && range ? (
        <div className="reports__grid">
          <ReportPanel id="weeks" title={T.weeks} hint={T.weeksHint} table="weeks" range={range}>
            <Chart>
              <WeeksChart weeks={summary.byWeek} />
            </Chart>
            <DataTable
              label={T.weeks}
              columns={[T.columns.week, T.columns.completed, T.columns.onTime]}
              rows={summary.byWeek.map((week) => [week.weekStart, week.completed, week.onTime])}
            />
          </ReportPanel>

          <ReportPanel id="stages" title={T.stages} hint={T.stagesHint} table="stages" range={range}>
            <Chart>
              <StagesChart stages={summary.byStage} />
            </Chart>
            <DataTable
              label={T.stages}
              columns={[T.columns.status, T.columns.cases, T.columns.averageHours, T.columns.p90Hours]}
              rows={summary.byStage.map((stage) => [
                <StatusBadge key="status" status={stage.status} />,
                stage.cases,
                stage.averageHours,
                stage.p90Hours,
              ])}
            />
          </ReportPanel>

          <ReportPanel id="remakes" title={T.remakes} hint={T.remakesHint} table="remakes" range={range}>
            {summary.remakes.total === 0 ? (
              <p className="muted">{T.noRemakes}</p>
            ) : (
              <>
                <Chart>
                  <CountChart
                    kind="remakes"
                    rows={Object.entries(summary.remakes.byReasonCode).map(([code, value]) => ({
                      name: reasonLabel(code),
                      value,
                    }))}
                  />
                </Chart>
                <DataTable
                  label={T.remakes}
                  columns={[T.columns.reason, T.columns.remakes]}
                  rows={Object.entries(summary.remakes.byReasonCode)
                    .sort(([a], [b]) => a.localeCompare(b))
                    .map(([code, count]) => [reasonLabel(code), count])}
                />
              </>
            )}
          </ReportPanel>

          <GroupPanel
            id="doctors"
            title={T.doctors}
            nameColumn={T.columns.doctor}
            groups={summary.byDoctor}
            range={range}
          />
          <GroupPanel
            id="clinics"
            title={T.clinics}
            nameColumn={T.columns.clinic}
            groups={summary.byClinic}
            range={range}
          />
        </div>
      ) : null}
    </div>
  );
}

function reasonLabel(code: string): string {
  return Object.hasOwn(T.reasonLabels, code) ? T.reasonLabels[code] : code;
}

const TILES: { key: keyof typeof T.tiles; icon: IconName; colour: string }[] = [
  { key: 'completed', icon: 'check', colour: 'blue' },
  { key: 'onTimeRate', icon: 'clock', colour: 'green' },
  { key: 'turnaround', icon: 'folder', colour: 'yellow' },
  { key: 'remakes', icon: 'alert', colour: 'orange' },
];

function ReportTiles({ summary }: { summary: ReportSummary | null }) {
  const value = (key: keyof typeof T.tiles): ReactNode => {
    if (!summary) return '—';
    switch (key) {
      case 'completed':
        return summary.completed;
      case 'onTimeRate':
        return summary.completed ? (
          <>
            {Math.round(summary.onTimeRate * 100)}%{' '}
            <span className="tile__detail">{T.onTimeOf(summary.onTime, summary.completed)}</span>
          </>
        ) : (
          '—'
        );
      case 'turnaround':
        return summary.completed ? T.days(summary.averageTurnaroundDays) : '—';
      case 'remakes':
        return summary.remakes.total;
    }
  };
  return (
    <ul className="tiles reports__tiles" aria-label="Report figures">
      {TILES.map(({ key, icon, colour }) => (
        <li key={key} className={`tile tile--${colour}`}>
          <span className="tile__icon" aria-hidden="true">
            <Icon name={icon} size={22} />
          </span>
          <span className="tile__text">
            <span className="tile__title">{T.tiles[key]}</span>
            <span className="tile__value">{value(key)}</span>
          </span>
        </li>
      ))}
    </ul>
  );
}

function ReportPanel({
  id,
  title,
  hint,
  table,
  range,
  children,
}: {
  id: string;
  title: string;
  hint?: string;
  table: ReportTable;
  range: ReportRange;
  children: ReactNode;
}) {
  return (
    <section className="panel reports__panel" aria-labelledby={`report-${id}`}>
      <div className="panel__header panel__header--row">
        <div>
          <h2 id={`report-${id}`}>{title}</h2>
          {hint ? <p className="muted small">{hint}</p> : null}
        </div>
        <a
          className="button button--ghost button--small"
          href={reportCsvUrl(table, range)}
          download
          aria-label={`${REPORT_TEXTS.downloadCsv}: ${title}`}
        >
          <Icon name="download" />
          {REPORT_TEXTS.downloadCsv}
        </a>
      </div>
      {children}
    </section>
  );
}

function GroupPanel({
  id,
  title,
  nameColumn,
  groups,
  range,
}: {
  id: 'doctors' | 'clinics';
  title: string;
  nameColumn: string;
  groups: GroupFigures[];
  range: ReportRange;
}) {
  return (
    <ReportPanel id={id} title={title} table={id} range={range}>
      {groups.length === 0 ? (
        <p className="muted">{REPORT_TEXTS.noCompleted}</p>
      ) : (
        <>
          <Chart>
            <CountChart
              kind={id}
              rows={groups.map((group) => ({
                name: group.name,
                value: group.completed,
                onTime: group.onTime,
              }))}
            />
          </Chart>
          <DataTable
            label={title}
            columns={[nameColumn, T.columns.completed, T.columns.onTime, T.columns.turnaround]}
            rows={groups.map((group) => [
              group.name,
              group.completed,
              group.onTime,
              group.averageTurnaroundDays,
            ])}
          />
        </>
      )}
    </ReportPanel>
  );
}

/** A lazily loaded chart: its table beside it shows at once, the chart when recharts has come. */
function Chart({ children }: { children: ReactNode }) {
  return (
    <Suspense fallback={<p className="muted small report-chart report-chart--loading">{T.chartLoading}</p>}>
      {children}
    </Suspense>
  );
}

function DataTable({ label, columns, rows }: { label: string; columns: string[]; rows: ReactNode[][] }) {
  return (
    <div className="table-wrap reports__table">
      <table className="table table--compact" aria-label={label}>
        <thead>
          <tr>
            {columns.map((column, index) => (
              <th key={column} scope="col" className={index ? 'num' : undefined}>
                {column}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map((row, rowIndex) => (
            <tr key={rowIndex}>
              {row.map((cell, index) => (
                <td key={index} className={index ? 'num' : undefined}>
                  {cell}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
