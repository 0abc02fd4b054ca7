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
  const hintId = useId();
  const describedBy = [hint ? hintId : null, errorId ?? null].filter(Boolean).join(' ') || undefined;
  return (
    <label className="field">
      <span className="field__label">{label}</span>
      {kind === 'totp' ? (
        <input
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
    </label>
  );
}
