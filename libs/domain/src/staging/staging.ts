import type { StagingEntry } from '../case/case.js';

const DAY_MS = 24 * 60 * 60 * 1000;

export const STAGING_TEXTS = {
  congratulations: 'Congratulations! The treatment is complete.',
  nextUp: (stage: number) => `Next up is Stage ${stage}. Keep up the great work!`,
  overdue: (days: number) => `Overdue by ${days} day(s)`,
  stageStarted: (stage: number) => `Stage ${stage} is start now.`,
  previousCompleted: (stage: number) => `Stage ${stage} completed.`,
  actionFor: { 'Not Started': 'Start Stage', 'In Progress': 'Mark as Completed', Completed: 'Re-open Stage' },
} as const;

/** Never negative: a clock a little behind the server's must not turn "just started" into −1 day. */
function wholeDaysBetween(from: string, to: string | Date): number {
  return Math.max(0, Math.floor((new Date(to).getTime() - new Date(from).getTime()) / DAY_MS));
}

export function totalPlannedDays(staging: StagingEntry[], wearDays: number): number {
  return staging.length * wearDays;
}

/** Whole days summed over completed stages (end − start) and stages in progress (now − start). */
export function timeInTreatmentDays(staging: StagingEntry[], now: Date | string): number {
  return staging.reduce((days, entry) => {
    if (!entry.startDate) return days;
    if (entry.status === 'Completed' && entry.endDate)
      return days + wholeDaysBetween(entry.startDate, entry.endDate);
    if (entry.status === 'In Progress') return days + wholeDaysBetween(entry.startDate, now);
    return days;
  }, 0);
}

/** Wear time minus whole days since the stage started; negative means overdue. */
export function remainingDays(entry: StagingEntry, wearDays: number, now: Date | string): number {
  if (!entry.startDate || entry.status === 'Not Started') return wearDays;
  const end = entry.status === 'Completed' && entry.endDate ? entry.endDate : now;
  return wearDays - wholeDaysBetween(entry.startDate, end);
}

/** How far into its wear time a stage is, as a percentage capped at 100. */
export function stageProgressPercent(entry: StagingEntry, wearDays: number, now: Date | string): number {
  if (entry.status === 'Completed') return 100;
  if (wearDays <= 0) return 0;
  const used = wearDays - remainingDays(entry, wearDays, now);
  return Math.min(100, Math.max(0, Math.round((used / wearDays) * 100)));
}

export function overdueText(entry: StagingEntry, wearDays: number, now: Date | string): string | null {
  const remaining = remainingDays(entry, wearDays, now);
  return remaining < 0 && entry.status === 'In Progress' ? STAGING_TEXTS.overdue(-remaining) : null;
}

export function stagingProgress(staging: StagingEntry[]): { done: number; total: number; percent: number } {
  const done = staging.filter((entry) => entry.status === 'Completed').length;
  const total = staging.length;
  return { done, total, percent: total ? Math.round((done / total) * 100) : 0 };
}

export function stagingMessage(staging: StagingEntry[]): string {
  const next = staging.find((entry) => entry.status !== 'Completed');
  return next ? STAGING_TEXTS.nextUp(next.stageNumber) : STAGING_TEXTS.congratulations;
}
