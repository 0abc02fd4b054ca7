import { DUE_TEXTS } from './texts';

/** 'Overdue by n day(s)', 'Due today' or 'Due in n day(s)'. */
export function dueText(days: number): string {
  if (days < 0) return DUE_TEXTS.overdueBy(-days);
  if (days === 0) return DUE_TEXTS.dueToday;
  return DUE_TEXTS.dueIn(days);
}
