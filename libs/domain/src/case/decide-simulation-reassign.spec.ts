import type { Actor } from '../permissions/roles.js';
import type { Case, CaseFile } from './case.js';
import type { CaseCommand } from './commands.js';
import type { Decision } from './decision.js';
import type { CaseStatus } from './status.js';
import {
  E,
  accepted,
  apply,
  caseAt,
  designer,
  drLee,
  drPatel,
  given,
  manager,
  managerOnly,
  notFound,
  onHold,
  refused,
  rep,
  run,
  tech,
} from '../testing/case-fixtures.js';

describe('SaveSimulationLinks (Digital Planning only, Designer or Manager, http(s) only)', () => {
  const save = (simulationVideoUrl: unknown, simulationExternalLink: unknown): CaseCommand => ({
    type: 'SaveSimulationLinks',
    simulationVideoUrl,
    simulationExternalLink,
  });
  const saved = (video: string, external: string) => accepted(E.links(video, external));
  const onlyAtDp = refused('conflict', 'Simulation links can only be saved at Digital Planning.');
  const roles = refused('forbidden', 'Only a Designer or a Manager can save simulation links.');

  it.each<[string, Case, CaseCommand, Actor, Decision]>([
    [
      'a Designer saves both',
      caseAt('Digital Planning'),
      save('https://v.example/1', 'https://3d.example/1'),
      designer,
      saved('https://v.example/1', 'https://3d.example/1'),
    ],
    [
      'a Manager saves, trimmed',
      caseAt('Digital Planning'),
      save('  http://v.example/1 ', ' '),
      manager,
      saved('http://v.example/1', ''),
    ],
    ['both empty', caseAt('Digital Planning'), save('', undefined), designer, saved('', '')],
    [
      'an ftp link',
      caseAt('Digital Planning'),
      save('ftp://v.example/1', ''),
      designer,
      refused('invalid', 'Simulation Video URL must be an http(s) URL.'),
    ],
    [
      'not a URL',
      caseAt('Digital Planning'),
      save('', 'www.example.com'),
      designer,
      refused('invalid', 'External Simulation Link must be an http(s) URL.'),
    ],
    [
      'a javascript: URL',
      caseAt('Digital Planning'),
      save('javascript:alert(1)', ''),
      designer,
      refused('invalid', 'Simulation Video URL must be an http(s) URL.'),
    ],
    [
      'a link that is not text',
      caseAt('Digital Planning'),
      save(5, ''),
      designer,
      refused('invalid', 'Simulation Video URL must be text.'),
    ],
    ['a Technician', caseAt('Digital Planning'), save('https://v.example/1', ''), tech, roles],
    ['a Representative', caseAt('Digital Planning'), save('https://v.example/1', ''), rep, roles],
    ['the assigned Doctor', caseAt('Digital Planning'), save('https://v.example/1', ''), drLee, roles],
    ['another doctor', caseAt('Digital Planning'), save('https://v.example/1', ''), drPatel, notFound],
    ['at Doctor Approval', caseAt('Doctor Approval'), save('https://v.example/1', ''), designer, onlyAtDp],
    ['at Pending Approval', caseAt('Pending Approval'), save('https://v.example/1', ''), manager, onlyAtDp],
    [
      'at Model Printing, wrong role',
      caseAt('Model Printing'),
      save('https://v.example/1', ''),
      tech,
      onlyAtDp,
    ],
    ['while held', caseAt('Digital Planning', E.held()), save('https://v.example/1', ''), designer, onHold],
    [
      'while held, wrong role',
      caseAt('Digital Planning', E.held()),
      save('https://v.example/1', ''),
      tech,
      onHold,
    ],
    ['wrong role before a bad link', caseAt('Digital Planning'), save('ftp://x', ''), rep, roles],
  ])('%s', (_label, state, command, actor, expected) => {
    expect(run(state, command, actor)).toEqual(expected);
  });

  it('adds, replaces and removes the link file entries, keeping the other files', () => {
    const stl: CaseFile = { name: 'lower.stl', type: 'STL', url: '/u/lower.stl', size: '2.00 MB' };
    const state = given(E.created({ files: [stl] }), E.approved());
    const first = apply(
      state,
      run(state, save('https://v.example/1', 'https://3d.example/1'), designer),
      designer,
    );
    expect(first.simulationVideoUrl).toBe('https://v.example/1');
    expect(first.simulationExternalLink).toBe('https://3d.example/1');
    expect(first.files).toEqual([
      stl,
      { name: 'Simulation Video', type: 'Simulation Video', url: 'https://v.example/1', size: 'Link' },
      { name: 'External Simulation', type: 'External Link', url: 'https://3d.example/1', size: 'Link' },
    ]);
    const second = apply(first, run(first, save('https://v.example/2', ''), designer), designer);
    expect(second.files).toEqual([
      stl,
      { name: 'Simulation Video', type: 'Simulation Video', url: 'https://v.example/2', size: 'Link' },
    ]);
    const cleared = apply(second, run(second, save('', ''), designer), designer);
    expect(cleared.files).toEqual([stl]);
  });
});

