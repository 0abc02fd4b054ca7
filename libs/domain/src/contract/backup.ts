/** `POST /restore` (api.md, Backup and event log); `GET /backup`'s file is BackupContents (backup/). */

/** `POST /restore`'s body: a backup file as read, older formats too; checkBackup judges every entry. */
export interface BackupFile {
  users: unknown[];
  cases: unknown[];
  /** Invoices and billing settings (checkBackupBilling); absent in a backup made before billing. */
  billing?: unknown;
}

/** `POST /restore`: how many users and cases the restored data holds. */
export interface RestoreAnswer {
  users: number;
  cases: number;
}
