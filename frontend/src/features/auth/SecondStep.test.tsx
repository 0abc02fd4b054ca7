import { describe, expect, it, vi } from 'vitest';
import { fireEvent, render, screen } from '@testing-library/react';
import { startAuthentication } from '@simplewebauthn/browser';
import type { MfaMethod } from '@alignerflow/domain';
import { fakeServer, type Route } from '../../test/fakeServer';
import { manager } from '../../test/fixtures';
import { LoginScreen } from './LoginScreen';

vi.mock('@simplewebauthn/browser', () => ({ startRegistration: vi.fn(), startAuthentication: vi.fn() }));

const TOKEN = 'mfa-token-1';
const SIGNED_IN = { body: { user: manager, token: 't' } };
const credential = { id: 'cred', type: 'public-key', response: {} };

function challenge(methods: MfaMethod[] = ['totp', 'passkey', 'recovery']) {
  return { body: { mfaRequired: true, mfaToken: TOKEN, methods } };
}

/** The login screen after a right password of a user with a second factor. */
async function atSecondStep(routes: Record<string, Route>, methods?: MfaMethod[]) {
  const server = fakeServer({ 'POST /auth/login': challenge(methods), ...routes });
  const onSignedIn = vi.fn();
  render(<LoginScreen demo={false} onSignedIn={onSignedIn} />);
  fireEvent.change(screen.getByLabelText('Username'), { target: { value: 'admin' } });
  fireEvent.change(screen.getByLabelText('Password'), { target: { value: 'a long passphrase' } });
  fireEvent.click(screen.getByRole('button', { name: 'Login' }));
  await screen.findByRole('heading', { name: 'Two-step sign-in' });
  return { server, onSignedIn };
}

const enterCode = (label: string, code: string) => {
  fireEvent.change(screen.getByLabelText(label), { target: { value: code } });
  fireEvent.click(screen.getByRole('button', { name: 'Verify' }));
};

describe('sign-in, second step', () => {
  it('asks for the code after the password and signs in with it', async () => {
    const { server, onSignedIn } = await atSecondStep({ 'POST /auth/login/mfa': SIGNED_IN });
    const code = screen.getByLabelText('6-digit code');
    await vi.waitFor(() => expect(document.activeElement).toBe(code));
    enterCode('6-digit code', '123456');
    await vi.waitFor(() => expect(onSignedIn).toHaveBeenCalledWith(manager));
    expect(server.calls('POST', '/auth/login/mfa')[0].body).toEqual({ mfaToken: TOKEN, code: '123456' });
  });

  it("shows 'The code is not valid.' for a wrong code and lets the user try again", async () => {
    let tries = 0;
    const { onSignedIn } = await atSecondStep({
      'POST /auth/login/mfa': () =>
        ++tries === 1 ? { status: 401, body: { error: 'The code is not valid.' } } : SIGNED_IN,
    });
    enterCode('6-digit code', '000000');
    expect((await screen.findByRole('alert')).textContent).toBe('The code is not valid.');
    expect((screen.getByLabelText('6-digit code') as HTMLInputElement).value).toBe('');
    expect(screen.getByLabelText('6-digit code').getAttribute('aria-describedby')).toBe(
      screen.getByRole('alert').id,
    );
    enterCode('6-digit code', '123456');
    await vi.waitFor(() => expect(onSignedIn).toHaveBeenCalledWith(manager));
  });

  it("returns to the first step with 'Sign in again.' when the token is spent", async () => {
    const { onSignedIn } = await atSecondStep({
      'POST /auth/login/mfa': { status: 401, body: { error: 'Sign in again.' } },
    });
    enterCode('6-digit code', '000000');
    expect((await screen.findByRole('alert')).textContent).toBe('Sign in again.');
    expect(screen.getByRole('button', { name: 'Login' })).toBeTruthy();
    expect((screen.getByLabelText('Password') as HTMLInputElement).value).toBe('');
    expect((screen.getByLabelText('Username') as HTMLInputElement).value).toBe('admin');
    expect(onSignedIn).not.toHaveBeenCalled();
  });

  it('takes a recovery code instead', async () => {
    const { server, onSignedIn } = await atSecondStep({ 'POST /auth/login/mfa': SIGNED_IN });
    fireEvent.click(screen.getByRole('button', { name: 'Use a recovery code' }));
    enterCode('Recovery code', ' abcd-efgh-1234 ');
    await vi.waitFor(() => expect(onSignedIn).toHaveBeenCalledWith(manager));
    expect(server.calls('POST', '/auth/login/mfa')[0].body).toEqual({
      mfaToken: TOKEN,
      recoveryCode: 'abcd-efgh-1234',
    });
  });

  it('takes a passkey as the second step', async () => {
    vi.mocked(startAuthentication).mockResolvedValue(credential as never);
    const { server, onSignedIn } = await atSecondStep(
      {
        'POST /auth/passkeys/login/options': { body: { challenge: 'c2' } },
        'POST /auth/login/mfa': SIGNED_IN,
      },
      ['passkey'],
    );
    expect(screen.queryByLabelText('6-digit code')).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Use a passkey' }));
    await vi.waitFor(() => expect(onSignedIn).toHaveBeenCalledWith(manager));
    expect(server.calls('POST', '/auth/passkeys/login/options')[0].body).toEqual({ mfaToken: TOKEN });
    expect(server.calls('POST', '/auth/login/mfa')[0].body).toEqual({ mfaToken: TOKEN, credential });
  });

  it('Back to sign-in leaves the second step', async () => {
    await atSecondStep({});
    fireEvent.click(screen.getByRole('button', { name: 'Back to sign-in' }));
    expect(screen.getByRole('button', { name: 'Login' })).toBeTruthy();
    expect(screen.queryByRole('alert')).toBeNull();
  });
});

