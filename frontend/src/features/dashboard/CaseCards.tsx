import type { CaseSummary } from '@alignerflow/domain';
import type { CaseActionHandlers } from './CaseActionButtons';
import { CaseCard } from './CaseCard';
import { useRowWindow } from './useRowWindow';

/** A card's height (with the gap) before one is measured. */
const CARD_PX = 96;

interface CaseCardsProps {
  cases: CaseSummary[];
  atRisk: Set<string>;
  actions: CaseActionHandlers | null;
  onOpenCase: (id: string) => void;
}

/** Mobile case list (narrower than 768 px); a long list renders only the cards near the viewport. */
export function CaseCards({ cases, atRisk, actions, onOpenCase }: CaseCardsProps) {
  const cards = useRowWindow<HTMLUListElement>(cases.length, CARD_PX);
  return (
    <ul className="case-cards" ref={cards.containerRef}>
      {cards.before ? <li aria-hidden="true" style={{ height: cards.before }} /> : null}
      {cases.slice(cards.start, cards.end).map((item) => (
        <CaseCard
          key={item.id}
          item={item}
          atRisk={atRisk.has(item.id)}
          actions={actions}
          onOpenCase={onOpenCase}
        />
      ))}
      {cards.after ? <li aria-hidden="true" style={{ height: cards.after }} /> : null}
    </ul>
  );
}
