import { useId, useMemo, useState } from 'react';
import { sameUsername, type Case, type User } from '@alignerflow/domain';
import { useCache } from '../../api/cache';
import { Icon } from '../../components/Icon';
import { ActionError } from '../case-shared/ActionError';
import { caseDetailApi } from '../case-shared/caseDetailApi';
import { invalidInput } from './invalidInput';
import { TextPromptDialog } from './TextPromptDialog';
import { CASE_DETAIL_TEXTS as T } from './texts';
import type { CaseCommandRunner } from '../case-shared/useCaseCommand';

interface ApprovalPanelProps {
  item: Case;
  user: User;
  commands: CaseCommandRunner;
}

/**
 * 'New Case Approval' (Pending Approval, not held, Manager): choose the doctor, then
 * 'Approve & Activate', or 'Reject Case' with a reason. The selector defaults to the doctor who
 * submitted the case, else the first doctor in the users list.
 */
export function ApprovalPanel({ item, user, commands }: ApprovalPanelProps) {
  const selectId = useId();
  const users = useCache((state) => state.users);
  const doctors = useMemo(() => (users ?? []).filter((candidate) => candidate.role === 'Doctor'), [users]);
  const [chosen, setChosen] = useState<string | null>(null);
  const [rejecting, setRejecting] = useState(false);

  const fallback =
    doctors.find((doctor) => sameUsername(doctor.username, item.assignedDoctorUsername))?.username ??
    doctors[0]?.username ??
    '';
  const doctorUsername = chosen !== null && doctors.some((d) => d.username === chosen) ? chosen : fallback;
  const busy = commands.busy !== null;

  return (
    <section className="panel cd-approval" aria-labelledby={`${selectId}-title`}>
      <h2 id={`${selectId}-title`}>{T.newCaseApproval}</h2>
      <p className="muted cd-panel-hint">{T.newCaseApprovalHint}</p>
      <div className="cd-approval__row">
        <div className="field cd-approval__field">
          <label className="field__label" htmlFor={selectId}>
            {T.assignDoctor}
          </label>
          <select
            id={selectId}
            value={doctorUsername}
            disabled={doctors.length === 0}
            onChange={(event) => setChosen(event.target.value)}
          >
            {users === null ? (
              <option value="">{T.loadingDoctors}</option>
            ) : doctors.length === 0 ? (
              <option value="">{T.noDoctors}</option>
            ) : (
              doctors.map((doctor) => (
                <option key={doctor.username} value={doctor.username}>
                  {doctor.username}
                </option>
              ))
            )}
          </select>
        </div>
        <div className="button-row">
          <button
            type="button"
            className="button button--ghost cd-button-danger"
            onClick={() => setRejecting(true)}
            disabled={busy}
          >
            <Icon name="close" />
            {T.rejectCase}
          </button>
          <button
            type="button"
            className="button button--primary"
            disabled={!doctorUsername || busy}
            onClick={() => void commands.run('approve', () => caseDetailApi.approve(item, doctorUsername))}
          >
            <Icon name="check" />
            {T.approveActivate}
          </button>
        </div>
      </div>
      <ActionError message={commands.errors.approve} />
      {rejecting ? (
        <TextPromptDialog
          title={T.rejectTitle(item.id)}
          label={T.rejectReason}
          hint={T.rejectHint}
          submitLabel={T.rejectCase}
          danger
          validate={(reason) => invalidInput(item, user, { type: 'RejectCase', reason })}
          onSubmit={(reason) => commands.run('reject', () => caseDetailApi.reject(item, reason))}
          busy={commands.busy === 'reject'}
          error={commands.errors.reject}
          onClose={() => {
            setRejecting(false);
            commands.clearError('reject');
          }}
        />
      ) : null}
    </section>
  );
}
