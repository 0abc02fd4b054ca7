import type { StageStatus, StagingEntry } from '../case/case.js';
import {
  overdueText,
  remainingDays,
  STAGING_TEXTS,
  stageProgressPercent,
  stagingMessage,
  stagingProgress,
  timeInTreatmentDays,
  totalPlannedDays,
} from './staging.js';

const NOW = '2025-06-30T12:00:00.000Z';
/** An ISO timestamp `days` (may be fractional) before NOW. */
const daysAgo = (days: number) => new Date(Date.parse(NOW) - days * 86_400_000).toISOString();

const entry = (
  stageNumber: number,
  status: StageStatus,
  startDate: string | null = null,
  endDate: string | null = null,
): StagingEntry => ({ stageNumber, status, startDate, endDate });

describe('Total Planned Time = stages × wear days (spec section 9)', () => {
  it.each<[number, number, number]>([
    [0, 15, 0],
    [1, 15, 15],
    [20, 15, 300],
    [14, 10, 140],
  ])('%i stages × %i days = %i', (stages, wear, total) => {
    const staging = Array.from({ length: stages }, (_, index) => entry(index + 1, 'Not Started'));
    expect(totalPlannedDays(staging, wear)).toBe(total);
  });
});

describe('Time in Treatment: whole days of completed (end − start) and in-progress (now − start) stages', () => {
  it.each<[string, StagingEntry[], number]>([
    ['no stages', [], 0],
    ['nothing started', [entry(1, 'Not Started'), entry(2, 'Not Started')], 0],
    ['one completed stage of 14 days', [entry(1, 'Completed', daysAgo(20), daysAgo(6))], 14],
    ['a completed stage of 14.9 days counts 14', [entry(1, 'Completed', daysAgo(20), daysAgo(5.1))], 14],
    ['one stage in progress for 3.5 days', [entry(1, 'In Progress', daysAgo(3.5))], 3],
    [
      'completed + in progress + not started',
      [
        entry(1, 'Completed', daysAgo(30), daysAgo(15)),
        entry(2, 'In Progress', daysAgo(15)),
        entry(3, 'Not Started'),
      ],
      30,
    ],
    ['a completed stage without end date is ignored', [entry(1, 'Completed', daysAgo(9), null)], 0],
    ['a stage in progress without start date is ignored', [entry(1, 'In Progress', null)], 0],
    ['a not-started stage with stale dates is ignored', [entry(1, 'Not Started', daysAgo(9), daysAgo(1))], 0],
  ])('%s → %i days', (_label, staging, days) => {
    expect(timeInTreatmentDays(staging, NOW)).toBe(days);
    expect(timeInTreatmentDays(staging, new Date(NOW))).toBe(days);
  });
});

describe('per-stage remaining days, overdue text and progress bar', () => {
  it.each<[string, StagingEntry, number, number, string | null, number]>([
    // label, entry, wear, remaining, overdue text, progress %
    ['not started', entry(1, 'Not Started'), 15, 15, null, 0],
    ['started just now', entry(1, 'In Progress', NOW), 15, 15, null, 0],
    ['5 days in', entry(1, 'In Progress', daysAgo(5)), 15, 10, null, 33],
    ['5.9 days in counts 5 whole days', entry(1, 'In Progress', daysAgo(5.9)), 15, 10, null, 33],
    ['exactly at wear time', entry(1, 'In Progress', daysAgo(15)), 15, 0, null, 100],
    ['one day over', entry(1, 'In Progress', daysAgo(16)), 15, -1, 'Overdue by 1 day(s)', 100],
    [
      'ten days over: bar capped at 100',
      entry(1, 'In Progress', daysAgo(25)),
      15,
      -10,
      'Overdue by 10 day(s)',
      100,
    ],
    ['completed on time', entry(1, 'Completed', daysAgo(20), daysAgo(6)), 15, 1, null, 100],
    [
      'completed late is not shown overdue',
      entry(1, 'Completed', daysAgo(40), daysAgo(6)),
      15,
      -19,
      null,
      100,
    ],
    ['in progress without start date', entry(1, 'In Progress'), 15, 15, null, 0],
    ['zero wear days', entry(1, 'In Progress', daysAgo(2)), 0, -2, 'Overdue by 2 day(s)', 0],
  ])('%s', (_label, stage, wear, remaining, overdue, percent) => {
    expect(remainingDays(stage, wear, NOW)).toBe(remaining);
    expect(overdueText(stage, wear, NOW)).toBe(overdue);
    expect(stageProgressPercent(stage, wear, NOW)).toBe(percent);
  });

  it('formats the overdue text exactly', () => {
    expect(STAGING_TEXTS.overdue(3)).toBe('Overdue by 3 day(s)');
  });

  it('never shows a progress bar above 100 or below 0', () => {
    for (let days = -5; days <= 60; days++) {
      const percent = stageProgressPercent(entry(1, 'In Progress', daysAgo(days)), 15, NOW);
      expect(percent).toBeGreaterThanOrEqual(0);
      expect(percent).toBeLessThanOrEqual(100);
    }
  });
});

describe('overall progress: completed stages over total stages', () => {
  it.each<[string, StageStatus[], { done: number; total: number; percent: number }]>([
    ['no staging', [], { done: 0, total: 0, percent: 0 }],
    ['none done', ['Not Started', 'Not Started'], { done: 0, total: 2, percent: 0 }],
    ['one of three', ['Completed', 'In Progress', 'Not Started'], { done: 1, total: 3, percent: 33 }],
    ['two of three', ['Completed', 'Completed', 'In Progress'], { done: 2, total: 3, percent: 67 }],
    ['all done', ['Completed', 'Completed'], { done: 2, total: 2, percent: 100 }],
  ])('%s', (_label, statuses, expected) => {
    const staging = statuses.map((status, index) => entry(index + 1, status, daysAgo(1), daysAgo(0)));
    expect(stagingProgress(staging)).toEqual(expected);
  });
});

describe('the two staging messages', () => {
  it.each<[string, StageStatus[], string]>([
    ['all done', ['Completed', 'Completed'], 'Congratulations! The treatment is complete.'],
    ['first not done is 1', ['Not Started', 'Not Started'], 'Next up is Stage 1. Keep up the great work!'],
    [
      'first not done is 2',
      ['Completed', 'In Progress', 'Not Started'],
      'Next up is Stage 2. Keep up the great work!',
    ],
    [
      'a re-opened stage comes first',
      ['Completed', 'Completed', 'In Progress'],
      'Next up is Stage 3. Keep up the great work!',
    ],
  ])('%s', (_label, statuses, message) => {
    expect(stagingMessage(statuses.map((status, index) => entry(index + 1, status)))).toBe(message);
  });

  it('has the scan success and button texts of the spec', () => {
    expect(STAGING_TEXTS.stageStarted(4)).toBe('Stage 4 is start now.');
    expect(STAGING_TEXTS.previousCompleted(3)).toBe('Stage 3 completed.');
    expect(STAGING_TEXTS.actionFor).toEqual({
      'Not Started': 'Start Stage',
      'In Progress': 'Mark as Completed',
      Completed: 'Re-open Stage',
    });
  });
});
