import { useEffect, useRef, useState } from 'react';
import type { CaseSummary } from '@alignerflow/domain';
import { formatDate } from '../../components/format';
import { Icon } from '../../components/Icon';
import { StatusBadge } from '../../components/StatusBadge';
import type { CaseActionHandlers } from './CaseActionButtons';
import { DASHBOARD_TEXTS } from './texts';
import { FollowUpBadge } from '../case-shared/CaseLinks';

interface CaseCardProps {
  item: CaseSummary;
  atRisk: boolean;
  actions: CaseActionHandlers | null;
  onOpenCase: (id: string) => void;
}

/** Mobile case card with the managers' overflow menu. */
export function CaseCard({ item, atRisk, actions, onOpenCase }: CaseCardProps) {
  const [menuOpen, setMenuOpen] = useState(false);
  const menuRef = useRef<HTMLDivElement>(null);

  useEffect(() => {
    if (!menuOpen) return;
    const close = (event: Event) => {
      if (!menuRef.current?.contains(event.target as Node)) setMenuOpen(false);
    };
    const onKey = (event: KeyboardEvent) => event.key === 'Escape' && setMenuOpen(false);
    document.addEventListener('mousedown', close);
    document.addEventListener('keydown', onKey);
    return () => {
      document.removeEventListener('mousedown', close);
      document.removeEventListener('keydown', onKey);
    };
  }, [menuOpen]);

  const choose = (action: (item: CaseSummary) => void) => () => {
    setMenuOpen(false);
    action(item);
  };

  return (
    <li className={`case-card${atRisk ? ' at-risk' : ''}`} data-row>
      <button type="button" className="case-card__open" onClick={() => onOpenCase(item.id)}>
        <span className="case-card__head">
          <strong>{item.patientName}</strong>
          <StatusBadge status={item.status} onHold={item.onHold} />
        </span>
        <span className="mono muted">
          {item.id}
          <FollowUpBadge item={item} />
        </span>
        <span className="case-card__meta">
          <span>{item.doctorName}</span>
          <span>
            {DASHBOARD_TEXTS.columns.dueDate}: {formatDate(item.deliveryDate)}
          </span>
        </span>
        {atRisk ? <span className="risk-tag">{DASHBOARD_TEXTS.atRiskBadge}</span> : null}
      </button>
      {actions ? (
        <div className="case-card__menu" ref={menuRef}>
          <button
            type="button"
            className="icon-button"
            aria-haspopup="menu"
            aria-expanded={menuOpen}
            aria-label={DASHBOARD_TEXTS.moreActions(item.id)}
            onClick={() => setMenuOpen((open) => !open)}
            disabled={actions.busyId === item.id}
          >
            <Icon name="more" />
          </button>
          {menuOpen ? (
            <div className="popover" role="menu">
              <button type="button" role="menuitem" onClick={choose(actions.onToggleHold)}>
                <Icon name={item.onHold ? 'play' : 'pause'} />
                {item.onHold ? DASHBOARD_TEXTS.resume : DASHBOARD_TEXTS.hold}
              </button>
              <button type="button" role="menuitem" onClick={choose(actions.onEdit)}>
                <Icon name="edit" />
                {DASHBOARD_TEXTS.edit}
              </button>
              <button type="button" role="menuitem" className="danger" onClick={choose(actions.onDelete)}>
                <Icon name="trash" />
                {DASHBOARD_TEXTS.delete}
              </button>
            </div>
          ) : null}
        </div>
      ) : null}
    </li>
  );
}
