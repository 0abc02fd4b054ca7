import { useId } from 'react';
import { STATUS_LABELS, type Case, type WorkflowStep } from '@alignerflow/domain';
import { formatDate } from '../../components/format';
import { Icon } from '../../components/Icon';
import { StageAssignee } from './StageAssignee';
import { CASE_DETAIL_TEXTS as T } from './texts';
import type { CaseCommandRunner } from '../case-shared/useCaseCommand';

type StepState = 'done' | 'current' | 'held' | 'upcoming';

function stateOf(item: Case, step: WorkflowStep): StepState {
  if (step.completed || item.status === STATUS_LABELS.Completed) return 'done';
  if (step.name === item.status) return item.onHold ? 'held' : 'current';
  return 'upcoming';
}

const STATE_LABEL: Record<StepState, string> = {
  done: T.stageDone,
  current: T.stageCurrent,
  held: T.stageHeld,
  upcoming: T.stageUpcoming,
};

interface WorkflowProgressProps {
  item: Case;
  canReassign: boolean;
  reassignEnabled: boolean;
  commands: CaseCommandRunner;
}

/**
 * 'Workflow Progress': a horizontal stepper from 1024 px, vertical below (styles.css). Completed
 * stages are checked, the current one pulses (a pause icon while held), later ones are grey.
 */
export function WorkflowProgress({ item, canReassign, reassignEnabled, commands }: WorkflowProgressProps) {
  const titleId = useId();
  return (
    <section className="panel" aria-labelledby={titleId}>
      <h2 id={titleId}>{T.workflowProgress}</h2>
      <ol className="cd-stepper">
        {item.alignerWorkflow.map((step, index) => {
          const state = stateOf(item, step);
          const date = step.date ?? (state === 'current' || state === 'held' ? item.statusEnteredAt : null);
          return (
            <li
              key={step.name}
              className={`cd-step cd-step--${state}`}
              aria-current={state === 'current' || state === 'held' ? 'step' : undefined}
              data-state={state}
            >
              <span className="cd-step__marker" aria-hidden="true">
                {state === 'done' ? (
                  <Icon name="check" size={16} />
                ) : state === 'held' ? (
                  <Icon name="pause" size={16} />
                ) : (
                  index + 1
                )}
              </span>
              <span className="cd-step__body">
                <span className="cd-step__name">{step.name}</span>
                <span className="visually-hidden">{STATE_LABEL[state]}</span>
                {date ? (
                  <span className="cd-step__date">
                    {step.date ? formatDate(step.date) : T.since(formatDate(date))}
                  </span>
                ) : null}
                <StageAssignee
                  item={item}
                  step={step}
                  canReassign={canReassign}
                  enabled={reassignEnabled}
                  commands={commands}
                />
              </span>
            </li>
          );
        })}
      </ol>
    </section>
  );
}
