import { describe, expect, it } from 'vitest';
import { render, screen } from '@testing-library/react';
import { StatusBadge } from './StatusBadge';

describe('StatusBadge', () => {
  it.each([
    ['Pending Approval', 'red'],
    ['Scan Received', 'yellow'],
    ['Digital Planning', 'blue'],
    ['Doctor Approval', 'yellow'],
    ['Model Printing', 'gray'],
    ['Thermoforming', 'green'],
    ['Trimming & Polishing', 'sky'],
    ['Quality Check', 'pink'],
    ['Packaging & Labeling', 'lightgreen'],
    ['Delivery to Doctor', 'indigo'],
    ['Completed', 'emerald'],
    ['Something Else', 'gray'],
  ])('shows %s in %s', (status, colour) => {
    render(<StatusBadge status={status} />);
    const badge = screen.getByText(status);
    expect(badge.dataset.colour).toBe(colour);
    expect(badge.className).toContain(`badge--${colour}`);
  });

  it("shows 'On Hold' in orange for a held case", () => {
    render(<StatusBadge status="Thermoforming" onHold />);
    const badge = screen.getByText('On Hold');
    expect(badge.dataset.colour).toBe('orange');
    expect(screen.queryByText('Thermoforming')).toBeNull();
  });
});
