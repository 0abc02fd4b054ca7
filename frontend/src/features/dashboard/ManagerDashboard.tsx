import { useMemo, useState } from 'react';
import { can, type User } from '@alignerflow/domain';
import { useCache } from '../../api/cache';
import { Icon } from '../../components/Icon';
import { AtRiskPanel } from './AtRiskPanel';
import { CaseCards } from './CaseCards';
import { CaseTable } from './CaseTable';
import { AT_RISK_DAYS, casesAtRisk } from '@alignerflow/domain';
import { useTransitDays } from '../case-shared/useTransitDays';
import { matchesSearch, timeInStageOf } from './caseQueries';
import { SummaryTiles } from './SummaryTiles';
import { TimeInStagePanel } from './TimeInStagePanel';
import { DASHBOARD_TEXTS } from './texts';
import { useCaseActions } from './useCaseActions';
import { useNarrowScreen } from './useNarrowScreen';

interface ManagerDashboardProps {
  user: User;
  onOpenCase: (id: string) => void;
  onEditCase: (id: string) => void;
  /** Opens the settings drawer at User Management or Notifications. */
  onOpenSettings: (section: 'users' | 'notifications') => void;
  onScan: () => void;
}

/** 'Lab Dashboard' for every staff role; row actions and settings for managers only. */
export function ManagerDashboard({
  user,
  onOpenCase,
  onEditCase,
  onOpenSettings,
  onScan,
}: ManagerDashboardProps) {
  const cases = useCache((state) => state.cases);
  const figures = useCache((state) => state.dashboard);
  const [query, setQuery] = useState('');
  const { busyId, toggleHold, remove } = useCaseActions();
  const isManager = can(user.role, 'manageUsers');
  const mayAct = can(user.role, 'holdCase') || can(user.role, 'deleteCase');
  const narrow = useNarrowScreen();

  const visible = useMemo(
    () => (query.trim() ? cases.filter((item) => matchesSearch(item, query)) : cases),
    [cases, query],
  );
  const transitDays = useTransitDays(true);
  const atRiskCases = useMemo(
    () => casesAtRisk(cases, new Date(), AT_RISK_DAYS, transitDays),
    [cases, transitDays],
  );
  const atRisk = useMemo(() => new Set(atRiskCases.map((item) => item.id)), [atRiskCases]);
  const timeInStage = useMemo(() => figures?.timeInStage ?? timeInStageOf(cases), [figures, cases]);

  const actions = mayAct
    ? {
        busyId,
        onToggleHold: (item: (typeof cases)[number]) => void toggleHold(item),
        onEdit: (item: (typeof cases)[number]) => onEditCase(item.id),
        onDelete: (item: (typeof cases)[number]) => void remove(item),
      }
    : null;

  return (
    <div className="page">
      <div className="page__title-row">
        {isManager ? (
          <button
            type="button"
            className="icon-button"
            onClick={() => onOpenSettings('users')}
            aria-label={DASHBOARD_TEXTS.openSettings}
            title={DASHBOARD_TEXTS.openSettings}
          >
            <Icon name="menu" />
          </button>
        ) : null}
        <h1>{DASHBOARD_TEXTS.title}</h1>
      </div>

      <SummaryTiles figures={figures} />

      <div className="insights">
        <AtRiskPanel cases={atRiskCases} onOpenCase={onOpenCase} transitDays={transitDays} />
        <TimeInStagePanel timeInStage={timeInStage} />
      </div>

      <section className="panel" aria-labelledby="all-cases">
        <div className="panel__header panel__header--row">
          <h2 id="all-cases">{DASHBOARD_TEXTS.allCases}</h2>
          {isManager ? (
            <div className="button-row">
              <button type="button" className="button button--ghost" onClick={() => onOpenSettings('users')}>
                <Icon name="settings" />
                {DASHBOARD_TEXTS.settings}
              </button>
              <button
                type="button"
                className="button button--ghost"
                onClick={() => onOpenSettings('notifications')}
              >
                <Icon name="bell" />
                {DASHBOARD_TEXTS.notifications}
              </button>
            </div>
          ) : null}
        </div>

        <div className="toolbar">
          <label className="search">
            <Icon name="search" />
            <input
              type="search"
              placeholder={DASHBOARD_TEXTS.searchPlaceholder}
              aria-label={DASHBOARD_TEXTS.searchLabel}
              value={query}
              onChange={(event) => setQuery(event.target.value)}
            />
          </label>
          <button type="button" className="button button--secondary" onClick={onScan}>
            <Icon name="qr" />
            {DASHBOARD_TEXTS.scan}
          </button>
        </div>

        {visible.length === 0 ? (
          <p className="empty">{cases.length === 0 ? DASHBOARD_TEXTS.noCases : DASHBOARD_TEXTS.noMatch}</p>
        ) : narrow ? (
          <CaseCards cases={visible} atRisk={atRisk} actions={actions} onOpenCase={onOpenCase} />
        ) : (
          <CaseTable cases={visible} atRisk={atRisk} actions={actions} onOpenCase={onOpenCase} />
        )}
      </section>
    </div>
  );
}
