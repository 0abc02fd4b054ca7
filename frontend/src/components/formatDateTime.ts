import { NOT_AVAILABLE } from './format';

/** Date and time of an ISO timestamp in the user's locale ('N/A' when absent or unreadable). */
export function formatDateTime(value: string | null | undefined): string {
  if (!value) return NOT_AVAILABLE;
  const date = new Date(value);
  return Number.isNaN(date.getTime())
    ? NOT_AVAILABLE
    : date.toLocaleString(undefined, {
        year: 'numeric',
        month: 'short',
        day: 'numeric',
        hour: '2-digit',
        minute: '2-digit',
      });
}