describe('Sign in with a passkey', () => {
  it('signs in with a passkey alone', async () => {
    vi.mocked(startAuthentication).mockResolvedValue(credential as never);
    const server = fakeServer({
      'POST /auth/passkeys/login/options': { body: { challenge: 'c1' } },
      'POST /auth/passkeys/login': SIGNED_IN,
    });
    const onSignedIn = vi.fn();
    render(<LoginScreen demo={false} onSignedIn={onSignedIn} />);
    fireEvent.click(screen.getByRole('button', { name: 'Sign in with a passkey' }));
    await vi.waitFor(() => expect(onSignedIn).toHaveBeenCalledWith(manager));
    expect(server.calls('POST', '/auth/passkeys/login/options')[0].body).toEqual({});
    expect(vi.mocked(startAuthentication)).toHaveBeenCalledWith({ optionsJSON: { challenge: 'c1' } });
    expect(server.calls('POST', '/auth/passkeys/login')[0].body).toEqual({ credential });
  });

  it("says so when no passkey was used, and shows the server's refusal", async () => {
    vi.mocked(startAuthentication).mockRejectedValueOnce(
      Object.assign(new Error('not allowed'), { name: 'NotAllowedError' }),
    );
    fakeServer({
      'POST /auth/passkeys/login/options': { body: { challenge: 'c1' } },
      'POST /auth/passkeys/login': { status: 401, body: { error: 'Invalid username or password.' } },
    });
    render(<LoginScreen demo={false} onSignedIn={() => undefined} />);
    fireEvent.click(screen.getByRole('button', { name: 'Sign in with a passkey' }));
    expect((await screen.findByRole('alert')).textContent).toBe('No passkey was used.');
    vi.mocked(startAuthentication).mockResolvedValueOnce(credential as never);
    fireEvent.click(screen.getByRole('button', { name: 'Sign in with a passkey' }));
    await vi.waitFor(() =>
      expect(screen.getByRole('alert').textContent).toBe('Invalid username or password.'),
    );
  });
});
