import { useId, useState, type FormEvent, type ReactNode } from 'react';
import { Dialog } from '../../components/Dialog';
import { errorText } from './billingApi';
import { BILLING_SCREEN_TEXTS as T } from './texts';

interface MoneyCommandDialogProps {
  title: string;
  submitLabel: string;
  onClose: () => void;
  /** Sends the command; a rejection's text is shown in the dialog, which stays open. */
  onSubmit: () => Promise<void>;
  children: ReactNode;
  danger?: boolean;
}

/** The frame of Record payment, Credit note and Void: a form, its error announced, busy while sent. */
export function MoneyCommandDialog({
  title,
  submitLabel,
  onClose,
  onSubmit,
  children,
  danger,
}: MoneyCommandDialogProps) {
  const formId = useId();
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string>();
  async function submit(event: FormEvent) {
    event.preventDefault();
    setBusy(true);
    setProblem(undefined);
    try {
      await onSubmit();
    } catch (error) {
      setProblem(errorText(error));
      setBusy(false);
    }
  }
  return (
    <Dialog
      title={title}
      onClose={onClose}
      size="small"
      footer={
        <>
          <button type="button" className="button button--ghost" onClick={onClose}>
            {T.cancel}
          </button>
          <button
            type="submit"
            form={formId}
            className={danger ? 'button button--danger' : 'button button--primary'}
            disabled={busy}
          >
            {submitLabel}
          </button>
        </>
      }
    >
      <form id={formId} className="billing-form" onSubmit={submit} noValidate>
        {children}
        <p className="form-error" role="alert">
          {problem}
        </p>
      </form>
    </Dialog>
  );
}
