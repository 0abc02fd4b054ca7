import { useId } from 'react';

interface CodeFieldProps {
  label: string;
  value: string;
  onChange: (value: string) => void;
  hint?: string;
  /** The id of the error that describes the field, when one is shown. */
  errorId?: string;
  /** A recovery code is letters and digits; an authenticator's code is 6 digits. */
  kind?: 'totp' | 'recovery';
  autoFocus?: boolean;
}

/** A one-time code input: the phone's keypad and the browser's one-time-code autofill. */
export function CodeField({
  label,
  value,
  onChange,
  hint,
  errorId,
  kind = 'totp',
  autoFocus,
}: CodeFieldProps) {
  const id = useId();
  const hintId = useId();
  const describedBy = [hint ? hintId : null, errorId ?? null].filter(Boolean).join(' ') || undefined;
  return (
    <div className="field">
      <label className="field__label" htmlFor={id}>
        {label}
      </label>
      {kind === 'totp' ? (
        <input
          id={id}
          name="code"
          inputMode="numeric"
          autoComplete="one-time-code"
          pattern="[0-9]*"
          maxLength={6}
          value={value}
          onChange={(event) => onChange(event.target.value.replace(/\D/g, ''))}
          aria-describedby={describedBy}
          autoFocus={autoFocus}
          data-autofocus={autoFocus ? true : undefined}
        />
      ) : (
        <input
          id={id}
          name="recoveryCode"
          autoComplete="off"
          autoCapitalize="none"
          spellCheck={false}
          value={value}
          onChange={(event) => onChange(event.target.value)}
          aria-describedby={describedBy}
          autoFocus={autoFocus}
          data-autofocus={autoFocus ? true : undefined}
        />
      )}
      {hint ? (
        <span id={hintId} className="hint">
          {hint}
        </span>
      ) : null}
    </div>
  );
}
