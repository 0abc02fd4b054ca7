import { useId, useState, type FormEvent } from 'react';
import { PRIORITIES, type Case, type CaseDetails, type Priority, type User } from '@alignerflow/domain';
import { Dialog } from '../../components/Dialog';
import { toast } from '../../components/toastStore';
import { ActionError } from '../case-shared/ActionError';
import { latest } from './latest';
import { caseDetailApi } from '../case-shared/caseDetailApi';
import { invalidInput } from './invalidInput';
import { CASE_DETAIL_TEXTS as T } from './texts';
import { useCaseCommand, type CaseCommandRunner } from '../case-shared/useCaseCommand';
import { useCaseRecord } from './useCaseRecord';

interface EditCaseDialogProps {
  caseId: string;
  user: User;
  onClose: () => void;
}

type Field = keyof CaseDetails;

const editOf = (item: Case): CaseDetails => ({
  patientName: item.patientName,
  doctorName: item.doctorName,
  clinicName: item.clinicName,
  priority: item.priority,
  treatmentPlanNotes: item.treatmentPlanNotes ?? '',
  simulationVideoUrl: item.simulationVideoUrl ?? '',
  simulationExternalLink: item.simulationExternalLink ?? '',
  deliveryDate: item.deliveryDate,
});

const FIELDS: {
  field: Field;
  label: string;
  type: 'text' | 'url' | 'date' | 'textarea';
  required?: boolean;
}[] = [
  { field: 'patientName', label: T.patientName, type: 'text', required: true },
  { field: 'doctorName', label: T.doctorName, type: 'text', required: true },
  { field: 'clinicName', label: T.clinicName, type: 'text', required: true },
  { field: 'deliveryDate', label: T.dueDate, type: 'date' },
  { field: 'treatmentPlanNotes', label: T.treatmentPlanNotes, type: 'textarea' },
  { field: 'simulationVideoUrl', label: T.simulationVideoUrl, type: 'url' },
  { field: 'simulationExternalLink', label: T.externalSimulationLink, type: 'url' },
];

/** 'Edit Case: {id}' (Managers): the case's details, validated by the domain, saved with PUT /cases/{id}. */
export function EditCaseDialog({ caseId, user, onClose }: EditCaseDialogProps) {
  const formId = useId();
  const record = useCaseRecord(caseId);
  const commands = useCaseCommand(caseId);
  const item = record.status === 'ready' ? record.item : null;
  const footer = (
    <>
      <button type="button" className="button button--ghost" onClick={onClose}>
        {T.cancel}
      </button>
      {item ? (
        <button
          type="submit"
          form={formId}
          className="button button--primary"
          disabled={commands.busy === 'edit'}
        >
          {commands.busy === 'edit' ? T.saving : T.saveChanges}
        </button>
      ) : null}
    </>
  );
  return (
    <Dialog title={T.editTitle(caseId)} onClose={onClose} footer={footer}>
      {item ? (
        <EditCaseForm formId={formId} item={item} user={user} commands={commands} onClose={onClose} />
      ) : record.status === 'loading' ? (
        <p className="muted" role="status">
          {T.loading}
        </p>
      ) : (
        <p className="form-error" role="alert">
          {record.status === 'failed' ? record.reason : T.notFound}
        </p>
      )}
    </Dialog>
  );
}

interface EditCaseFormProps {
  formId: string;
  item: Case;
  user: User;
  commands: CaseCommandRunner;
  onClose: () => void;
}

function EditCaseForm({ formId, item, user, commands, onClose }: EditCaseFormProps) {
  const id = useId();
  // The form edits the case as it was when opened and Save sends that version, so a change made
  // meanwhile answers 409 with its message; after that, Save applies to the reloaded case.
  const [base, setBase] = useState(item);
  const [values, setValues] = useState<CaseDetails>(() => editOf(item));
  const [errors, setErrors] = useState<Partial<Record<Field, string>>>({});

  /** The domain's verdict on one field (the same checkText messages the server answers with). */
  const check = (field: Field, value: unknown) =>
    invalidInput(base, user, { type: 'EditCase', fields: { [field]: value } });

  function set(field: Field, value: string) {
    setValues((current) => ({ ...current, [field]: value }));
    if (errors[field]) setErrors((current) => ({ ...current, [field]: check(field, value) }));
  }

  async function save(event: FormEvent) {
    event.preventDefault();
    const found: Partial<Record<Field, string>> = {};
    for (const field of Object.keys(values) as Field[]) {
      const message = check(field, values[field]);
      if (message) found[field] = message;
    }
    setErrors(found);
    if (Object.keys(found).length) {
      document.getElementById(`${id}-${Object.keys(found)[0]}`)?.focus();
      return;
    }
    const fields: CaseDetails = { ...values, deliveryDate: values.deliveryDate || null };
    if (await commands.run('edit', () => caseDetailApi.edit(base, fields))) {
      toast(T.caseUpdated);
      onClose();
    } else {
      setBase(latest(base));
    }
  }

  const input = (spec: (typeof FIELDS)[number]) => {
    const fieldId = `${id}-${spec.field}`;
    const error = errors[spec.field];
    const common = {
      id: fieldId,
      value: values[spec.field] ?? '',
      required: spec.required,
      'aria-invalid': error ? true : undefined,
      'aria-describedby': error ? `${fieldId}-error` : undefined,
      'data-autofocus': spec.field === 'patientName' ? true : undefined,
      onChange: (event: { target: { value: string } }) => set(spec.field, event.target.value),
    };
    return (
      <div className="field" key={spec.field}>
        <label className="field__label" htmlFor={fieldId}>
          {spec.label}
          {spec.required ? <span aria-hidden="true"> *</span> : null}
        </label>
        {spec.type === 'textarea' ? (
          <textarea {...common} rows={3} />
        ) : (
          <input {...common} type={spec.type} inputMode={spec.type === 'url' ? 'url' : undefined} />
        )}
        {error ? (
          <span id={`${fieldId}-error`} className="cd-field-error">
            {error}
          </span>
        ) : null}
      </div>
    );
  };

  return (
    <form id={formId} onSubmit={save} noValidate className="cd-edit-form">
      {input(FIELDS[0])}
      <div className="form__grid">
        {input(FIELDS[1])}
        {input(FIELDS[2])}
      </div>
      <div className="form__grid">
        <div className="field">
          <label className="field__label" htmlFor={`${id}-priority`}>
            {T.priority}
          </label>
          <select
            id={`${id}-priority`}
            value={values.priority}
            onChange={(event) => set('priority', event.target.value as Priority)}
          >
            {PRIORITIES.map((priority) => (
              <option key={priority} value={priority}>
                {priority === 'High' ? T.priorityHigh : T.priorityNormal}
              </option>
            ))}
          </select>
        </div>
        {input(FIELDS[3])}
      </div>
      {input(FIELDS[4])}
      {input(FIELDS[5])}
      {input(FIELDS[6])}
      <ActionError message={commands.errors.edit} />
    </form>
  );
}
