import { describe, expect, it, vi } from 'vitest';
import { fireEvent, render, screen } from '@testing-library/react';
import { startAuthentication } from '@simplewebauthn/browser';
import { api } from '../../api/client';
import { fakeServer, type FakeRequest } from '../../test/fakeServer';
import { manager } from '../../test/fixtures';
import { StepUpHost } from './StepUpHost';

vi.mock('@simplewebauthn/browser', () => ({ startRegistration: vi.fn(), startAuthentication: vi.fn() }));

const REAUTH = { status: 403, body: { error: 'Confirm it is you to continue.', reauth: true } };
const BACKUP = { users: [], cases: [], exportedAt: '2026-11-26T02:00:00.000Z' };

/** GET /backup needs a fresh proof until `POST /auth/reauth` accepts one of `accept`. */
function setup(
  accept: (body: Record<string, unknown>) => boolean,
  mfa = { totp: true, passkeys: 1, required: false },
) {
  let proved = false;
  const server = fakeServer({
    'GET /auth/me': { body: { user: manager, mfa } },
    'GET /backup': () => (proved ? { body: BACKUP } : REAUTH),
    'POST /auth/reauth': (request: FakeRequest) => {
      if (!accept(request.body as Record<string, unknown>))
        return { status: 401, body: { error: 'Invalid username or password.' } };
      proved = true;
      return { status: 204 };
    },
    'POST /auth/reauth/options': { body: { challenge: 'xyz' } },
  });
  render(<StepUpHost />);
  return server;
}

describe('StepUpHost: the re-authentication dialog', () => {
  it('asks for the password, then repeats the call that needed it', async () => {
    const server = setup((body) => body.password === 'correct horse');
    const backup = api.backup();
    const dialog = await screen.findByRole('dialog', { name: 'Confirm it is you' });
    expect(dialog.textContent).toContain('Confirm it is you to continue.');
    const password = screen.getByLabelText('Your password');
    await vi.waitFor(() => expect(document.activeElement).toBe(password));

    fireEvent.change(password, { target: { value: 'wrong' } });
    fireEvent.click(screen.getByRole('button', { name: 'Confirm' }));
    expect((await screen.findByRole('alert')).textContent).toBe('Invalid username or password.');

    fireEvent.change(password, { target: { value: 'correct horse' } });
    fireEvent.click(screen.getByRole('button', { name: 'Confirm' }));
    await expect(backup).resolves.toEqual(BACKUP);
    await vi.waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(server.calls('GET', '/backup')).toHaveLength(2);
  });

  it('takes an authenticator code instead', async () => {
    const server = setup((body) => body.code === '246810');
    const backup = api.backup();
    fireEvent.click(await screen.findByRole('button', { name: 'Use a code instead' }));
    fireEvent.change(screen.getByLabelText('6-digit code'), { target: { value: '246810' } });
    fireEvent.click(screen.getByRole('button', { name: 'Confirm' }));
    await expect(backup).resolves.toEqual(BACKUP);
    expect(server.calls('POST', '/auth/reauth')[0].body).toEqual({ code: '246810' });
  });

  it('takes a passkey instead', async () => {
    const credential = { id: 'cred', type: 'public-key', response: {} };
    vi.mocked(startAuthentication).mockResolvedValue(credential as never);
    const server = setup((body) => JSON.stringify(body.credential) === JSON.stringify(credential));
    const backup = api.backup();
    fireEvent.click(await screen.findByRole('button', { name: 'Use a passkey' }));
    await expect(backup).resolves.toEqual(BACKUP);
    expect(vi.mocked(startAuthentication)).toHaveBeenCalledWith({ optionsJSON: { challenge: 'xyz' } });
    expect(server.calls('POST', '/auth/reauth/options')).toHaveLength(1);
  });

  it('asks once for calls waiting together, and Cancel rejects them with a clear message', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const server = setup(() => true, { totp: false, passkeys: 0, required: false });
    const first = api.backup();
    const second = api.backup();
    await screen.findByRole('dialog', { name: 'Confirm it is you' });
    expect(screen.getAllByRole('dialog')).toHaveLength(1);
    expect(screen.queryByRole('button', { name: 'Use a code instead' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Use a passkey' })).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    const cancelled = 'Cancelled: this needs you to confirm it is you.';
    await expect(first).rejects.toMatchObject({ name: 'StepUpCancelled', message: cancelled });
    await expect(second).rejects.toMatchObject({ name: 'StepUpCancelled', message: cancelled });
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(server.calls('POST', '/auth/reauth')).toHaveLength(0);
    expect(server.calls('GET', '/backup')).toHaveLength(2);
  });
});
