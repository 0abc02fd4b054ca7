import type { ReactNode } from 'react';

interface FactProps {
  term: ReactNode;
  value: ReactNode;
  /** A quieter line after the value (what it means, where it comes from). */
  hint?: ReactNode;
  /** The pair's wrapper: a list's own classes, e.g. a fact spanning the whole row. */
  className?: string;
  valueClassName?: string;
  valueTestId?: string;
}

/**
 * One term and its value in a fact list (`<dl>`): every screen's pairs share this markup, the
 * `<div>` that keeps a pair together in the list's grid, then `<dt>` and `<dd>`.
 */
export function Fact({ term, value, hint, className, valueClassName, valueTestId }: FactProps) {
  return (
    <div className={className}>
      <dt>{term}</dt>
      <dd className={valueClassName} data-testid={valueTestId}>
        {value}
        {hint ? <span className="fact__hint muted small">{hint}</span> : null}
      </dd>
    </div>
  );
}
