import { describe, expect, it, vi } from 'vitest';
import { USER_TEXTS } from '@alignerflow/domain';
import { fireEvent, render, screen } from '@testing-library/react';
import { fakeServer } from '../../test/fakeServer';
import { accountRoutes, technician } from '../../test/fixtures';
import { Toaster } from '../../components/Toaster';
import { AccountSettings } from './AccountSettings';

function setup(routes = {}) {
  const server = fakeServer({ ...accountRoutes(technician), ...routes });
  const onSignedOut = vi.fn();
  render(
    <>
      <AccountSettings user={technician} onSignedOut={onSignedOut} />
      <Toaster />
    </>,
  );
  return { server, onSignedOut };
}

const change = (currentPassword: string, password: string) => {
  fireEvent.change(screen.getByLabelText('Current password'), { target: { value: currentPassword } });
  fireEvent.change(screen.getByLabelText('New password'), { target: { value: password } });
  fireEvent.click(screen.getByRole('button', { name: 'Change Password' }));
};

describe('AccountSettings', () => {
  const path = `/users/${technician.username}`;

  it('checks the new password as the server does before sending anything', () => {
    const { server } = setup();
    change('old-password', '   ');
    expect(screen.getByRole('alert').textContent).toBe('Password cannot be empty.');
    change('old-password', 'short');
    expect(screen.getByRole('alert').textContent).toBe(USER_TEXTS.passwordTooShort);
    change('', 'long-enough-pw');
    expect(screen.getByRole('alert').textContent).toBe('The current password is incorrect.');
    expect(server.calls('PUT', path)).toHaveLength(0);
  });

  it('sends the current and new password, says so and clears the form', async () => {
    const { server } = setup({ [`PUT ${path}`]: { body: technician } });
    change('old-password', 'new-password-1');
    expect(await screen.findByText('Password Changed')).toBeTruthy();
    expect(screen.getByText('Your other sessions have been signed out.')).toBeTruthy();
    expect(server.calls('PUT', path)[0].body).toEqual({
      currentPassword: 'old-password',
      password: 'new-password-1',
    });
    expect((screen.getByLabelText('New password') as HTMLInputElement).value).toBe('');
    expect((screen.getByLabelText('Current password') as HTMLInputElement).value).toBe('');
  });

  it("shows the server's text when it refuses", async () => {
    setup({ [`PUT ${path}`]: { status: 400, body: { error: 'The current password is incorrect.' } } });
    change('not-it', 'new-password-1');
    expect((await screen.findByRole('alert')).textContent).toBe('The current password is incorrect.');
  });

  it('signs out everywhere after a confirmation, then ends this session too', async () => {
    const { server, onSignedOut } = setup({ 'POST /auth/logout-everywhere': { status: 204 } });
    const confirm = vi.spyOn(window, 'confirm').mockReturnValueOnce(false).mockReturnValueOnce(true);
    fireEvent.click(screen.getByRole('button', { name: 'Sign Out Everywhere' }));
    expect(server.calls('POST', '/auth/logout-everywhere')).toHaveLength(0);
    fireEvent.click(screen.getByRole('button', { name: 'Sign Out Everywhere' }));
    await vi.waitFor(() => expect(onSignedOut).toHaveBeenCalledTimes(1));
    expect(confirm).toHaveBeenLastCalledWith('Sign out on every device, this one included?');
    expect(server.calls('POST', '/auth/logout-everywhere')).toHaveLength(1);
  });
});
