import { describe, expect, it, vi } from 'vitest';
import { fireEvent, render, screen, within } from '@testing-library/react';
import type { User } from '@alignerflow/domain';
import { designer, doctor, manager, representative, technician } from '../test/fixtures';
import { Header } from './Header';

function renderHeader(user: User, caseSelected = false) {
  const handlers = {
    onToggleTheme: vi.fn(),
    onHome: vi.fn(),
    onEditCase: vi.fn(),
    onNewCase: vi.fn(),
    onLogout: vi.fn(),
    onOpenAccount: vi.fn(),
  };
  render(<Header user={user} caseSelected={caseSelected} theme="light" {...handlers} />);
  return handlers;
}

const bar = () => screen.getByRole('navigation', { name: 'Main navigation' });

describe('Header per role', () => {
  it.each([
    [manager, true, true],
    [representative, true, false],
    [designer, false, false],
    [technician, false, false],
    [doctor, false, false],
  ])('%s: New Case %s, Edit Case with a selected case %s', (user, newCase, editCase) => {
    renderHeader(user, true);
    expect(within(bar()).queryByRole('button', { name: 'New Case' }) !== null).toBe(newCase);
    expect(within(bar()).queryByRole('button', { name: 'Edit Case' }) !== null).toBe(editCase);
    expect(within(bar()).getByText('Logged in as:')).toBeTruthy();
    expect(within(bar()).getByText(user.role)).toBeTruthy();
  });

  it('hides Edit Case for a manager while no case is selected', () => {
    renderHeader(manager, false);
    expect(within(bar()).queryByRole('button', { name: 'Edit Case' })).toBeNull();
  });

  it('brand goes to the dashboard; Logout logs out', () => {
    const handlers = renderHeader(manager);
    // Its name starts with the visible product name (WCAG 2.5.3, label in name).
    fireEvent.click(screen.getByRole('button', { name: 'AlignerFlow: Go to dashboard' }));
    expect(handlers.onHome).toHaveBeenCalled();
    fireEvent.click(within(bar()).getByRole('button', { name: 'Logout' }));
    expect(handlers.onLogout).toHaveBeenCalled();
  });

  it("collapsible menu holds the actions plus a 'Role:' line", () => {
    const handlers = renderHeader(representative);
    const toggle = screen.getByRole('button', { name: 'Menu' });
    const menu = document.getElementById('header-menu')!;
    expect(toggle.getAttribute('aria-expanded')).toBe('false');
    expect(menu.hidden).toBe(true);
    fireEvent.click(toggle);
    expect(toggle.getAttribute('aria-expanded')).toBe('true');
    expect(menu.hidden).toBe(false);
    expect(within(menu).getByText('Role:')).toBeTruthy();
    fireEvent.click(within(menu).getByRole('button', { name: 'New Case' }));
    expect(handlers.onNewCase).toHaveBeenCalled();
    expect(menu.hidden).toBe(true);
  });
});
