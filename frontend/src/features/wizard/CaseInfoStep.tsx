import { PRIORITIES, type Priority } from '@alignerflow/domain';
import { WIZARD_TEXTS } from './texts';
import { WizardField } from './WizardField';
import type { FieldErrors, WizardForm } from './wizardSteps';

interface StepProps {
  form: WizardForm;
  errors: FieldErrors;
  onChange: (change: Partial<WizardForm>) => void;
}

const PRIORITY_LABELS: Record<Priority, string> = { Normal: WIZARD_TEXTS.normal, High: WIZARD_TEXTS.high };

/** Case Info: patient, doctor and clinic names (required), priority and due date. */
export function CaseInfoStep({ form, errors, onChange }: StepProps) {
  return (
    <div className="wizard-step">
      <WizardField
        label={WIZARD_TEXTS.patientName}
        value={form.patientName}
        onChange={(patientName) => onChange({ patientName })}
        required
        error={errors.patientName}
        autoFocus
      />
      <div className="form__grid">
        <WizardField
          label={WIZARD_TEXTS.doctorName}
          value={form.doctorName}
          onChange={(doctorName) => onChange({ doctorName })}
          required
          error={errors.doctorName}
        />
        <WizardField
          label={WIZARD_TEXTS.clinicName}
          value={form.clinicName}
          onChange={(clinicName) => onChange({ clinicName })}
          required
          error={errors.clinicName}
        />
      </div>
      <div className="form__grid">
        <fieldset className="segmented wizard-priority">
          <legend className="field__label">{WIZARD_TEXTS.priority}</legend>
          {PRIORITIES.map((priority) => (
            <label key={priority} className="wizard-priority__option">
              <input
                type="radio"
                name="wizard-priority"
                value={priority}
                checked={form.priority === priority}
                onChange={() => onChange({ priority })}
              />
              {PRIORITY_LABELS[priority]}
            </label>
          ))}
          {errors.priority ? <span className="field__error">{errors.priority}</span> : null}
        </fieldset>
        <WizardField
          label={WIZARD_TEXTS.dueDate}
          type="date"
          value={form.deliveryDate}
          onChange={(deliveryDate) => onChange({ deliveryDate })}
          error={errors.deliveryDate}
        />
      </div>
    </div>
  );
}

export type { StepProps };
