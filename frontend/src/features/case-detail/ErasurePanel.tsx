import { useState } from 'react';
import { CASE_ERASURE as T, decide, type Actor, type Case } from '@alignerflow/domain';
import { formatDate } from '../../components/format';
import { Icon } from '../../components/Icon';
import { TextPromptDialog } from './TextPromptDialog';
import type { CaseCommandRunner } from '../case-shared/useCaseCommand';
import { erasureApi } from '../../api/erasureApi';

interface ErasurePanelProps {
  item: Case;
  user: Actor;
  commands: CaseCommandRunner;
}

/** Whether the decider would erase the case for `user` now (a Manager, Completed or Rejected). */
function mayErase(item: Case, user: Actor): boolean {
  if (item.erasedAt) return false;
  const decision = decide(item, { type: 'EraseCase', reason: '-' }, user, new Date().toISOString());
  return decision.ok && decision.events.length > 0;
}

/**
 * The case's erasure: a notice once erased; before that, for a Manager on a closed case, the
 * "Erase patient data" action, which asks for a reason (and, through the API client, for a
 * fresh proof of identity when the session's is old).
 */
export function ErasurePanel({ item, user, commands }: ErasurePanelProps) {
  const [asking, setAsking] = useState(false);
  if (item.erasedAt)
    return (
      <div className="banner banner--info erasure-banner" role="status">
        <Icon name="shield" />
        <span>{T.erased(formatDate(item.erasedAt), item.erasedBy ?? 'system')}</span>
      </div>
    );
  if (!mayErase(item, user)) return null;
  return (
    <>
      <div className="button-row erasure-actions">
        <button type="button" className="button button--danger" onClick={() => setAsking(true)}>
          <Icon name="trash" />
          {T.eraseAction}
        </button>
      </div>
      {asking ? (
        <TextPromptDialog
          title={T.eraseTitle(item.id)}
          label={T.reasonLabel}
          hint={T.eraseExplain}
          submitLabel={T.eraseConfirm}
          danger
          validate={(reason) => (reason.trim() ? undefined : T.reasonRequired)}
          onSubmit={(reason) => commands.run('erase', () => erasureApi.erase(item, reason))}
          busy={commands.busy === 'erase'}
          error={commands.errors.erase}
          onClose={() => {
            setAsking(false);
            commands.clearError('erase');
          }}
        />
      ) : null}
    </>
  );
}
