import { describe, expect, it, vi } from 'vitest';
import { render, screen, within } from '@testing-library/react';
import { addDays, toCaseSummary } from '@alignerflow/domain';
import { makeCase } from '../../test/fixtures';
import { AtRiskPanel } from './AtRiskPanel';

/** The lab's day, as the panel reads it: local midnight of today, as YYYY-MM-DD. */
function dayFromToday(days: number): string {
  const now = new Date();
  const today = `${now.getFullYear()}-${String(now.getMonth() + 1).padStart(2, '0')}-${String(now.getDate()).padStart(2, '0')}`;
  return addDays(today, days);
}

describe('AtRiskPanel', () => {
  it('counts from the due date when the lab has no transit days', () => {
    const item = toCaseSummary(makeCase({ status: 'Thermoforming', deliveryDate: dayFromToday(1) }));
    render(<AtRiskPanel cases={[item]} onOpenCase={vi.fn()} />);
    const entry = within(screen.getByRole('list')).getByRole('button');
    expect(entry.textContent).toContain('Due in 1 day(s)');
    expect(entry.textContent).not.toContain('ship by');
  });

  it('counts an unshipped case from its ship-by date, and names that date', () => {
    const item = toCaseSummary(makeCase({ status: 'Thermoforming', deliveryDate: dayFromToday(1) }));
    render(<AtRiskPanel cases={[item]} onOpenCase={vi.fn()} transitDays={3} />);
    const entry = within(screen.getByRole('list')).getByRole('button');
    expect(entry.textContent).toContain('Overdue by 2 day(s)');
    expect(entry.textContent).toContain('ship by');
  });
});
