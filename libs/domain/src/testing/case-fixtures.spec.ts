import { ALL_CASE_STATUSES } from '../case/status.js';
import { decide } from '../case/decide.js';
import { evolve } from '../case/evolve.js';
import { caseAt, E, given, NOW, road, roadSteps, stamp, time } from './case-fixtures.js';
import type { CaseEvent } from '../case/events.js';

describe('the usual road', () => {
  it.each(ALL_CASE_STATUSES.filter((status) => status !== 'Scan Received'))(
    'to %s: each step is decided, for its sender, into the event the fixtures fold',
    (status) => {
      let state = given(E.created());
      for (const step of roadSteps(status)) {
        expect(decide(state, step.command, step.by, NOW)).toEqual({ ok: true, events: [step.event] });
        state = evolve(state, { ...step.event, actor: step.by, at: NOW } as CaseEvent);
      }
      expect(state.status).toBe(status);
      expect(road(status)).toHaveLength(roadSteps(status).length + 1);
    },
  );

  it('brings Scan Received as an imported case, with only its first step done', () => {
    const state = caseAt('Scan Received');
    expect(state.status).toBe('Scan Received');
    expect(state.alignerWorkflow.map((step) => step.completed)).toEqual(
      state.alignerWorkflow.map((_, index) => index === 0),
    );
    expect(state.version).toBe(1);
  });
});

describe('stamp', () => {
  it('gives each event the manager and an hour after the one before, unless told', () => {
    const drLee = { username: 'dr.lee', role: 'Doctor' as const };
    const at = '2026-01-02T03:04:05.000Z';
    expect(stamp([E.held(), [E.resumed(), drLee], [E.held(), drLee, at]])).toEqual([
      { ...E.held(), actor: { username: 'admin', role: 'Manager' }, at: time(0) },
      { ...E.resumed(), actor: drLee, at: time(1) },
      { ...E.held(), actor: drLee, at },
    ]);
  });
});
