import { parseDueDay } from '@alignerflow/domain';

/**
 * One formatter for every date shown: `toLocaleDateString` builds a new one per call, and a list
 * of rows spent most of its render there (docs/performance.md, "Figures behind comments"). Made
 * at start, while the app waits for its data.
 */
const DATE_FORMAT = new Intl.DateTimeFormat(undefined, { year: 'numeric', month: 'short', day: 'numeric' });

/** 'N/A' for a missing date (spec section 2); a plain 'YYYY-MM-DD' is read as a local calendar date. */
export const NOT_AVAILABLE = 'N/A';

export function formatDate(value: string | null | undefined): string {
  if (!value) return NOT_AVAILABLE;
  const date = parseDueDay(value);
  return Number.isNaN(date.getTime()) ? NOT_AVAILABLE : DATE_FORMAT.format(date);
}

/** 'YYYY-MM-DD' of a local date (file names, comparisons). */
export function isoDay(date: Date): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
}

export function formatHours(hours: number): string {
  if (!Number.isFinite(hours)) return NOT_AVAILABLE;
  if (hours < 24) return `${Math.round(hours)} h`;
  return `${(hours / 24).toFixed(1)} d`;
}
