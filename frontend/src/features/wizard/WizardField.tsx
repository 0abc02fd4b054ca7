import { useId, type ReactNode } from 'react';

interface WizardFieldProps {
  label: string;
  value: string;
  onChange: (value: string) => void;
  type?: 'text' | 'date' | 'number' | 'textarea';
  required?: boolean;
  error?: string;
  hint?: ReactNode;
  autoFocus?: boolean;
  step?: string;
  min?: string;
  autoComplete?: string;
}

/** A labelled input with its message below; the message is tied to the input for screen readers. */
export function WizardField({
  label,
  value,
  onChange,
  type = 'text',
  required,
  error,
  hint,
  autoFocus,
  step,
  min,
  autoComplete = 'off',
}: WizardFieldProps) {
  const id = useId();
  const messageId = `${id}-message`;
  const common = {
    id,
    value,
    required,
    'aria-invalid': error ? true : undefined,
    'aria-describedby': error || hint ? messageId : undefined,
    'data-autofocus': autoFocus ? true : undefined,
  };
  return (
    <div className="field">
      <label htmlFor={id} className={`field__label${required ? ' field__label--required' : ''}`}>
        {label}
      </label>
      {type === 'textarea' ? (
        <textarea {...common} rows={4} onChange={(event) => onChange(event.target.value)} />
      ) : (
        <input
          {...common}
          type={type}
          step={step}
          min={min}
          inputMode={type === 'number' ? 'decimal' : undefined}
          autoComplete={autoComplete}
          onChange={(event) => onChange(event.target.value)}
        />
      )}
      {error ? (
        <span id={messageId} className="field__error" role="alert">
          {error}
        </span>
      ) : hint ? (
        <span id={messageId} className="hint">
          {hint}
        </span>
      ) : null}
    </div>
  );
}
