import { afterEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, render, screen, within } from '@testing-library/react';
import { startRegistration } from '@simplewebauthn/browser';
import type { MfaStatus, Passkey } from '@alignerflow/domain';
import { fakeServer } from '../../test/fakeServer';
import { accountRoutes, noFactors, technician } from '../../test/fixtures';
import { Toaster } from '../../components/Toaster';
import { TwoStepSignIn } from './TwoStepSignIn';

// The lazily loaded libraries are the boundaries: jsdom has no canvas and no authenticator.
const toDataURL = vi.hoisted(() => vi.fn(async (text: string) => `data:image/png;base64,${btoa(text)}`));
vi.mock('qrcode', () => ({ default: { toDataURL }, toDataURL }));
vi.mock('@simplewebauthn/browser', () => ({
  startRegistration: vi.fn(),
  startAuthentication: vi.fn(),
}));

const SETUP = {
  secret: 'JBSWY3DPEHPK3PXP',
  otpauthUrl: 'otpauth://totp/AlignerFlow:tech?secret=JBSWY3DPEHPK3PXP&issuer=AlignerFlow',
};
const CODES = Array.from({ length: 10 }, (_, index) => `code-${index}-abcd`);
const laptop: Passkey = { id: 'pk-1', name: 'Work laptop', createdAt: '2026-11-20T10:00:00.000Z' };

/** A server whose factors change as the calls change them. */
function setup(start: { mfa?: MfaStatus; passkeys?: Passkey[] } = {}, routes = {}) {
  let mfa = start.mfa ?? noFactors;
  let passkeys = start.passkeys ?? [];
  const server = fakeServer({
    ...accountRoutes(technician),
    'GET /auth/me': () => ({ body: { user: technician, mfa } }),
    'GET /auth/passkeys': () => ({ body: passkeys }),
    'POST /auth/mfa/totp': { body: SETUP },
    'POST /auth/mfa/totp/confirm': (request) => {
      if ((request.body as { code: string }).code !== '123456')
        return { status: 401, body: { error: 'The code is not valid.' } };
      mfa = { ...mfa, totp: true };
      return { body: { recoveryCodes: CODES } };
    },
    'DELETE /auth/mfa/totp': () => {
      mfa = { ...mfa, totp: false };
      return { status: 204 };
    },
    'POST /auth/passkeys/options': { body: { challenge: 'abc', rp: { name: 'AlignerFlow' } } },
    'POST /auth/passkeys': (request) => {
      const added = {
        id: 'pk-2',
        name: (request.body as { name: string }).name,
        createdAt: laptop.createdAt,
      };
      passkeys = [...passkeys, added];
      mfa = { ...mfa, passkeys: passkeys.length };
      return { status: 201, body: added };
    },
    'DELETE /auth/passkeys/pk-1': () => {
      passkeys = passkeys.filter((passkey) => passkey.id !== 'pk-1');
      mfa = { ...mfa, passkeys: passkeys.length };
      return { status: 204 };
    },
    ...routes,
  });
  const onStatus = vi.fn();
  render(
    <>
      <TwoStepSignIn username={technician.username} onStatus={onStatus} />
      <Toaster />
    </>,
  );
  return { server, onStatus };
}

afterEach(() => vi.mocked(startRegistration).mockReset());

