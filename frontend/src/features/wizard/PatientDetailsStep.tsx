import { WIZARD_TEXTS } from './texts';
import { WizardField } from './WizardField';
import type { StepProps } from './CaseInfoStep';

/** Patient Details: the treatment plan notes, and the optional price and sheet counts. */
export function PatientDetailsStep({ form, errors, onChange }: StepProps) {
  return (
    <div className="wizard-step">
      <WizardField
        label={WIZARD_TEXTS.treatmentPlanNotes}
        type="textarea"
        value={form.treatmentPlanNotes}
        onChange={(treatmentPlanNotes) => onChange({ treatmentPlanNotes })}
        error={errors.treatmentPlanNotes}
        autoFocus
      />
      <div className="form__grid">
        <WizardField
          label={WIZARD_TEXTS.price}
          type="number"
          step="0.01"
          min="0"
          value={form.price}
          onChange={(price) => onChange({ price })}
          error={errors.price}
          hint={WIZARD_TEXTS.optional}
        />
        <WizardField
          label={WIZARD_TEXTS.upperSheets}
          type="number"
          step="1"
          min="0"
          value={form.upperSheets}
          onChange={(upperSheets) => onChange({ upperSheets })}
          error={errors.sheets}
          hint={WIZARD_TEXTS.optional}
        />
        <WizardField
          label={WIZARD_TEXTS.lowerSheets}
          type="number"
          step="1"
          min="0"
          value={form.lowerSheets}
          onChange={(lowerSheets) => onChange({ lowerSheets })}
          hint={WIZARD_TEXTS.optional}
        />
      </div>
    </div>
  );
}
