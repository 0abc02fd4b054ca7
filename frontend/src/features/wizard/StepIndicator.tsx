import { Icon } from '../../components/Icon';
import { WIZARD_TEXTS } from './texts';
import { STEP_LABELS, type StepId } from './wizardSteps';

/** The wizard's step indicator: done steps are checked, the current one is marked for assistive tech. */
export function StepIndicator({ steps, current }: { steps: StepId[]; current: number }) {
  return (
    <div className="wizard-steps">
      <ol className="wizard-steps__list" aria-label={WIZARD_TEXTS.stepOf(current + 1, steps.length)}>
        {steps.map((step, index) => {
          const state = index < current ? 'done' : index === current ? 'current' : 'todo';
          return (
            <li
              key={step}
              className={`wizard-steps__item wizard-steps__item--${state}`}
              aria-current={state === 'current' ? 'step' : undefined}
            >
              <span className="wizard-steps__dot" aria-hidden="true">
                {state === 'done' ? <Icon name="check" size={14} /> : index + 1}
              </span>
              <span className="wizard-steps__label">{STEP_LABELS[step]}</span>
            </li>
          );
        })}
      </ol>
      <p className="wizard-steps__caption muted small">{WIZARD_TEXTS.stepOf(current + 1, steps.length)}</p>
    </div>
  );
}