describe('ReassignStage (Manager only, not while held)', () => {
  const reassign = (stage: string, assignee: unknown, assigneeIsLabUser = true): CaseCommand => ({
    type: 'ReassignStage',
    stage,
    assignee,
    assigneeIsLabUser,
  });
  const changed = (stage: CaseStatus, assignee: string) => accepted(E.assignee(stage, assignee));
  const state = caseAt('Thermoforming');

  it.each<[string, Case, CaseCommand, Actor, Decision]>([
    [
      'the current stage to a technician',
      state,
      reassign('Thermoforming', 'tech'),
      manager,
      changed('Thermoforming', 'tech'),
    ],
    [
      'a later stage by its internal name',
      state,
      reassign('QualityCheck', 'tech2'),
      manager,
      changed('Quality Check', 'tech2'),
    ],
    [
      'the short Delivery reading',
      state,
      reassign('Delivery', 'rep'),
      manager,
      changed('Delivery to Doctor', 'rep'),
    ],
    [
      'the assignee trimmed',
      state,
      reassign('Thermoforming', '  tech '),
      manager,
      changed('Thermoforming', 'tech'),
    ],
    [
      'back to Unassigned (not a lab user)',
      state,
      reassign('Thermoforming', 'Unassigned', false),
      manager,
      changed('Thermoforming', 'Unassigned'),
    ],
    [
      'to the same assignee → no events',
      state,
      reassign('Thermoforming', 'Tech Team', false),
      manager,
      accepted(),
    ],
    [
      'an unknown stage',
      state,
      reassign('Design', 'tech'),
      manager,
      refused('invalid', 'Unknown workflow stage "Design".'),
    ],
    [
      'Rejected is not a stage',
      state,
      reassign('Rejected', 'tech'),
      manager,
      refused('invalid', 'Unknown workflow stage "Rejected".'),
    ],
    [
      'no assignee',
      state,
      reassign('Thermoforming', ''),
      manager,
      refused('invalid', 'Choose who the stage is assigned to.'),
    ],
    [
      'an assignee that is not text',
      state,
      reassign('Thermoforming', 7),
      manager,
      refused('invalid', 'Assignee must be text.'),
    ],
    [
      'someone who is not a lab user',
      state,
      reassign('Thermoforming', 'ghost', false),
      manager,
      refused('invalid', '"ghost" is not a lab user.'),
    ],
    ['a Technician', state, reassign('Thermoforming', 'tech'), tech, managerOnly],
    ['a Representative', state, reassign('Thermoforming', 'tech'), rep, managerOnly],
    ['a Designer', state, reassign('Thermoforming', 'tech'), designer, managerOnly],
    ['the assigned Doctor', state, reassign('Thermoforming', 'tech'), drLee, managerOnly],
    ['another doctor', state, reassign('Thermoforming', 'tech'), drPatel, notFound],
    ['while held', caseAt('Thermoforming', E.held()), reassign('Thermoforming', 'tech'), manager, onHold],
    [
      'while held, wrong role',
      caseAt('Thermoforming', E.held()),
      reassign('Thermoforming', 'tech'),
      tech,
      onHold,
    ],
    ['wrong role before an unknown stage', state, reassign('Design', 'tech'), rep, managerOnly],
  ])('%s', (_label, given_, command, actor, expected) => {
    expect(run(given_, command, actor)).toEqual(expected);
  });

  it('sets the step, lists the technician (replacing "Unassigned") and notes who did it', () => {
    const first = apply(state, run(state, reassign('Thermoforming', 'tech')));
    expect(first.alignerWorkflow.find((step) => step.name === 'Thermoforming')?.assignedTo).toBe('tech');
    expect(first.assignedTechnicians).toEqual(['tech']);
    expect(first.notes.at(-1)).toMatchObject({
      author: 'admin',
      text: 'Thermoforming reassigned to tech by admin.',
    });

    const second = apply(first, run(first, reassign('Quality Check', 'tech2')));
    expect(second.assignedTechnicians).toEqual(['tech', 'tech2']);
    const again = apply(second, run(second, reassign('Model Printing', 'tech')));
    expect(again.assignedTechnicians).toEqual(['tech', 'tech2']);

    const placeholder = apply(again, run(again, reassign('Thermoforming', 'Tech Team', false)));
    expect(placeholder.assignedTechnicians).toEqual(['tech', 'tech2']);
    expect(placeholder.alignerWorkflow.find((step) => step.name === 'Thermoforming')?.assignedTo).toBe(
      'Tech Team',
    );
  });
});
