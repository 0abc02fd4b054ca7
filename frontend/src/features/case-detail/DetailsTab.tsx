import {
  advanceAvailability,
  CASE_STATUSES,
  nextStatus,
  stageOwners,
  type Case,
  type Role,
  type User,
} from '@alignerflow/domain';
import { Icon } from '../../components/Icon';
import { ActionError } from '../case-shared/ActionError';
import { useStageAdvance } from '../case-shared/useStageAdvance';
import { CASE_DETAIL_TEXTS as T } from './texts';
import type { CaseCommandRunner } from '../case-shared/useCaseCommand';
import { Fact } from '../../components/Fact';

interface DetailsTabProps {
  item: Case;
  user: User;
  commands: CaseCommandRunner;
}

/** Whether the role owns any stage at all (a Doctor owns none: they approve the treatment plan instead). */
const ownsAStage = (role: Role) => CASE_STATUSES.some((status) => stageOwners(status).includes(role));

/**
 * 'Details & Actions': 'Complete Stage & Advance' — enabled, or disabled with the guidance text,
 * exactly as the shared rules decide (not shown to doctors, who own no stage) — and the details.
 */
export function DetailsTab({ item, user, commands }: DetailsTabProps) {
  const { enabled, message } = advanceAvailability(item, user);
  const stageAdvance = useStageAdvance(item, commands);
  const next = nextStatus(item.status);
  const guidanceId = `advance-guidance-${item.id}`;
  return (
    <div className="cd-tab">
      {ownsAStage(user.role) ? (
        <div className="cd-advance">
          <button
            type="button"
            className="button button--primary button--block"
            disabled={!enabled || commands.busy === 'advance'}
            aria-describedby={message ? guidanceId : undefined}
            onClick={stageAdvance.start}
          >
            <Icon name="check" />
            {T.completeAdvance}
          </button>
          {message ? (
            <p id={guidanceId} className="cd-guidance">
              {message}
            </p>
          ) : next ? (
            <p className="hint">{T.advanceHint(item.status, next)}</p>
          ) : null}
          <ActionError message={commands.errors.advance} />
          {stageAdvance.dialog}
        </div>
      ) : null}
      <h3 className="cd-tab__heading">{T.details}</h3>
      <dl className="cd-details">
        <Fact term={T.caseId} value={item.id} valueClassName="mono" />
        <Fact term={T.doctor} value={item.doctorName} />
        <Fact term={T.clinic} value={item.clinicName} />
        <Fact term={T.assigned} value={item.assignedTechnicians.join(', ') || T.unassigned} />
        <Fact
          className="cd-details__wide"
          term={T.treatmentPlanNotes}
          value={item.treatmentPlanNotes?.trim() ? item.treatmentPlanNotes : T.noNotes}
          valueClassName="cd-prewrap"
        />
      </dl>
    </div>
  );
}
