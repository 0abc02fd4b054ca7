import { describe, expect, it, vi } from 'vitest';
import { fireEvent, render, screen } from '@testing-library/react';
import { fakeServer, type Route } from '../../test/fakeServer';
import { doctor } from '../../test/fixtures';
import { MyNotifications } from './MyNotifications';

function setup(routes: Record<string, Route> = {}, user = doctor) {
  const server = fakeServer(routes);
  render(<MyNotifications user={user} />);
  return server;
}

const path = `/users/${doctor.username}`;

describe('MyNotifications', () => {
  it('shows both switches on by default and asks for an address for email', () => {
    setup();
    expect((screen.getByLabelText(/Push notifications/) as HTMLInputElement).checked).toBe(true);
    expect((screen.getByLabelText(/Email notifications/) as HTMLInputElement).checked).toBe(true);
    expect(screen.getByText('Add your email address below to receive them.')).toBeTruthy();
  });

  it('turns email off for oneself', async () => {
    const server = setup({ [`PUT ${path}`]: { body: { ...doctor, notify: { push: true, email: false } } } });
    const email = screen.getByLabelText(/Email notifications/) as HTMLInputElement;
    fireEvent.click(email);
    await vi.waitFor(() => expect(email.checked).toBe(false));
    expect(server.calls('PUT', path)[0].body).toEqual({ notify: { email: false } });
    expect((screen.getByLabelText(/Push notifications/) as HTMLInputElement).checked).toBe(true);
  });

  it('checks the address as the server does, then saves it', async () => {
    const server = setup({ [`PUT ${path}`]: { body: { ...doctor, email: 'lee@clinic.example' } } });
    fireEvent.change(screen.getByLabelText('Email address'), { target: { value: 'lee@clinic' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save Email' }));
    expect(screen.getByRole('alert').textContent).toBe('Email is not valid.');
    expect(server.calls('PUT', path)).toHaveLength(0);
    fireEvent.change(screen.getByLabelText('Email address'), { target: { value: ' lee@clinic.example ' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save Email' }));
    expect(await screen.findByText('Email address saved.')).toBeTruthy();
    expect(server.calls('PUT', path)[0].body).toEqual({ email: 'lee@clinic.example' });
    expect(screen.getByText('Sent to lee@clinic.example.')).toBeTruthy();
  });
});
