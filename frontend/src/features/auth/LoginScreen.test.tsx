import { describe, expect, it, vi } from 'vitest';
import { fireEvent, render, screen } from '@testing-library/react';
import { fakeServer } from '../../test/fakeServer';
import { manager } from '../../test/fixtures';
import { LoginScreen } from './LoginScreen';

const loginButton = () => screen.getByRole('button', { name: 'Login' }) as HTMLButtonElement;

describe('LoginScreen', () => {
  it('shows the title, subtitle and the Remember Me hint', () => {
    render(<LoginScreen demo={false} onSignedIn={() => undefined} />);
    expect(screen.getByRole('heading', { name: 'AlignerFlow' })).toBeTruthy();
    expect(screen.getByText('Dental Lab Workflow Portal')).toBeTruthy();
    expect(screen.getByRole('switch', { name: /Remember Me/ })).toBeTruthy();
    expect(screen.getByText('Keep me logged in across browser sessions')).toBeTruthy();
    expect(screen.queryByText(/Demo users/)).toBeNull();
  });

  it('keeps Login disabled until both fields are filled', () => {
    render(<LoginScreen demo={false} onSignedIn={() => undefined} />);
    expect(loginButton().disabled).toBe(true);
    fireEvent.change(screen.getByLabelText('Username'), { target: { value: 'admin' } });
    expect(loginButton().disabled).toBe(true);
    fireEvent.change(screen.getByLabelText('Password'), { target: { value: 'demo' } });
    expect(loginButton().disabled).toBe(false);
    fireEvent.change(screen.getByLabelText('Username'), { target: { value: '   ' } });
    expect(loginButton().disabled).toBe(true);
  });

  it('shows the throttling text when the server answers 429', async () => {
    const text = 'Too many sign-in attempts. Try again in 15 minute(s).';
    fakeServer({
      'POST /auth/login': { status: 429, body: { error: text }, headers: { 'Retry-After': '900' } },
    });
    const onSignedIn = vi.fn();
    render(<LoginScreen demo={false} onSignedIn={onSignedIn} />);
    fireEvent.change(screen.getByLabelText('Username'), { target: { value: 'admin' } });
    fireEvent.change(screen.getByLabelText('Password'), { target: { value: 'guess' } });
    fireEvent.click(loginButton());
    expect((await screen.findByRole('alert')).textContent).toBe(text);
    expect(onSignedIn).not.toHaveBeenCalled();
    expect(loginButton().disabled).toBe(false);
  });

  it("shows 'Invalid username or password.' when the server refuses", async () => {
    fakeServer({ 'POST /auth/login': { status: 401, body: { error: 'Invalid username or password.' } } });
    const onSignedIn = vi.fn();
    render(<LoginScreen demo={false} onSignedIn={onSignedIn} />);
    fireEvent.change(screen.getByLabelText('Username'), { target: { value: 'admin' } });
    fireEvent.change(screen.getByLabelText('Password'), { target: { value: 'wrong' } });
    fireEvent.click(loginButton());
    expect((await screen.findByRole('alert')).textContent).toBe('Invalid username or password.');
    expect(onSignedIn).not.toHaveBeenCalled();
  });

  it('signs in and remembers the username when Remember Me is on', async () => {
    const server = fakeServer({ 'POST /auth/login': { body: { user: manager, token: 't' } } });
    const onSignedIn = vi.fn();
    render(<LoginScreen demo onSignedIn={onSignedIn} />);
    expect(
      screen.getByText('Demo users: admin, rep, designer, tech, dr.lee, dr.patel — password: demo'),
    ).toBeTruthy();
    fireEvent.change(screen.getByLabelText('Username'), { target: { value: 'Admin' } });
    fireEvent.change(screen.getByLabelText('Password'), { target: { value: 'demo' } });
    fireEvent.click(screen.getByRole('switch'));
    fireEvent.click(loginButton());
    await vi.waitFor(() => expect(onSignedIn).toHaveBeenCalledWith(manager));
    expect(server.requests[0].body).toEqual({ username: 'Admin', password: 'demo', rememberMe: true });
    expect(localStorage.getItem('rememberMeEnabled')).toBe('true');
    expect(localStorage.getItem('rememberedUsername')).toBe('admin');
  });
});
