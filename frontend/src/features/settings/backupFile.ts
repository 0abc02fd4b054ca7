import { checkBackup, INVALID_BACKUP, type BackupFile } from '@alignerflow/domain';
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

/**
 * The file as it will be restored, checked in the browser by the server's own rule (the domain's
 * checkBackup), so a bad file is named before it is sent: the backup, or the error to show.
 */
export function parseBackup(text: string): { backup: BackupFile } | { error: string } {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return { error: INVALID_BACKUP };
  }
  const checked = checkBackup(parsed, new Date().toISOString());
  return 'error' in checked ? { error: checked.error } : { backup: parsed as BackupFile };
}
