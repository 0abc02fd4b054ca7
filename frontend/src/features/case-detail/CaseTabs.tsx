import { Fragment, useId, useRef, useState, type KeyboardEvent } from 'react';
import type { CaseTabPart, CaseView } from '../case-shared/caseScreenParts';
import { CommunicationTab } from './CommunicationTab';
import { DetailsTab } from './DetailsTab';
import { HistoryTab } from './HistoryTab';
import { PricingTab } from './PricingTab';
import { CASE_DETAIL_TEXTS as T } from './texts';

const OWN_TABS = [
  { key: 'details', label: T.detailsTab },
  { key: 'pricing', label: T.pricingTab },
  { key: 'communication', label: T.communicationTab },
  { key: 'history', label: T.historyTab },
] as const;
type TabKey = string;

interface CaseTabsProps {
  view: CaseView;
  /** Tabs other features add after these (the Managers' access log), from the app. */
  extraTabs?: readonly CaseTabPart[];
}

/** The side tabs (default 'Details & Actions'), keyboard operable as the ARIA tabs pattern says. */
export function CaseTabs({ view, extraTabs = [] }: CaseTabsProps) {
  const { item, user, commands } = view;
  const id = useId();
  const [active, setActive] = useState<TabKey>('details');
  const buttons = useRef<Partial<Record<TabKey, HTMLButtonElement | null>>>({});
  const shownExtras = extraTabs.filter((tab) => tab.shownTo(user.role));
  const TABS: readonly { key: TabKey; label: string }[] = [...OWN_TABS, ...shownExtras];

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
          <PricingTab item={item} canEdit={view.abilities.editPricing} commands={commands} />
        ) : null}
        {active === 'communication' ? <CommunicationTab item={item} commands={commands} /> : null}
        {active === 'history' ? <HistoryTab item={item} user={user} /> : null}
        {shownExtras.map((tab) =>
          active === tab.key ? <Fragment key={tab.key}>{tab.render(view)}</Fragment> : null,
        )}
      </div>
    </section>
  );
}
