import { useId } from 'react';

interface AmountFieldProps {
  label: string;
  value: string;
  onChange: (value: string) => void;
  currency: string;
  autoFocus?: boolean;
}

/** An amount typed in major units ("12.50"); the dialogs send it in minor units. */
export function AmountField({ label, value, onChange, currency, autoFocus }: AmountFieldProps) {
  const id = useId();
  return (
    <div className="field">
      <label className="field__label" htmlFor={id}>
        {label} ({currency})
      </label>
      <input
        id={id}
        inputMode="decimal"
        value={value}
        data-autofocus={autoFocus ? true : undefined}
        onChange={(event) => onChange(event.target.value)}
      />
    </div>
  );
}

/** "12.5" → 1250; text that is not an amount → NaN, which the server answers with its rule text. */
export function minorUnitsOf(text: string): number {
  const trimmed = text.trim().replace(/,/g, '');
  if (!/^-?\d+(\.\d{1,2})?$/.test(trimmed)) return Number.NaN;
  const [whole, fraction = ''] = trimmed.replace('-', '').split('.');
  const minor = Number(whole) * 100 + Number(`${fraction}00`.slice(0, 2));
  return trimmed.startsWith('-') ? -minor : minor;
}
