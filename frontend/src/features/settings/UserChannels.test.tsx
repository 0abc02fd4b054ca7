import { describe, expect, it, vi } from 'vitest';
import { fireEvent, render, screen, within } from '@testing-library/react';
import { cache } from '../../api/cache';
import { fakeServer, type Route } from '../../test/fakeServer';
import { allUsers, manager, technician } from '../../test/fixtures';
import { UserChannels } from './UserChannels';

const withEmail = allUsers.map((user) =>
  user.username === 'tech'
    ? { ...user, email: 'tech@lab.example', notify: { push: false, email: true } }
    : user,
);

function setup(routes: Record<string, Route> = {}) {
  const server = fakeServer(routes);
  cache.begin(manager);
  cache.setUsers(withEmail);
  const view = render(<UserChannels users={withEmail} />);
  return { server, view };
}

describe('UserChannels (Settings → Notifications)', () => {
  it("shows each user's address and both switches as the server has them", () => {
    setup();
    const row = screen.getByRole('rowheader', { name: /tech/ }).closest('tr')!;
    expect(row.textContent).toContain('tech@lab.example');
    expect((within(row).getByLabelText('Push notifications for tech') as HTMLInputElement).checked).toBe(
      false,
    );
    expect((within(row).getByLabelText('Email notifications for tech') as HTMLInputElement).checked).toBe(
      true,
    );
    const admin = screen.getByRole('rowheader', { name: /admin/ }).closest('tr')!;
    expect(admin.textContent).toContain('No email address');
  });

  it('saves one switch of one user and shows the answer', async () => {
    const { server } = setup({
      'PUT /users/tech': {
        body: { ...technician, email: 'tech@lab.example', notify: { push: true, email: true } },
      },
    });
    fireEvent.click(screen.getByLabelText('Push notifications for tech'));
    expect(await screen.findByText('Notification channels saved for tech.')).toBeTruthy();
    expect(server.calls('PUT', '/users/tech')[0].body).toEqual({ notify: { push: true } });
    expect(cache.get().users?.find((user) => user.username === 'tech')?.notify).toEqual({
      push: true,
      email: true,
    });
  });

  it('says so when saving fails, and keeps the switch as it was', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    setup({ 'PUT /users/rep': { status: 403, body: { error: 'Only a manager can manage users.' } } });
    const email = screen.getByLabelText('Email notifications for rep') as HTMLInputElement;
    fireEvent.click(email);
    expect((await screen.findByRole('alert')).textContent).toContain(
      'Failed to save the notification channels.',
    );
    expect(email.checked).toBe(true);
  });
});
