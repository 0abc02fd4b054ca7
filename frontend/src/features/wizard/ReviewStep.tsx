import { formatPrice, parseDecimal, parseInteger } from '@alignerflow/domain';
import { formatDate } from '../../components/format';
import { WIZARD_TEXTS } from './texts';
import type { UploadedFile } from '../../api/uploadFile';
import type { FieldErrors, WizardForm } from './wizardSteps';
import { Fact } from '../../components/Fact';

interface ReviewStepProps {
  form: WizardForm;
  files: UploadedFile[];
  paid: boolean | null;
  errors: FieldErrors;
}

/** Review: everything the case will be created with, read back before Submit Case. */
export function ReviewStep({ form, files, paid, errors }: ReviewStepProps) {
  const sheets = (value: string) => parseInteger(value)?.toString() ?? WIZARD_TEXTS.notProvided;
  const rows: [string, string][] = [
    [WIZARD_TEXTS.patientName, form.patientName.trim()],
    [WIZARD_TEXTS.doctorName, form.doctorName.trim()],
    [WIZARD_TEXTS.clinicName, form.clinicName.trim()],
    [WIZARD_TEXTS.priority, form.priority],
    [WIZARD_TEXTS.dueDate, formatDate(form.deliveryDate)],
    [WIZARD_TEXTS.price, formatPrice(parseDecimal(form.price))],
    [WIZARD_TEXTS.upperSheets, sheets(form.upperSheets)],
    [WIZARD_TEXTS.lowerSheets, sheets(form.lowerSheets)],
  ];
  if (paid !== null) rows.push([WIZARD_TEXTS.paymentRow, `${WIZARD_TEXTS.feeAmount} · ${WIZARD_TEXTS.paid}`]);
  return (
    <div className="wizard-step">
      <p className="muted">{WIZARD_TEXTS.reviewHint}</p>
      <dl className="review-list">
        {rows.map(([label, value]) => (
          <Fact key={label} term={label} value={value || WIZARD_TEXTS.notProvided} />
        ))}
        <Fact
          className="review-list__wide"
          term={WIZARD_TEXTS.treatmentPlanNotes}
          value={form.treatmentPlanNotes.trim() || WIZARD_TEXTS.notProvided}
          valueClassName="review-list__notes"
        />
        <Fact
          className="review-list__wide"
          term={WIZARD_TEXTS.files}
          value={
            files.length ? (
              <ul className="review-files">
                {files.map((file) => (
                  <li key={file.url}>
                    <span className="badge badge--gray">{file.type}</span> {file.name}{' '}
                    <span className="muted small">{file.size}</span>
                  </li>
                ))}
              </ul>
            ) : (
              WIZARD_TEXTS.noFiles
            )
          }
        />
      </dl>
      {errors.files ? <p className="field__error">{errors.files}</p> : null}
    </div>
  );
}
