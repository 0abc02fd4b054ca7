import { describe, expect, it, vi } from 'vitest';
import { fireEvent, render, screen, within } from '@testing-library/react';
import { cache } from '../../api/cache';
import { fakeServer } from '../../test/fakeServer';
import { allUsers, doctor, manager } from '../../test/fixtures';
import { SettingsDrawer } from './SettingsDrawer';

describe('SettingsDrawer', () => {
  it('opens on User Management, switches sections, and Summary closes it', () => {
    fakeServer({ 'GET /users': { body: allUsers } });
    cache.begin(manager);
    const onClose = vi.fn();
    render(<SettingsDrawer role="Manager" onClose={onClose} />);
    const drawer = screen.getByRole('dialog', { name: 'Settings' });
    expect(within(drawer).getByRole('heading', { name: 'User Management' })).toBeTruthy();
    fireEvent.click(within(drawer).getByRole('button', { name: 'Backup & Restore' }));
    expect(within(drawer).getByRole('heading', { name: 'System Backup' })).toBeTruthy();
    expect(within(drawer).getByRole('heading', { name: 'Restore from Backup' })).toBeTruthy();
    fireEvent.click(within(drawer).getByRole('button', { name: 'Notifications' }));
    expect(within(drawer).getByRole('heading', { name: 'Activation Sound Preference' })).toBeTruthy();
    fireEvent.click(within(drawer).getByRole('button', { name: 'Summary' }));
    expect(onClose).toHaveBeenCalledTimes(1);
    fireEvent.keyDown(drawer, { key: 'Escape' });
    expect(onClose).toHaveBeenCalledTimes(2);
  });

  it('gives a Manager My Account too, and every other role only My Account', () => {
    fakeServer({ 'GET /users': { body: allUsers } });
    cache.begin(manager);
    const { unmount } = render(<SettingsDrawer role="Manager" user={manager} onClose={() => undefined} />);
    let drawer = screen.getByRole('dialog', { name: 'Settings' });
    fireEvent.click(within(drawer).getByRole('button', { name: 'My Account' }));
    expect(within(drawer).getByRole('heading', { name: 'Change Password' })).toBeTruthy();
    unmount();

    cache.begin(doctor);
    render(<SettingsDrawer role="Doctor" user={doctor} onClose={() => undefined} />);
    drawer = screen.getByRole('dialog', { name: 'Settings' });
    expect(within(drawer).getByRole('heading', { name: 'Sign Out Everywhere' })).toBeTruthy();
    expect(within(drawer).queryByRole('button', { name: 'User Management' })).toBeNull();
    expect(within(drawer).queryByRole('button', { name: 'Backup & Restore' })).toBeNull();
  });
});
