import type { Backup } from '../../api/client';
import { isoDay } from '../../components/format';

/** alignerflow-backup-YYYY-MM-DD.json (product decisions). */
export function backupFileName(date: Date = new Date()): string {
  return `alignerflow-backup-${isoDay(date)}.json`;
}

/** Saves data as a pretty-printed (2-space) JSON download. */
export function saveJsonFile(data: unknown, fileName: string): void {
  const blob = new Blob([JSON.stringify(data, null, 2)], { type: 'application/json' });
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

/** A backup is JSON with both a users array and a cases array. */
export function parseBackup(text: string): Backup | null {
  try {
    const parsed: unknown = JSON.parse(text);
    if (!parsed || typeof parsed !== 'object') return null;
    const { users, cases } = parsed as { users?: unknown; cases?: unknown };
    return Array.isArray(users) && Array.isArray(cases) ? (parsed as Backup) : null;
  } catch {
    return null;
  }
}
