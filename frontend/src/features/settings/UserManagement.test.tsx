import { describe, expect, it, vi } from 'vitest';
import { PASSWORD_MIN_LENGTH, USER_TEXTS } from '@alignerflow/domain';
import { act, fireEvent, render, screen, within } from '@testing-library/react';
import { fakeServer } from '../../test/fakeServer';
import { allUsers, manager } from '../../test/fixtures';
import { cache } from '../../api/cache';
import { Toaster } from '../../components/Toaster';
import { UserManagement } from './UserManagement';

function setup(routes = {}) {
  const server = fakeServer({ 'GET /users': { body: allUsers }, ...routes });
  cache.begin(manager);
  cache.setUsers(allUsers);
  render(
    <>
      <UserManagement />
      <Toaster />
    </>,
  );
  return server;
}

const fill = (username: string, password: string) => {
  fireEvent.change(screen.getByLabelText('Username'), { target: { value: username } });
  fireEvent.change(screen.getByLabelText('Password'), { target: { value: password } });
  fireEvent.click(screen.getByRole('button', { name: 'Add User' }));
};

describe('UserManagement', () => {
  it('defaults the role to Technician', () => {
    setup();
    expect((screen.getByLabelText('Role') as HTMLSelectElement).value).toBe('Technician');
    expect(screen.getByRole('heading', { name: 'Add New User' })).toBeTruthy();
    expect(screen.getByRole('heading', { name: 'Existing Users' })).toBeTruthy();
  });

  it('refuses empty (after trimming) fields and a duplicate username', async () => {
    const server = setup();
    fill('   ', 'secret');
    expect(screen.getByRole('alert').textContent).toBe('Username and password cannot be empty.');
    fill('newbie', '   ');
    expect(screen.getByRole('alert').textContent).toBe('Username and password cannot be empty.');
    fill('REP', 'secret');
    expect(screen.getByRole('alert').textContent).toBe('Username "REP" is already taken.');
    expect(server.calls('POST', '/users')).toHaveLength(0);
  });

  it("adds a user, says 'User Added' and resets the form", async () => {
    const created = { username: 'newbie', role: 'Designer', email: null, activationSoundEnabled: true };
    const server = setup({ 'POST /users': { status: 201, body: created } });
    fireEvent.change(screen.getByLabelText('Role'), { target: { value: 'Designer' } });
    fill(' newbie ', 'lab-secret-pw-2');
    expect(await screen.findByText('User Added')).toBeTruthy();
    expect(server.calls('POST', '/users')[0].body).toEqual({
      username: 'newbie',
      password: 'lab-secret-pw-2',
      role: 'Designer',
    });
    expect((screen.getByLabelText('Username') as HTMLInputElement).value).toBe('');
    expect((screen.getByLabelText('Role') as HTMLSelectElement).value).toBe('Technician');
    expect(screen.getByText('newbie')).toBeTruthy();
  });

  it("shows 'Failed to add user. Username may already exist.' when the call fails otherwise", async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    setup({ 'POST /users': { status: 500, text: 'boom' } });
    fill('newbie', 'lab-secret-pw-2');
    expect((await screen.findByRole('alert')).textContent).toBe(
      'Failed to add user. Username may already exist.',
    );
  });

  it("disables deleting admin with the title 'Cannot delete admin'", () => {
    setup();
    const adminButton = screen.getByRole('button', { name: 'Delete user admin' }) as HTMLButtonElement;
    expect(adminButton.disabled).toBe(true);
    expect(adminButton.title).toBe('Cannot delete admin');
    expect((screen.getByRole('button', { name: 'Delete user rep' }) as HTMLButtonElement).disabled).toBe(
      false,
    );
  });

  it("deletes after the confirmation and says 'User Deleted'", async () => {
    const confirm = vi.spyOn(window, 'confirm').mockReturnValue(true);
    let users = allUsers;
    const server = setup({
      'GET /users': () => ({ body: users }),
      'DELETE /users/tech': () => {
        users = users.filter((user) => user.username !== 'tech');
        return { status: 204 };
      },
    });
    // Let the list load that opening the section starts finish first.
    await act(async () => {
      await vi.waitFor(() => expect(server.calls('GET', '/users')).toHaveLength(1));
    });
    fireEvent.click(screen.getByRole('button', { name: 'Delete user tech' }));
    expect(confirm).toHaveBeenCalledWith(
      'Are you sure you want to delete the user "tech"? This action cannot be undone.',
    );
    expect(await screen.findByText('User Deleted')).toBeTruthy();
    expect(server.calls('DELETE', '/users/tech')).toHaveLength(1);
    const list = screen.getByRole('list');
    expect(within(list).queryByText('tech')).toBeNull();
  });

  it("says 'Failed to delete user. Please try again.' when the delete fails", async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    vi.spyOn(window, 'confirm').mockReturnValue(true);
    setup({ 'DELETE /users/tech': { status: 503, body: { error: 'Database down' } } });
    fireEvent.click(screen.getByRole('button', { name: 'Delete user tech' }));
    expect((await screen.findByRole('alert')).textContent).toBe('Failed to delete user. Please try again.');
  });

  it('refuses a password shorter than the minimum after the empty and taken checks', () => {
    const server = setup();
    fill('REP', 'x');
    expect(screen.getByRole('alert').textContent).toBe('Username "REP" is already taken.');
    fill('newbie', 'k'.repeat(PASSWORD_MIN_LENGTH - 1));
    expect(screen.getByRole('alert').textContent).toBe(USER_TEXTS.passwordTooShort);
    expect(server.calls('POST', '/users')).toHaveLength(0);
  });

  it("ends a user's sessions after the confirmation and says 'Sessions Ended'", async () => {
    const confirm = vi.spyOn(window, 'confirm').mockReturnValueOnce(false).mockReturnValueOnce(true);
    const server = setup({ 'POST /users/dr.lee/sessions/end': { status: 204 } });
    const button = screen.getByRole('button', { name: 'End sessions of dr.lee' });
    fireEvent.click(button);
    expect(server.calls('POST', '/users/dr.lee/sessions/end')).toHaveLength(0);
    fireEvent.click(button);
    expect(confirm).toHaveBeenLastCalledWith('Sign "dr.lee" out on every device?');
    expect(await screen.findByText('Sessions Ended')).toBeTruthy();
    expect(screen.getByText('dr.lee has been signed out everywhere.')).toBeTruthy();
    expect(server.calls('POST', '/users/dr.lee/sessions/end')).toHaveLength(1);
  });

  it("says 'Failed to end the sessions. Please try again.' when that fails", async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    vi.spyOn(window, 'confirm').mockReturnValue(true);
    setup({ 'POST /users/rep/sessions/end': { status: 503, body: { error: 'Database down' } } });
    fireEvent.click(screen.getByRole('button', { name: 'End sessions of rep' }));
    expect((await screen.findByRole('alert')).textContent).toBe(
      'Failed to end the sessions. Please try again.',
    );
  });

  it("resets a user's two-step sign-in after the confirmation", async () => {
    const confirm = vi.spyOn(window, 'confirm').mockReturnValueOnce(false).mockReturnValueOnce(true);
    const server = setup({ 'POST /users/rep/mfa/reset': { status: 204 } });
    const button = screen.getByRole('button', { name: 'Reset two-step sign-in of rep' });
    fireEvent.click(button);
    expect(server.calls('POST', '/users/rep/mfa/reset')).toHaveLength(0);
    fireEvent.click(button);
    expect(confirm).toHaveBeenLastCalledWith(
      'Remove every authenticator and passkey of "rep" and sign them out everywhere?',
    );
    expect(await screen.findByText('Two-step sign-in reset')).toBeTruthy();
    expect(screen.getByText('rep can sign in with their password and set it up again.')).toBeTruthy();
    expect(server.calls('POST', '/users/rep/mfa/reset')).toHaveLength(1);
  });

  it("shows the server's text when a reset is refused", async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    vi.spyOn(window, 'confirm').mockReturnValue(true);
    setup({ 'POST /users/rep/mfa/reset': { status: 404, body: { error: 'User not found.' } } });
    fireEvent.click(screen.getByRole('button', { name: 'Reset two-step sign-in of rep' }));
    expect((await screen.findByRole('alert')).textContent).toBe('User not found.');
  });
});
