import { useRef, useState } from 'react';
import type { Role } from '@alignerflow/domain';
import { ApiError, StepUpCancelled, api } from '../../api/client';
import { loadAll } from '../../api/queries';
import { Icon } from '../../components/Icon';
import { toast } from '../../components/toastStore';
import { backupFileName, parseBackup, saveJsonFile } from './backupFile';
import { SETTINGS_TEXTS } from './texts';

export function BackupRestore({ role }: { role: Role }) {
  const fileInput = useRef<HTMLInputElement>(null);
  const [file, setFile] = useState<File | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState<'export' | 'import' | null>(null);

  async function exportBackup(): Promise<void> {
    setBusy('export');
    try {
      saveJsonFile(await api.backup(), backupFileName(new Date()));
    } catch (failure) {
      console.error('Backup export failed', failure);
      toast(SETTINGS_TEXTS.exportFailed, failure instanceof Error ? failure.message : undefined, 'error');
    } finally {
      setBusy(null);
    }
  }

  function clearFile(): void {
    setFile(null);
    if (fileInput.current) fileInput.current.value = '';
  }

  async function importBackup(): Promise<void> {
    if (!file || !window.confirm(SETTINGS_TEXTS.confirmRestore)) return;
    setBusy('import');
    setError(null);
    try {
      let text: string;
      try {
        text = await file.text();
      } catch (failure) {
        console.error('Backup file could not be read', failure);
        setError(SETTINGS_TEXTS.unreadableFile);
        return;
      }
      const parsed = parseBackup(text);
      if ('error' in parsed) {
        console.error('Invalid backup file', parsed.error);
        setError(parsed.error);
        return;
      }
      try {
        await api.restore(parsed.backup);
      } catch (failure) {
        console.error('Restore failed', failure);
        setError(
          (failure instanceof ApiError && failure.status === 400) || failure instanceof StepUpCancelled
            ? failure.message
            : SETTINGS_TEXTS.restoreFailed,
        );
        return;
      }
      // The file is spent before the data reloads, as the message says it is done.
      clearFile();
      toast(SETTINGS_TEXTS.restoreComplete, SETTINGS_TEXTS.restoreCompleteText);
      await loadAll(role).catch((failure) => console.warn('Reload after restore failed', failure));
    } finally {
      clearFile();
      setBusy(null);
    }
  }

  return (
    <div className="settings-section">
      <div className="card">
        <h3>{SETTINGS_TEXTS.systemBackup}</h3>
        <p className="muted small">{SETTINGS_TEXTS.systemBackupHint}</p>
        <button
          type="button"
          className="button button--primary"
          onClick={() => void exportBackup()}
          disabled={busy !== null}
        >
          <Icon name="download" />
          {SETTINGS_TEXTS.exportBackup}
        </button>
      </div>
      <div className="card form">
        <h3>{SETTINGS_TEXTS.restoreFromBackup}</h3>
        <p className="muted small">{SETTINGS_TEXTS.restoreHint}</p>
        <label className="field">
          <span className="field__label">{SETTINGS_TEXTS.backupFile}</span>
          <input
            ref={fileInput}
            type="file"
            accept=".json,application/json"
            onChange={(event) => {
              setError(null);
              setFile(event.target.files?.[0] ?? null);
            }}
          />
        </label>
        {error ? (
          <p className="form-error" role="alert">
            {error}
          </p>
        ) : null}
        <button
          type="button"
          className="button button--danger"
          onClick={() => void importBackup()}
          disabled={!file || busy !== null}
        >
          <Icon name="upload" />
          {SETTINGS_TEXTS.importBackup}
        </button>
      </div>
    </div>
  );
}
