import { describe, expect, it, vi } from 'vitest';
import { startRegistration } from '@simplewebauthn/browser';
import { act, fireEvent, render, screen } from '@testing-library/react';
import { KEEP_QUIET_MS } from '../api/cache';
import { readOfflineCopy, writeOfflineCopy } from '../api/offlineCopy';
import { fakeServer } from '../test/fakeServer';
import { dashboardFigures, manager, sampleCases } from '../test/fixtures';
import { App } from './App';
import { SESSION_CHECK_MS } from './useSessionEnd';

vi.mock('@simplewebauthn/browser', () => ({ startRegistration: vi.fn(), startAuthentication: vi.fn() }));

function deferred<T>() {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((done) => (resolve = done));
  return { promise, resolve };
}

const quiet = () => {
  vi.spyOn(console, 'error').mockImplementation(() => undefined);
  vi.spyOn(console, 'warn').mockImplementation(() => undefined);
  vi.spyOn(console, 'info').mockImplementation(() => undefined);
};

describe('App start-up', () => {
  it('shows the splash for 2500 ms, then loading, then the login screen', async () => {
    vi.useFakeTimers();
    const me = deferred<{ status: number; body: unknown }>();
    fakeServer({
      'GET /config': { body: { demo: true, basePath: '/', productName: 'AlignerFlow' } },
      'GET /auth/me': () => me.promise,
    });
    render(<App />);
    expect(screen.getByRole('heading', { name: 'AlignerFlow' })).toBeTruthy();
    expect(screen.getByText('Dental Lab Workflow')).toBeTruthy();

    await act(() => vi.advanceTimersByTimeAsync(2499));
    expect(screen.getByText('Dental Lab Workflow')).toBeTruthy();
    await act(() => vi.advanceTimersByTimeAsync(1));
    expect(screen.getByText('Loading application data...')).toBeTruthy();

    await act(async () => me.resolve({ status: 401, body: { error: 'Not signed in.' } }));
    expect(screen.getByText('Dental Lab Workflow Portal')).toBeTruthy();
    expect(screen.getByText(/Demo users: admin, rep, designer, tech, dr.lee, dr.patel/)).toBeTruthy();
  });

  it('restores a session from the server cookie and opens the Lab Dashboard', async () => {
    quiet();
    vi.useFakeTimers();
    fakeServer({
      'GET /auth/me': { body: { user: manager } },
      'GET /cases': { body: sampleCases, headers: { ETag: '"1"' } },
      'GET /users': { body: [manager] },
      'GET /dashboard': { body: dashboardFigures },
    });
    render(<App />);
    await act(() => vi.advanceTimersByTimeAsync(2500));
    expect(screen.getByRole('heading', { name: 'Lab Dashboard' })).toBeTruthy();
    expect(screen.getAllByText('Alice Johnson').length).toBeGreaterThan(0);
    expect(screen.getByText('Logged in as:')).toBeTruthy();
  });

  it("shows 'Failed to load application data' with Retry when the server cannot be reached", async () => {
    quiet();
    vi.useFakeTimers();
    fakeServer({ 'GET /auth/me': 'network', 'GET /config': 'network' });
    const reload = vi.fn();
    render(<App reload={reload} />);
    await act(() => vi.advanceTimersByTimeAsync(2500));
    expect(screen.getByText('Failed to load application data')).toBeTruthy();
    act(() => screen.getByRole('button', { name: 'Retry' }).click());
    expect(reload).toHaveBeenCalled();
  });

  it('shows the sign-in screen, not a failure, when the server cannot be reached after a sign-out', async () => {
    quiet();
    vi.useFakeTimers();
    fakeServer({
      'GET /auth/me': { body: { user: manager } },
      'GET /cases': { body: sampleCases, headers: { ETag: '"1"' } },
      'GET /users': { body: [manager] },
      'GET /dashboard': { body: dashboardFigures },
      'POST /auth/logout': { status: 204 },
    });
    const first = render(<App />);
    await act(() => vi.advanceTimersByTimeAsync(2500));
    await act(async () => {
      screen.getAllByRole('button', { name: 'Logout' })[0].click();
    });
    expect(screen.getByRole('button', { name: 'Login' })).toBeTruthy();
    first.unmount();

    fakeServer({ 'GET /auth/me': 'network', 'GET /config': 'network' });
    render(<App />);
    await act(() => vi.advanceTimersByTimeAsync(2500));
    expect(screen.getByRole('button', { name: 'Login' })).toBeTruthy();
    expect(screen.queryByText('Failed to load application data')).toBeNull();
  });

  it('shows the last synced data with the offline banner when the server cannot be reached', async () => {
    quiet();
    const syncedAt = '2025-03-01T09:30:00.000Z';
    await writeOfflineCopy({
      owner: manager,
      cases: sampleCases,
      users: [manager],
      dashboard: dashboardFigures,
      syncedAt,
      expiresAt: new Date(Date.now() + 10 * 60_000).toISOString(),
    });
    vi.useFakeTimers();
    fakeServer({
      'GET /auth/me': 'network',
      'GET /config': 'network',
      'GET /cases': 'network',
      'GET /users': 'network',
    });
    render(<App />);
    await act(() => vi.advanceTimersByTimeAsync(2500));
    const time = new Date(syncedAt).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });
    expect(screen.getByText(`Offline — showing data from ${time}`)).toBeTruthy();
    expect(screen.getAllByText('Bob Smith').length).toBeGreaterThan(0);

    // Its session's end passes while the app is open offline: the data goes, sign-in shows.
    await act(() => vi.advanceTimersByTimeAsync(10 * 60_000 + SESSION_CHECK_MS));
    expect(screen.getByRole('button', { name: 'Login' })).toBeTruthy();
    expect(screen.queryAllByText('Bob Smith')).toHaveLength(0);
    const left = readOfflineCopy();
    await act(() => vi.advanceTimersByTimeAsync(10));
    expect(await left).toBeNull();
  });

  it.each([
    ['has ended', new Date(Date.now() - 60_000).toISOString()],
    ['is unknown (a copy kept by an older version)', undefined],
  ])('deletes the offline copy and shows sign-in when its session %s', async (_, expiresAt) => {
    quiet();
    await writeOfflineCopy({
      owner: manager,
      cases: sampleCases,
      users: [manager],
      dashboard: dashboardFigures,
      syncedAt: '2025-03-01T09:30:00.000Z',
      expiresAt,
    });
    vi.useFakeTimers();
    fakeServer({ 'GET /auth/me': 'network', 'GET /config': 'network' });
    render(<App />);
    await act(() => vi.advanceTimersByTimeAsync(2500));
    expect(screen.getByRole('button', { name: 'Login' })).toBeTruthy();
    expect(screen.queryAllByText('Bob Smith')).toHaveLength(0);
    const left = readOfflineCopy();
    await act(() => vi.advanceTimersByTimeAsync(10));
    expect(await left).toBeNull();
  });

  it('signs in from the login screen, and logout ends the session', async () => {
    quiet();
    vi.useFakeTimers();
    let signedIn = false;
    const END = new Date(Date.now() + 30 * 60_000).toISOString();
    const server = fakeServer({
      'GET /auth/me': () =>
        signedIn
          ? { body: { user: manager, mfa: { totp: false, passkeys: 0, required: false }, expiresAt: END } }
          : { status: 401, body: { error: 'Not signed in.' } },
      'POST /auth/login': () => {
        signedIn = true;
        return { body: { user: manager, token: 't' } };
      },
      'POST /auth/logout': { status: 204 },
      'GET /cases': { body: sampleCases },
      'GET /users': { body: [manager] },
      'GET /dashboard': { body: dashboardFigures },
    });
    render(<App />);
    await act(() => vi.advanceTimersByTimeAsync(2500));
    fireEvent.change(screen.getByLabelText('Username'), { target: { value: 'admin' } });
    fireEvent.change(screen.getByLabelText('Password'), { target: { value: 'demo' } });
    fireEvent.click(screen.getByRole('button', { name: 'Login' }));
    await act(() => vi.advanceTimersByTimeAsync(10));
    expect(screen.getByRole('heading', { name: 'Lab Dashboard' })).toBeTruthy();
    // A moment later the data is kept for offline use (IndexedDB runs on the fake clock here).
    await act(() => vi.advanceTimersByTimeAsync(KEEP_QUIET_MS + 100));
    const kept = readOfflineCopy();
    await act(() => vi.advanceTimersByTimeAsync(10));
    expect((await kept)?.cases).toHaveLength(sampleCases.length);
    // Kept with the end of the session it was saved under.
    expect((await kept)?.expiresAt).toBe(END);

    fireEvent.click(screen.getAllByRole('button', { name: 'Logout' })[0]);
    await act(() => vi.advanceTimersByTimeAsync(10));
    expect(server.calls('POST', '/auth/logout')).toHaveLength(1);
    expect(screen.getByRole('button', { name: 'Login' })).toBeTruthy();
    const afterLogout = readOfflineCopy();
    await act(() => vi.advanceTimersByTimeAsync(10));
    expect(await afterLogout).toBeNull();
  });
});

