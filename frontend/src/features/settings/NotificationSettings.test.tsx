import { describe, expect, it, vi } from 'vitest';
import { fireEvent, render, screen, within } from '@testing-library/react';
import { cache } from '../../api/cache';
import { fakeServer, type Route } from '../../test/fakeServer';
import { allUsers, manager } from '../../test/fixtures';
import { NotificationSettings } from './NotificationSettings';

function setup(routes: Record<string, Route> = {}) {
  const server = fakeServer({ 'GET /users': { body: allUsers }, ...routes });
  cache.begin(manager);
  render(<NotificationSettings />);
  return server;
}

const targeted = () => screen.getByRole('heading', { name: 'Targeted Notification' }).closest('form')!;
const preference = () =>
  screen.getByRole('heading', { name: 'Activation Sound Preference' }).closest('form')!;

describe('NotificationSettings', () => {
  it('sends a test notification', async () => {
    const server = setup({ 'POST /push/test': { status: 202, body: { queued: 2 } } });
    fireEvent.click(screen.getAllByRole('button', { name: 'Send Test Notification' })[0]);
    expect(
      await screen.findByText(
        'Test notification sent. If you do not see it, ensure permissions are allowed and Focus Assist is off.',
      ),
    ).toBeTruthy();
    expect(server.calls('POST', '/push/test')).toHaveLength(1);
  });

  it('explains a failed test notification with the error and the health hint', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    setup({ 'POST /push/test': { status: 503, body: { error: 'Push is not configured.' } } });
    fireEvent.click(screen.getAllByRole('button', { name: 'Send Test Notification' })[0]);
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('Failed to send test notification.');
    expect(alert.textContent).toContain('Push is not configured.');
    expect(alert.textContent).toContain('/api/health');
  });

  it('validates the targeted form and sends web push and FCM', async () => {
    const server = setup({
      'POST /push/send/rep': { status: 202, body: {} },
      'POST /fcm/send/rep': { status: 503, body: { error: 'FCM is not configured.' } },
    });
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const form = targeted();
    await vi.waitFor(() => expect(within(form).getAllByRole('option').length).toBeGreaterThan(1));
    fireEvent.click(within(form).getByRole('button', { name: 'Send Targeted Web Push' }));
    expect(within(form).getByRole('alert').textContent).toBe('Please enter a username to send to.');
    fireEvent.change(within(form).getByLabelText('Username'), { target: { value: 'rep' } });
    fireEvent.click(within(form).getByRole('button', { name: 'Send Targeted Web Push' }));
    expect(within(form).getByRole('alert').textContent).toBe('Please enter a message body.');
    fireEvent.change(within(form).getByLabelText('Message'), { target: { value: 'Case ready' } });
    fireEvent.click(within(form).getByRole('button', { name: 'Send Targeted Web Push' }));
    expect(await within(form).findByText('Sent Web Push to rep...')).toBeTruthy();
    expect(server.calls('POST', '/push/send/rep')[0].body).toEqual({
      title: 'AlignerFlow',
      body: 'Case ready',
    });
    fireEvent.click(within(form).getByRole('button', { name: 'Send Targeted FCM' }));
    expect(
      await within(form).findByText(
        'Failed to send FCM notification. Check backend credentials and that user has an FCM token.',
      ),
    ).toBeTruthy();
  });

  it('saves the activation sound preference', async () => {
    const server = setup({
      'PUT /users/tech': { body: { ...allUsers[3], activationSoundEnabled: false } },
    });
    const form = preference();
    fireEvent.click(within(form).getByRole('button', { name: 'Save Preference' }));
    expect(within(form).getByRole('alert').textContent).toBe('Please select a user to update.');
    await vi.waitFor(() => expect(within(form).getAllByRole('option').length).toBeGreaterThan(1));
    fireEvent.change(within(form).getByLabelText('Username'), { target: { value: 'tech' } });
    fireEvent.click(within(form).getByLabelText('Disabled'));
    fireEvent.click(within(form).getByRole('button', { name: 'Save Preference' }));
    expect(await within(form).findByText('Preference updated for tech.')).toBeTruthy();
    expect(server.calls('PUT', '/users/tech')[0].body).toEqual({ activationSoundEnabled: false });
  });

  it("falls back to free-text pickers with 'Failed to load users'", async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    setup({ 'GET /users': { status: 500, text: 'boom' } });
    expect((await screen.findByText('Failed to load users')).getAttribute('role')).toBe('alert');
    expect(within(targeted()).getByLabelText('Username').tagName).toBe('INPUT');
    expect(within(preference()).getByLabelText('Username').tagName).toBe('INPUT');
  });
});
