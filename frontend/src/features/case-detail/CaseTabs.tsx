import { useId, useRef, useState, type KeyboardEvent } from 'react';
import { ACCESS_LOG_TEXTS, can, type Case, type User } from '@alignerflow/domain';
import { CaseAccessTab } from '../access-log/CaseAccessTab';
import { CommunicationTab } from './CommunicationTab';
import { DetailsTab } from './DetailsTab';
import { HistoryTab } from './HistoryTab';
import { PricingTab } from './PricingTab';
import { CASE_DETAIL_TEXTS as T } from './texts';
import type { CaseCommandRunner } from './useCaseCommand';

const ALL_TABS = [
  { key: 'details', label: T.detailsTab },
  { key: 'pricing', label: T.pricingTab },
  { key: 'communication', label: T.communicationTab },
  { key: 'history', label: T.historyTab },
  // Managers only: who read the case (api.md, "Patient data").
  { key: 'access', label: ACCESS_LOG_TEXTS.tab },
] as const;
type TabKey = (typeof ALL_TABS)[number]['key'];

interface CaseTabsProps {
  item: Case;
  user: User;
  canEditPricing: boolean;
  commands: CaseCommandRunner;
}

/** The side tabs (default 'Details & Actions'), keyboard operable as the ARIA tabs pattern says. */
export function CaseTabs({ item, user, canEditPricing, commands }: CaseTabsProps) {
  const id = useId();
  const [active, setActive] = useState<TabKey>('details');
  const buttons = useRef<Partial<Record<TabKey, HTMLButtonElement | null>>>({});
  const TABS = can(user.role, 'viewAccessLog') ? ALL_TABS : ALL_TABS.filter((tab) => tab.key !== 'access');

  function onKeyDown(event: KeyboardEvent) {
    const index = TABS.findIndex((tab) => tab.key === active);
    const target =
      event.key === 'ArrowRight'
        ? (index + 1) % TABS.length
        : event.key === 'ArrowLeft'
          ? (index - 1 + TABS.length) % TABS.length
          : event.key === 'Home'
            ? 0
            : event.key === 'End'
              ? TABS.length - 1
              : -1;
    if (target < 0) return;
    event.preventDefault();
    const key = TABS[target].key;
    setActive(key);
    buttons.current[key]?.focus();
  }

  return (
    <section className="panel cd-tabs">
      <div className="cd-tabs__list" role="tablist" aria-label={T.tabs} onKeyDown={onKeyDown}>
        {TABS.map((tab) => (
          <button
            key={tab.key}
            ref={(element) => {
              buttons.current[tab.key] = element;
            }}
            type="button"
            role="tab"
            id={`${id}-tab-${tab.key}`}
            aria-selected={active === tab.key}
            aria-controls={`${id}-panel`}
            tabIndex={active === tab.key ? 0 : -1}
            className="cd-tabs__tab"
            onClick={() => setActive(tab.key)}
          >
            {tab.label}
            {tab.key === 'communication' && item.notes.length ? (
              <span className="cd-tabs__count" aria-hidden="true">
                {item.notes.length}
              </span>
            ) : null}
          </button>
        ))}
      </div>
      <div
        role="tabpanel"
        id={`${id}-panel`}
        aria-labelledby={`${id}-tab-${active}`}
        className="cd-tabs__panel"
      >
        {active === 'details' ? <DetailsTab item={item} user={user} commands={commands} /> : null}
        {active === 'pricing' ? (
          <PricingTab item={item} canEdit={canEditPricing} commands={commands} />
        ) : null}
        {active === 'communication' ? <CommunicationTab item={item} commands={commands} /> : null}
        {active === 'history' ? <HistoryTab item={item} user={user} /> : null}
        {active === 'access' ? <CaseAccessTab item={item} /> : null}
      </div>
    </section>
  );
}
