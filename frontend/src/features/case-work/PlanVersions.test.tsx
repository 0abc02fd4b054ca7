import { describe, expect, it } from 'vitest';
import { render, screen, within } from '@testing-library/react';
import { designer, doctor, E, makeCase } from '../../test/fixtures';
import { PlanVersions } from './PlanVersions';

describe('PlanVersions', () => {
  it('lists the versions newest first, with links, decisions and comments', () => {
    // Sent to the doctor, sent back with a comment, and sent again with a new video.
    const planned = makeCase(
      { status: 'Digital Planning' },
      [E.links('https://sim.example/v1.mp4', 'https://viewer.example/1'), designer],
      [E.advanced('Digital Planning', 'Doctor Approval'), designer],
      [E.changesRequested('Less tipping on 21'), doctor],
      [E.links('https://sim.example/v2.mp4'), designer],
      [E.advanced('Digital Planning', 'Doctor Approval'), designer],
    );
    render(<PlanVersions item={planned} />);
    const items = screen.getAllByRole('listitem');
    expect(items.map((item) => item.getAttribute('aria-label'))).toEqual(['Version 2', 'Version 1']);
    expect(within(items[0]).getByText('Current')).toBeTruthy();
    expect(within(items[0]).getByText('Awaiting the doctor')).toBeTruthy();
    expect(within(items[0]).getByRole('link', { name: 'Simulation video' }).getAttribute('href')).toBe(
      'https://sim.example/v2.mp4',
    );
    expect(within(items[1]).getByText('Changes requested')).toBeTruthy();
    expect(within(items[1]).getByText('Less tipping on 21')).toBeTruthy();
    expect(within(items[1]).getByText(/by dr\.lee/)).toBeTruthy();
    expect(within(items[1]).getByRole('link', { name: 'External simulation' })).toBeTruthy();
  });

  it('shows nothing for a case never sent to the doctor (or an old one without the list)', () => {
    const { container } = render(<PlanVersions item={makeCase({ status: 'Digital Planning' })} />);
    expect(container.innerHTML).toBe('');
    const old = render(<PlanVersions item={{} as never} />);
    expect(old.container.innerHTML).toBe('');
  });
});
