import { describe, expect, it, vi } from 'vitest';
import { fireEvent, render, screen, within } from '@testing-library/react';
import type { SessionInfo } from '@alignerflow/domain';
import { fakeServer } from '../../test/fakeServer';
import { Toaster } from '../../components/Toaster';
import { SessionsList } from './SessionsList';

const CHROME_LINUX =
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
const SAFARI_IPHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1';

const sessions: SessionInfo[] = [
  {
    id: 's-phone',
    current: false,
    createdAt: '2026-11-20T08:00:00.000Z',
    lastSeenAt: '2026-11-25T09:30:00.000Z',
    address: '203.0.113.7',
    userAgent: SAFARI_IPHONE,
    rememberMe: true,
  },
  {
    id: 's-here',
    current: true,
    createdAt: '2026-11-26T01:00:00.000Z',
    lastSeenAt: '2026-11-26T02:00:00.000Z',
    address: '127.0.0.1',
    userAgent: CHROME_LINUX,
    rememberMe: false,
  },
];

describe('SessionsList', () => {
  it('lists each device, this one first and marked, and signs another one out', async () => {
    let current = sessions;
    const server = fakeServer({
      'GET /auth/sessions': () => ({ body: current }),
      'DELETE /auth/sessions/s-phone': () => {
        current = current.filter((session) => session.id !== 's-phone');
        return { status: 204 };
      },
    });
    const confirm = vi.spyOn(window, 'confirm').mockReturnValueOnce(false).mockReturnValueOnce(true);
    render(
      <>
        <SessionsList />
        <Toaster />
      </>,
    );
    const list = await screen.findByRole('list', { name: 'Signed-in devices' });
    await vi.waitFor(() => expect(within(list).getAllByRole('listitem')).toHaveLength(2));
    const [here, phone] = within(list).getAllByRole('listitem');
    expect(within(here).getByText('Chrome on Linux')).toBeTruthy();
    expect(within(here).getByText('This device')).toBeTruthy();
    expect(here.textContent).toContain('127.0.0.1');
    expect(within(here).queryByRole('button')).toBeNull();
    expect(within(phone).getByText('Safari on iOS')).toBeTruthy();
    expect(phone.textContent).toContain('203.0.113.7');
    expect(phone.textContent).toContain('Last seen');
    expect(phone.textContent).toContain('Remembered');

    const signOut = within(phone).getByRole('button', { name: 'Sign out Safari on iOS, 203.0.113.7' });
    fireEvent.click(signOut);
    expect(server.calls('DELETE', '/auth/sessions/s-phone')).toHaveLength(0);
    fireEvent.click(signOut);
    expect(confirm).toHaveBeenLastCalledWith('Sign out Safari on iOS?');
    expect(await screen.findByText('Device signed out')).toBeTruthy();
    await vi.waitFor(() => expect(within(list).getAllByRole('listitem')).toHaveLength(1));
    expect(server.calls('DELETE', '/auth/sessions/s-phone')).toHaveLength(1);
  });

  it("shows the server's text when the list cannot be read", async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    fakeServer({ 'GET /auth/sessions': { status: 503, body: { error: 'Database down' } } });
    render(<SessionsList />);
    expect((await screen.findByRole('alert')).textContent).toBe('Database down');
  });
});
