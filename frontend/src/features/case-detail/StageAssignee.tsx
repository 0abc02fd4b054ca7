import { useMemo, useState } from 'react';
import { DEFAULT_ASSIGNEE, isStaff, UNASSIGNED, type Case, type WorkflowStep } from '@alignerflow/domain';
import { useCache } from '../../api/cache';
import { ActionError } from '../case-shared/ActionError';
import { caseDetailApi } from '../case-shared/caseDetailApi';
import { CASE_DETAIL_TEXTS as T } from './texts';
import type { CaseCommandRunner } from '../case-shared/useCaseCommand';

interface StageAssigneeProps {
  item: Case;
  step: WorkflowStep;
  /** The viewer is a Manager (reassignment is theirs). */
  canReassign: boolean;
  /** The rules allow it now (not while held). */
  enabled: boolean;
  commands: CaseCommandRunner;
}

/** A stage's assigned technician; Managers click the name to pick another lab user. */
export function StageAssignee({ item, step, canReassign, enabled, commands }: StageAssigneeProps) {
  const [editing, setEditing] = useState(false);
  const users = useCache((state) => state.users);
  const options = useMemo(() => {
    const names = (users ?? []).filter((user) => isStaff(user.role)).map((user) => user.username);
    return [...new Set([UNASSIGNED, DEFAULT_ASSIGNEE, ...names, step.assignedTo])];
  }, [users, step.assignedTo]);
  const key = `reassign:${step.name}`;

  if (!canReassign) return <span className="cd-step__assignee">{step.assignedTo}</span>;

  if (editing && enabled) {
    return (
      <span className="cd-step__assignee">
        <select
          className="cd-step__select"
          aria-label={T.assignTo(step.name)}
          value={step.assignedTo}
          autoFocus
          disabled={commands.busy === key}
          onBlur={() => setEditing(false)}
          onKeyDown={(event) => {
            if (event.key === 'Escape') {
              event.stopPropagation();
              setEditing(false);
            }
          }}
          onChange={async (event) => {
            const assignee = event.target.value;
            const done = await commands.run(key, () => caseDetailApi.reassign(item, step.name, assignee));
            if (done) setEditing(false);
          }}
        >
          {options.map((name) => (
            <option key={name} value={name}>
              {name}
            </option>
          ))}
        </select>
      </span>
    );
  }

  return (
    <span className="cd-step__assignee">
      <button
        type="button"
        className="cd-link-button"
        disabled={!enabled}
        title={enabled ? undefined : T.reassignDisabledHeld}
        aria-label={T.reassign(step.name, step.assignedTo)}
        onClick={() => {
          commands.clearError(key);
          setEditing(true);
        }}
      >
        {step.assignedTo}
      </button>
      <ActionError message={commands.errors[key]} />
    </span>
  );
}
