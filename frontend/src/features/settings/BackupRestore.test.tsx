import { describe, expect, it, vi } from 'vitest';
import { fireEvent, render, screen } from '@testing-library/react';
import { fakeServer } from '../../test/fakeServer';
import { Toaster } from '../../components/Toaster';
import { backupFileName } from './backupFile';
import { BackupRestore } from './BackupRestore';

function setup(routes = {}) {
  const server = fakeServer(routes);
  render(
    <>
      <BackupRestore role="Manager" />
      <Toaster />
    </>,
  );
  return server;
}

const chooseFile = (content: string, name = 'backup.json') => {
  const input = screen.getByLabelText('Backup file (.json)') as HTMLInputElement;
  const file = new File([content], name, { type: 'application/json' });
  fireEvent.change(input, { target: { files: [file] } });
  return input;
};

const importButton = () => screen.getByRole('button', { name: 'Import Backup (.json)' }) as HTMLButtonElement;

describe('BackupRestore', () => {
  it('names the file alignerflow-backup-YYYY-MM-DD.json', () => {
    expect(backupFileName(new Date(2025, 2, 7, 23, 59))).toBe('alignerflow-backup-2025-03-07.json');
  });

  it('exports the backup as a pretty-printed JSON download', async () => {
    const backup = { users: [{ username: 'admin' }], cases: [] };
    setup({ 'GET /backup': { body: backup } });
    let saved: Blob | undefined;
    const createObjectURL = vi.fn((blob: Blob) => {
      saved = blob;
      return 'blob:backup';
    });
    vi.stubGlobal('URL', Object.assign(URL, { createObjectURL, revokeObjectURL: vi.fn() }));
    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => undefined);

    fireEvent.click(screen.getByRole('button', { name: 'Export Backup (.json)' }));
    await vi.waitFor(() => expect(click).toHaveBeenCalled());
    const link = click.mock.contexts[0] as HTMLAnchorElement;
    const today = new Date();
    const pad = (n: number) => String(n).padStart(2, '0');
    expect(link.download).toBe(
      `alignerflow-backup-${today.getFullYear()}-${pad(today.getMonth() + 1)}-${pad(today.getDate())}.json`,
    );
    expect(await saved!.text()).toBe(JSON.stringify(backup, null, 2));
  });

  it('keeps Import disabled until a file is chosen', () => {
    setup();
    expect(importButton().disabled).toBe(true);
    chooseFile('{}');
    expect(importButton().disabled).toBe(false);
  });

  it("rejects a file without users and cases arrays with 'Invalid backup file format.' and clears the input", async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const confirm = vi.spyOn(window, 'confirm').mockReturnValue(true);
    const server = setup();
    const input = chooseFile('{"users": []}');
    fireEvent.click(importButton());
    expect(confirm).toHaveBeenCalledWith(
      'Are you sure you want to restore from this backup? All current data will be overwritten.',
    );
    expect((await screen.findByRole('alert')).textContent).toBe('Invalid backup file format.');
    expect(input.value).toBe('');
    expect(importButton().disabled).toBe(true);
    expect(server.calls('POST', '/restore')).toHaveLength(0);
  });

  it("says 'File could not be read.' for an unreadable file", async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    vi.spyOn(window, 'confirm').mockReturnValue(true);
    setup();
    chooseFile('x');
    vi.spyOn(File.prototype, 'text').mockRejectedValue(new Error('NotReadableError'));
    fireEvent.click(importButton());
    expect((await screen.findByRole('alert')).textContent).toBe('File could not be read.');
  });

  it("restores a valid backup: 'Restore Complete'", async () => {
    vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    vi.spyOn(window, 'confirm').mockReturnValue(true);
    const backup = {
      users: [{ username: 'admin', role: 'Manager', password: 'secret-passphrase-9' }],
      cases: [],
    };
    // The reload after the restore is held: what the message shows beside must not wait for it.
    let reload!: () => void;
    const reloaded = new Promise<void>((resolve) => (reload = resolve));
    const server = setup({
      'POST /restore': { body: { users: 1, cases: 0 } },
      'GET /cases': async () => {
        await reloaded;
        return { body: [] };
      },
      'GET /users': { body: [] },
      'GET /dashboard': { body: {} },
    });
    const input = chooseFile(JSON.stringify(backup));
    // jsdom cannot show a chosen file in `value`: the emptying itself is what is watched.
    let emptied = false;
    Object.defineProperty(input, 'value', {
      configurable: true,
      get: () => '',
      set: (value: string) => (emptied ||= value === ''),
    });
    fireEvent.click(importButton());
    expect(await screen.findByText('Restore Complete')).toBeTruthy();
    expect(screen.getByText('System data has been restored from backup.')).toBeTruthy();
    expect(emptied).toBe(true);
    expect(server.calls('POST', '/restore')[0].body).toEqual(backup);
    reload();
    await vi.waitFor(() => expect(server.calls('GET', '/cases')).toHaveLength(1));
  });

  it("names an invalid entry before anything is sent, by the server's own check", async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    vi.spyOn(window, 'confirm').mockReturnValue(true);
    const server = setup();
    chooseFile(JSON.stringify({ users: [{ username: 'lab', role: 'Wizard', password: 'x' }], cases: [] }));
    fireEvent.click(importButton());
    expect(await screen.findByText(/role "Wizard" is unknown/)).toBeTruthy();
    expect(server.calls('POST', '/restore')).toHaveLength(0);
  });

  it('does nothing when the restore is not confirmed', () => {
    vi.spyOn(window, 'confirm').mockReturnValue(false);
    const server = setup();
    chooseFile('{"users":[],"cases":[]}');
    fireEvent.click(importButton());
    expect(server.requests).toHaveLength(0);
  });
});
