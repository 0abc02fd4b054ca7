import { useId, useState } from 'react';
import { SCAN_TEXTS } from './texts';

/** Typing the code instead of scanning it: for a camera that cannot be used, and for keyboard users. */
export function ManualEntry({
  open,
  disabled,
  onSubmit,
}: {
  open: boolean;
  disabled: boolean;
  onSubmit: (text: string) => void;
}) {
  const id = useId();
  const [text, setText] = useState('');
  return (
    <details className="scanner__manual" open={open || undefined}>
      <summary>{SCAN_TEXTS.manualTitle}</summary>
      <form
        className="scanner__manual-form"
        onSubmit={(event) => {
          event.preventDefault();
          if (text.trim()) onSubmit(text);
        }}
      >
        <label htmlFor={id} className="field__label">
          {SCAN_TEXTS.manualLabel}
        </label>
        <div className="scanner__manual-row">
          <input
            id={id}
            value={text}
            onChange={(event) => setText(event.target.value)}
            autoComplete="off"
            spellCheck={false}
          />
          <button type="submit" className="button button--secondary" disabled={disabled || !text.trim()}>
            {SCAN_TEXTS.manualSubmit}
          </button>
        </div>
      </form>
    </details>
  );
}
