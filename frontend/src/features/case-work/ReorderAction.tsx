import { useState } from 'react';
import type { Case } from '@alignerflow/domain';
import { cache } from '../../api/cache';
import { Icon } from '../../components/Icon';
import { caseDetailApi } from '../case-shared/caseDetailApi';
import type { CaseView } from '../case-shared/caseScreenParts';
import { caseWorkApi } from '../case-shared/caseWorkApi';
import { CASE_WORK_UI_TEXTS as W } from '../case-shared/caseWorkTexts';
import { ReorderDialog } from './ReorderDialog';

/** 'Order follow-up' on the case screen and its dialog; the new case opens once it exists. */
export function ReorderAction({ item, commands, onOpenCase }: CaseView) {
  const [reordering, setReordering] = useState(false);
  return (
    <>
      <div className="button-row cw-reorder">
        <button type="button" className="button button--secondary" onClick={() => setReordering(true)}>
          <Icon name="plus" />
          {W.orderFollowUp}
        </button>
      </div>
      {reordering ? (
        <ReorderDialog
          item={item}
          busy={commands.busy === 'reorder'}
          error={commands.errors.reorder}
          onSubmit={async (input) => {
            let created: Case | null = null;
            const ok = await commands.run('reorder', async () => {
              created = await caseWorkApi.reorder(item, input);
              cache.upsertCase(created);
              // The original gains the follow-up: the answer is the new case, so read it again.
              return caseDetailApi.get(item.id);
            });
            if (ok && created) onOpenCase?.((created as Case).id);
            return ok;
          }}
          onClose={() => {
            setReordering(false);
            commands.clearError('reorder');
          }}
        />
      ) : null}
    </>
  );
}
