import { useId, useState, type FormEvent } from 'react';
import { Dialog } from '../../components/Dialog';
import { ActionError } from '../case-shared/ActionError';
import { CASE_DETAIL_TEXTS } from './texts';

interface TextPromptDialogProps {
  title: string;
  label: string;
  hint?: string;
  submitLabel: string;
  /** The domain's verdict on the text: a message when it cannot be sent. */
  validate: (text: string) => string | undefined;
  onSubmit: (text: string) => Promise<boolean>;
  busy: boolean;
  /** The server's answer when the command failed. */
  error?: string;
  onClose: () => void;
  danger?: boolean;
}

/** Asks for a required text (a rejection reason, a change request) before a command is sent. */
export function TextPromptDialog({
  title,
  label,
  hint,
  submitLabel,
  validate,
  onSubmit,
  busy,
  error,
  onClose,
  danger,
}: TextPromptDialogProps) {
  const formId = useId();
  const fieldId = useId();
  const [text, setText] = useState('');
  const [problem, setProblem] = useState<string | undefined>();

  async function submit(event: FormEvent) {
    event.preventDefault();
    const message = validate(text);
    setProblem(message);
    if (message) return;
    if (await onSubmit(text.trim())) onClose();
  }

  const message = problem ?? error;
  return (
    <Dialog
      title={title}
      onClose={onClose}
      size="small"
      footer={
        <>
          <button type="button" className="button button--ghost" onClick={onClose}>
            {CASE_DETAIL_TEXTS.cancel}
          </button>
          <button
            type="submit"
            form={formId}
            className={`button ${danger ? 'button--danger' : 'button--primary'}`}
            disabled={busy}
          >
            {submitLabel}
          </button>
        </>
      }
    >
      <form id={formId} onSubmit={submit} noValidate>
        <div className="field">
          <label className="field__label" htmlFor={fieldId}>
            {label}
          </label>
          <textarea
            id={fieldId}
            rows={4}
            value={text}
            required
            data-autofocus
            aria-invalid={problem ? true : undefined}
            aria-describedby={hint ? `${fieldId}-hint` : undefined}
            onChange={(event) => {
              setText(event.target.value);
              if (problem) setProblem(undefined);
            }}
          />
          {hint ? (
            <span id={`${fieldId}-hint`} className="hint cd-hint">
              {hint}
            </span>
          ) : null}
        </div>
        <ActionError message={message} />
      </form>
    </Dialog>
  );
}
