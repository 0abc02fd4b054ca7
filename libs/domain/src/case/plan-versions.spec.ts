import {
  advance,
  approved,
  changesRequested,
  created,
  designer,
  doctorApproves,
  drLee,
  fold,
  links,
  time,
  toDoctor,
} from '../testing/case-work-fixtures.js';
import type { Case } from './case.js';
import { evolve, foldCase } from './evolve.js';
import { planVersionsNewestFirst } from './plan-versions.js';

describe('treatment plan versions', () => {
  it('a new case has none, and a case not yet at Doctor Approval still has none', () => {
    expect(fold(created).planVersions).toEqual([]);
    expect(fold(created, approved, links('https://v.example/1')).planVersions).toEqual([]);
  });

  it('entering Doctor Approval adds version 1 with the links of that moment, pending', () => {
    const theCase = fold(created, approved, links('https://v.example/1', 'https://x.example/1'), [
      toDoctor,
      designer,
    ]);
    expect(theCase.planVersions).toEqual([
      {
        version: 1,
        simulationVideoUrl: 'https://v.example/1',
        simulationExternalLink: 'https://x.example/1',
        submittedAt: time(3),
        submittedBy: 'designer',
        outcome: 'pending',
        comment: null,
        decidedAt: null,
        decidedBy: null,
      },
    ]);
  });

  it('a change request settles the pending version with its comment; the next submission is version 2', () => {
    const theCase = fold(
      created,
      approved,
      links('https://v.example/1'),
      toDoctor,
      changesRequested('Tooth 11 rotates too fast'),
      links('https://v.example/2'),
      toDoctor,
      doctorApproves,
    );
    expect(theCase.planVersions).toHaveLength(2);
    expect(theCase.planVersions[0]).toMatchObject({
      version: 1,
      simulationVideoUrl: 'https://v.example/1',
      outcome: 'changes_requested',
      comment: 'Tooth 11 rotates too fast',
      decidedAt: time(4),
      decidedBy: drLee.username,
    });
    expect(theCase.planVersions[1]).toMatchObject({
      version: 2,
      simulationVideoUrl: 'https://v.example/2',
      submittedAt: time(6),
      outcome: 'approved',
      comment: null,
      decidedAt: time(7),
      decidedBy: 'dr.lee',
    });
    expect(planVersionsNewestFirst(theCase).map((version) => version.version)).toEqual([2, 1]);
  });

  it('later link changes do not rewrite a submitted version', () => {
    const theCase = fold(
      created,
      approved,
      links('https://v.example/1'),
      toDoctor,
      changesRequested('More'),
      links('https://v.example/changed'),
    );
    expect(theCase.planVersions.map((version) => version.simulationVideoUrl)).toEqual([
      'https://v.example/1',
    ]);
  });

  it('other stage moves add no version', () => {
    const theCase = fold(
      created,
      approved,
      toDoctor,
      doctorApproves,
      advance('Model Printing', 'Thermoforming'),
    );
    expect(theCase.planVersions).toHaveLength(1);
  });

  it('an imported case, from a backup without versions, folds to an empty list and its decision settles nothing', () => {
    const {
      version: _version,
      planVersions: _p,
      followUps: _f,
      origin: _o,
      ...old
    } = fold(created, approved, toDoctor) as Case & Record<string, unknown>;
    const imported = foldCase([
      { type: 'CaseImported', data: { case: old as never }, actor: drLee, at: time(9) },
      { type: 'TreatmentPlanApproved', data: {}, actor: drLee, at: time(10) },
    ])!;
    expect(imported.planVersions).toEqual([]);
    expect(imported.followUps).toEqual([]);
    expect(imported.origin).toBeNull();
    expect(imported.status).toBe('Model Printing');
  });

  it('a state read from an old snapshot without the list gains it on the next submission', () => {
    const { planVersions: _omit, ...old } = fold(created, approved);
    const next = evolve(old as Case, { ...toDoctor, actor: designer, at: time(5) } as never);
    expect(next.planVersions.map((version) => version.version)).toEqual([1]);
  });
});
