import type { Case, CaseSummary } from '@alignerflow/domain';
import { CASE_WORK_UI_TEXTS as T } from './caseWorkTexts';

interface CaseLinksProps {
  item: Pick<Case, 'origin' | 'followUps'>;
  onOpenCase?: (caseId: string) => void;
}

function CaseLink({ id, onOpenCase }: { id: string; onOpenCase?: (caseId: string) => void }) {
  return onOpenCase ? (
    <button type="button" className="cw-link" onClick={() => onOpenCase(id)}>
      {id}
    </button>
  ) : (
    <span className="mono">{id}</span>
  );
}

/** A remake or refinement names its original; an original lists its follow-ups. Both open the other case. */
export function CaseLinks({ item, onOpenCase }: CaseLinksProps) {
  const followUps = item.followUps ?? [];
  if (!item.origin && !followUps.length) return null;
  return (
    <div className="cw-links">
      {item.origin ? (
        <span>
          {T.remakeOf(item.origin.kind)} <CaseLink id={item.origin.caseId} onOpenCase={onOpenCase} />
        </span>
      ) : null}
      {followUps.length ? (
        <span>
          {T.followUps}{' '}
          {followUps.map((followUp, index) => (
            <span key={followUp.caseId}>
              {index ? ', ' : null}
              <CaseLink id={followUp.caseId} onOpenCase={onOpenCase} /> ({T.kinds[followUp.kind]})
            </span>
          ))}
        </span>
      ) : null}
    </div>
  );
}

/** The dashboard's small mark on a case that is a remake or refinement. */
export function FollowUpBadge({ item }: { item: Pick<CaseSummary, 'origin'> }) {
  if (!item.origin) return null;
  return (
    <span className="badge badge--indigo cw-badge" title={T.badgeTitle(item.origin.kind, item.origin.caseId)}>
      {T.badge[item.origin.kind]}
    </span>
  );
}
