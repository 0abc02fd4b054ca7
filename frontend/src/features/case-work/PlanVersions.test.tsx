import { describe, expect, it } from 'vitest';
import { render, screen, within } from '@testing-library/react';
import type { PlanVersion } from '@alignerflow/domain';
import { PlanVersions } from './PlanVersions';

const version = (n: number, overrides: Partial<PlanVersion> = {}): PlanVersion => ({
  version: n,
  simulationVideoUrl: `https://sim.example/v${n}.mp4`,
  simulationExternalLink: '',
  submittedAt: '2025-03-01T10:00:00.000Z',
  submittedBy: 'designer',
  outcome: 'pending',
  comment: null,
  decidedAt: null,
  decidedBy: null,
  ...overrides,
});

describe('PlanVersions', () => {
  it('lists the versions newest first, with links, decisions and comments', () => {
    render(
      <PlanVersions
        item={{
          planVersions: [
            version(1, {
              outcome: 'changes_requested',
              comment: 'Less tipping on 21',
              decidedBy: 'dr.lee',
              decidedAt: '2025-03-02T10:00:00.000Z',
              simulationExternalLink: 'https://viewer.example/1',
            }),
            version(2),
          ],
        }}
      />,
    );
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
    const { container } = render(<PlanVersions item={{ planVersions: [] }} />);
    expect(container.innerHTML).toBe('');
    const old = render(<PlanVersions item={{} as never} />);
    expect(old.container.innerHTML).toBe('');
  });
});