describe('TwoStepSignIn', () => {
  it('sets up an authenticator: QR code, key, code, then the recovery codes once', async () => {
    const { server, onStatus } = setup();
    fireEvent.click(await screen.findByRole('button', { name: 'Set up an authenticator' }));
    expect((await screen.findByTestId('totp-secret')).textContent).toBe(SETUP.secret);
    const qr = (await screen.findByRole('img', {
      name: 'QR code for your authenticator app',
    })) as HTMLImageElement;
    expect(qr.src).toBe(`data:image/png;base64,${btoa(SETUP.otpauthUrl)}`);

    const code = screen.getByLabelText('6-digit code');
    fireEvent.change(code, { target: { value: '12a' } });
    expect((code as HTMLInputElement).value).toBe('12');
    fireEvent.click(screen.getByRole('button', { name: 'Turn on' }));
    expect(screen.getByRole('alert').textContent).toBe('Enter the 6 digits your authenticator app shows.');
    expect(server.calls('POST', '/auth/mfa/totp/confirm')).toHaveLength(0);

    fireEvent.change(code, { target: { value: '654321' } });
    fireEvent.click(screen.getByRole('button', { name: 'Turn on' }));
    expect((await screen.findByRole('alert')).textContent).toBe('The code is not valid.');

    fireEvent.change(screen.getByLabelText('6-digit code'), { target: { value: '123456' } });
    fireEvent.click(screen.getByRole('button', { name: 'Turn on' }));
    const list = await screen.findByRole('list');
    expect(document.activeElement).toBe(screen.getByRole('heading', { name: 'Recovery codes' }));
    expect(
      within(list)
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual(CODES);
    expect(screen.getByRole('button', { name: 'Download (.txt)' })).toBeTruthy();

    fireEvent.click(screen.getByRole('button', { name: 'I have saved them' }));
    expect(await screen.findByText('On: sign-in asks for a code from your authenticator app.')).toBeTruthy();
    expect(screen.queryByText(CODES[0])).toBeNull();
    expect(onStatus).toHaveBeenLastCalledWith({ totp: true, passkeys: 0, required: false });
  });

  it('downloads the codes as a .txt and copies them', async () => {
    const writeText = vi.fn(() => Promise.resolve());
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
    const downloaded: Blob[] = [];
    vi.spyOn(URL, 'createObjectURL').mockImplementation((blob) => {
      downloaded.push(blob as Blob);
      return 'blob:codes';
    });
    vi.spyOn(URL, 'revokeObjectURL').mockImplementation(() => undefined);
    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => undefined);
    setup();
    fireEvent.click(await screen.findByRole('button', { name: 'Set up an authenticator' }));
    fireEvent.change(await screen.findByLabelText('6-digit code'), { target: { value: '123456' } });
    fireEvent.click(screen.getByRole('button', { name: 'Turn on' }));

    fireEvent.click(await screen.findByRole('button', { name: 'Download (.txt)' }));
    expect(click).toHaveBeenCalledTimes(1);
    const anchor = click.mock.contexts[0] as HTMLAnchorElement;
    expect(anchor.download).toBe('alignerflow-recovery-codes.txt');
    const text = await downloaded[0].text();
    expect(text).toContain('AlignerFlow recovery codes for tech.');
    for (const code of CODES) expect(text).toContain(code);

    fireEvent.click(screen.getByRole('button', { name: 'Copy' }));
    expect(await screen.findByText('Recovery codes copied.')).toBeTruthy();
    expect(writeText).toHaveBeenCalledWith(CODES.join('\n'));
  });

  it('removes the authenticator after a confirmation', async () => {
    const confirm = vi.spyOn(window, 'confirm').mockReturnValueOnce(false).mockReturnValueOnce(true);
    const { server } = setup({ mfa: { totp: true, passkeys: 0, required: false } });
    const remove = await screen.findByRole('button', { name: 'Remove authenticator' });
    fireEvent.click(remove);
    expect(server.calls('DELETE', '/auth/mfa/totp')).toHaveLength(0);
    fireEvent.click(remove);
    expect(confirm).toHaveBeenLastCalledWith('Remove the authenticator app from your account?');
    expect(await screen.findByRole('button', { name: 'Set up an authenticator' })).toBeTruthy();
    expect(server.calls('DELETE', '/auth/mfa/totp')).toHaveLength(1);
  });

  it('lists the passkeys, adds one through the browser and removes one', async () => {
    const response = { id: 'cred', rawId: 'cred', type: 'public-key', response: {} };
    vi.mocked(startRegistration).mockResolvedValue(response as never);
    vi.spyOn(window, 'confirm').mockReturnValue(true);
    const { server, onStatus } = setup({ mfa: { ...noFactors, passkeys: 1 }, passkeys: [laptop] });
    const list = await screen.findByRole('list', { name: 'Passkeys' });
    expect(within(list).getByText('Work laptop')).toBeTruthy();

    fireEvent.click(screen.getByRole('button', { name: 'Add a passkey' }));
    fireEvent.change(screen.getByLabelText('Passkey name'), { target: { value: 'Phone' } });
    fireEvent.click(screen.getByRole('button', { name: 'Create passkey' }));
    expect(await screen.findByText('Phone')).toBeTruthy();
    expect(vi.mocked(startRegistration)).toHaveBeenCalledWith({
      optionsJSON: { challenge: 'abc', rp: { name: 'AlignerFlow' } },
    });
    expect(server.calls('POST', '/auth/passkeys')[0].body).toEqual({ credential: response, name: 'Phone' });
    expect(onStatus).toHaveBeenLastCalledWith({ totp: false, passkeys: 2, required: false });

    fireEvent.click(screen.getByRole('button', { name: 'Remove passkey Work laptop' }));
    await vi.waitFor(() => expect(screen.queryByText('Work laptop')).toBeNull());
    expect(server.calls('DELETE', '/auth/passkeys/pk-1')).toHaveLength(1);
  });

  it('says so when the browser prompt for a new passkey is closed', async () => {
    vi.mocked(startRegistration).mockRejectedValue(
      Object.assign(new Error('The operation either timed out or was not allowed.'), {
        name: 'NotAllowedError',
      }),
    );
    const { server } = setup();
    fireEvent.click(await screen.findByRole('button', { name: 'Add a passkey' }));
    fireEvent.click(screen.getByRole('button', { name: 'Create passkey' }));
    expect((await screen.findByRole('alert')).textContent).toBe(
      'The passkey was not created: the prompt was closed.',
    );
    expect(server.calls('POST', '/auth/passkeys')).toHaveLength(0);
  });
});
