import { useEffect, useRef, useState } from 'react';
import { addDays, DEFAULT_DUE_IN_DAYS, type Case, type User } from '@alignerflow/domain';
import { cache } from '../../api/cache';
import { Dialog } from '../../components/Dialog';
import { isoDay } from '../../components/format';
import { CaseInfoStep } from './CaseInfoStep';
import { createCase } from './createCase';
import { FilesStep } from './FilesStep';
import { PatientDetailsStep } from './PatientDetailsStep';
import { PaymentStep } from './PaymentStep';
import { ReviewStep } from './ReviewStep';
import { StepIndicator } from './StepIndicator';
import { WIZARD_TEXTS } from './texts';
import { uploadErrorText } from '../../api/uploadFile';
import { PHOTO_SLOTS, STL_SLOTS, type SlotDefinition } from './uploadSlots';
import { usePayment } from './usePayment';
import { useUploads } from './useUploads';
import {
  errorsOfStep,
  FIELD_STEP,
  STEP_LABELS,
  validateForm,
  wizardSteps,
  type FieldErrors,
  type FieldKey,
  type WizardForm,
} from './wizardSteps';
import { errorMessage } from '../../api/errorMessage';

interface NewCaseWizardProps {
  user: User;
  onClose: () => void;
  onCreated: (created: Case) => void;
}

function initialForm(user: User): WizardForm {
  return {
    patientName: '',
    // A doctor creating a case is its doctor (the server also records them as assigned doctor).
    doctorName: user.role === 'Doctor' ? user.username : '',
    clinicName: '',
    priority: 'Normal',
    deliveryDate: addDays(isoDay(new Date()), DEFAULT_DUE_IN_DAYS),
    treatmentPlanNotes: '',
    price: '',
    upperSheets: '',
    lowerSheets: '',
  };
}

/** 'New Clear Aligner Case': the step-by-step form of spec section 2, with uploads and the doctor's fee. */
export function NewCaseWizard({ user, onClose, onCreated }: NewCaseWizardProps) {
  const steps = wizardSteps(user.role);
  const [index, setIndex] = useState(0);
  const [form, setForm] = useState(() => initialForm(user));
  const [errors, setErrors] = useState<FieldErrors>({});
  const [submitting, setSubmitting] = useState(false);
  const [submitError, setSubmitError] = useState<string | null>(null);
  const [focusRequest, setFocusRequest] = useState(0);
  const uploads = useUploads();
  const payment = usePayment(() => setIndex(steps.indexOf('review')));
  const body = useRef<HTMLDivElement>(null);
  const step = steps[index];
  const last = index === steps.length - 1;

  // Each step starts at its first field; a refused step starts at its first message.
  useEffect(() => {
    const target =
      body.current?.querySelector<HTMLElement>('[aria-invalid="true"]') ??
      body.current?.querySelector<HTMLElement>('[data-autofocus]') ??
      body.current?.querySelector<HTMLElement>('h3');
    target?.focus();
  }, [index, focusRequest]);

  function change(patch: Partial<WizardForm>): void {
    setForm((current) => ({ ...current, ...patch }));
    setErrors((current) => {
      const cleared = Object.keys(patch) as FieldKey[];
      if ('upperSheets' in patch || 'lowerSheets' in patch) cleared.push('sheets');
      if (!cleared.some((field) => field in current)) return current;
      const next = { ...current };
      for (const field of cleared) delete next[field];
      return next;
    });
  }

  const now = () => new Date().toISOString();

  function next(): void {
    const stepErrors = errorsOfStep(validateForm(form, uploads.done, now()), step);
    if (Object.keys(stepErrors).length) {
      setErrors(stepErrors);
      setFocusRequest((n) => n + 1);
      return;
    }
    setErrors({});
    setIndex(index + 1);
  }

  function back(): void {
    setErrors({});
    setIndex(Math.max(0, index - 1));
  }

  async function submit(): Promise<void> {
    setSubmitError(null);
    const all = validateForm(form, uploads.done, now());
    const fields = Object.keys(all) as FieldKey[];
    if (fields.length) {
      setErrors(all);
      setFocusRequest((n) => n + 1);
      const first = Math.min(...fields.map((field) => steps.indexOf(FIELD_STEP[field])));
      setIndex(first);
      return;
    }
    if (uploads.error) return;
    setSubmitting(true);
    let files;
    try {
      files = await uploads.waitForAll();
    } catch (error) {
      setSubmitting(false);
      setSubmitError(uploadErrorText(error));
      return;
    }
    try {
      const created = await createCase(form, files);
      cache.upsertCase(created);
      onCreated(created);
    } catch (error) {
      setSubmitting(false);
      setSubmitError(errorMessage(error));
    }
  }

  const choose = (slot: SlotDefinition, file: File) => {
    setSubmitError(null);
    uploads.choose(slot, file);
  };
  const remove = (slot: SlotDefinition) => {
    setSubmitError(null);
    uploads.remove(slot.key);
  };

  const footerError = submitError ?? uploads.error;
  const blockedByPayment = step === 'payment' && payment.status !== 'paid';

  return (
    <Dialog
      title={WIZARD_TEXTS.title}
      onClose={onClose}
      size="large"
      footer={
        <div className="wizard-footer">
          {footerError ? (
            <p className="wizard-footer__error" role="alert">
              {footerError}
            </p>
          ) : null}
          <div className="wizard-footer__buttons">
            {index === 0 ? (
              <button type="button" className="button button--ghost" onClick={onClose}>
                {WIZARD_TEXTS.cancel}
              </button>
            ) : (
              <button
                type="button"
                className="button button--ghost"
                onClick={back}
                disabled={submitting || payment.status === 'paying'}
              >
                {WIZARD_TEXTS.back}
              </button>
            )}
            {last ? (
              <button
                type="button"
                className="button button--primary"
                onClick={() => void submit()}
                disabled={submitting}
                aria-busy={submitting || undefined}
              >
                {submitting ? WIZARD_TEXTS.submitting : WIZARD_TEXTS.submit}
              </button>
            ) : (
              <button
                type="button"
                className="button button--primary"
                onClick={next}
                disabled={blockedByPayment}
              >
                {WIZARD_TEXTS.next}
              </button>
            )}
          </div>
        </div>
      }
    >
      <StepIndicator steps={steps} current={index} />
      <div ref={body} className="wizard-body">
        <h3 tabIndex={-1} className="wizard-body__title">
          {STEP_LABELS[step]}
        </h3>
        {step === 'caseInfo' ? <CaseInfoStep form={form} errors={errors} onChange={change} /> : null}
        {step === 'patient' ? <PatientDetailsStep form={form} errors={errors} onChange={change} /> : null}
        {step === 'stl' ? (
          <FilesStep
            hint={WIZARD_TEXTS.stlHint}
            slots={STL_SLOTS}
            states={uploads.slots}
            onChoose={choose}
            onRemove={remove}
          />
        ) : null}
        {step === 'photos' ? (
          <FilesStep
            hint={WIZARD_TEXTS.photosHint}
            slots={PHOTO_SLOTS}
            states={uploads.slots}
            onChoose={choose}
            onRemove={remove}
          />
        ) : null}
        {step === 'payment' ? (
          <PaymentStep status={payment.status} progress={payment.progress} onPay={payment.pay} />
        ) : null}
        {step === 'review' ? (
          <ReviewStep
            form={form}
            files={uploads.done}
            paid={steps.includes('payment') ? payment.status === 'paid' : null}
            errors={errors}
          />
        ) : null}
      </div>
    </Dialog>
  );
}
