import { AT_RISK_DAYS, casesAtRisk, daysUntilDue, isAtRisk, isOverdue } from './at-risk';
import type { CaseStatus } from './status';

describe('at-risk rule', () => {
  const now = new Date(2025, 5, 9, 15, 30); // 9 June 2025, afternoon, local time
  const at = (deliveryDate: string | null, status: CaseStatus = 'Thermoforming', onHold = false) => ({
    deliveryDate,
    status,
    onHold,
  });

  it('counts whole days to the due day, negative when overdue', () => {
    expect(daysUntilDue(at('2025-06-09'), now)).toBe(0);
    expect(daysUntilDue(at('2025-06-11'), now)).toBe(2);
    expect(daysUntilDue(at('2025-06-07'), now)).toBe(-2);
    expect(daysUntilDue(at(null), now)).toBeUndefined();
  });

  it('is at risk within the window or past it, not beyond it', () => {
    expect(AT_RISK_DAYS).toBe(2);
    expect(isAtRisk(at('2025-06-11'), now)).toBe(true);
    expect(isAtRisk(at('2025-06-01'), now)).toBe(true);
    expect(isAtRisk(at('2025-06-12'), now)).toBe(false);
    expect(isAtRisk(at('2025-06-12'), now, 3)).toBe(true);
    expect(isAtRisk(at(null), now)).toBe(false);
  });

  it('leaves out held cases, cases at Packaging & Labeling or later, and closed cases', () => {
    expect(isAtRisk(at('2025-06-10', 'Thermoforming', true), now)).toBe(false);
    expect(isAtRisk(at('2025-06-10', 'Quality Check'), now)).toBe(true);
    for (const status of ['Packaging & Labeling', 'Delivery to Doctor', 'Completed', 'Rejected'] as const) {
      expect(isAtRisk(at('2025-06-10', status), now)).toBe(false);
    }
  });

  it('filters a list with the same rule', () => {
    const cases = [at('2025-06-10'), at('2025-06-20'), at('2025-06-10', 'Thermoforming', true)];
    expect(casesAtRisk(cases, now)).toEqual([cases[0]]);
  });

  it('calls an active case overdue once its due day has passed', () => {
    expect(isOverdue(at('2025-06-08'), now)).toBe(true);
    expect(isOverdue(at('2025-06-09'), now)).toBe(false);
    expect(isOverdue(at('2025-06-08', 'Completed'), now)).toBe(false);
  });
});