describe('App: two-step sign-in required', () => {
  const SET_UP_FIRST = { status: 403, body: { error: 'Set up two-step sign-in first.' } };

  it('shows only the enrolment screen until a factor is active, then the app', async () => {
    quiet();
    vi.mocked(startRegistration).mockResolvedValue({ id: 'cred' } as never);
    let passkeys: { id: string; name: string; createdAt: string }[] = [];
    const enrolled = () => passkeys.length > 0;
    const server = fakeServer({
      'GET /auth/me': () => ({
        body: { user: manager, mfa: { totp: false, passkeys: passkeys.length, required: true } },
      }),
      'GET /auth/passkeys': () => ({ body: passkeys }),
      'POST /auth/passkeys/options': { body: { challenge: 'c' } },
      'POST /auth/passkeys': () => {
        passkeys = [{ id: 'p1', name: 'My device', createdAt: '2026-11-26T02:00:00.000Z' }];
        return { status: 201, body: passkeys[0] };
      },
      'GET /cases': () => (enrolled() ? { body: sampleCases, headers: { ETag: '"1"' } } : SET_UP_FIRST),
      'GET /users': () => (enrolled() ? { body: [manager] } : SET_UP_FIRST),
      'GET /dashboard': () => (enrolled() ? { body: dashboardFigures } : SET_UP_FIRST),
    });
    vi.useFakeTimers();
    render(<App />);
    await act(() => vi.advanceTimersByTimeAsync(2500));
    vi.useRealTimers();
    expect(await screen.findByRole('heading', { name: 'Set up two-step sign-in' })).toBeTruthy();
    expect(screen.queryByText('Logged in as:')).toBeNull();
    expect(server.calls('GET', '/cases')).toHaveLength(0);
    expect(screen.getByRole('button', { name: 'Sign out' })).toBeTruthy();

    fireEvent.click(await screen.findByRole('button', { name: 'Add a passkey' }));
    fireEvent.click(screen.getByRole('button', { name: 'Create passkey' }));
    expect(await screen.findByRole('heading', { name: 'Lab Dashboard' })).toBeTruthy();
    expect(screen.queryByRole('heading', { name: 'Set up two-step sign-in' })).toBeNull();
  });

  it("switches to the enrolment screen when a call answers 'Set up two-step sign-in first.'", async () => {
    quiet();
    vi.useFakeTimers();
    fakeServer({
      'GET /auth/me': { body: { user: manager } },
      'GET /auth/passkeys': { body: [] },
      'GET /cases': SET_UP_FIRST,
      'GET /users': SET_UP_FIRST,
      'GET /dashboard': SET_UP_FIRST,
      'POST /auth/logout': { status: 204 },
    });
    render(<App />);
    await act(() => vi.advanceTimersByTimeAsync(2500));
    vi.useRealTimers();
    expect(await screen.findByRole('heading', { name: 'Set up two-step sign-in' })).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Sign out' }));
    expect(await screen.findByRole('button', { name: 'Login' })).toBeTruthy();
  });
});
