import fc from 'fast-check';
import type { Case, StageStatus, StagingEntry } from './case.js';
import { caseStreamId, type CaseEvent, type CaseEventData } from './events.js';
import { evolve, evolveInPlace, foldCase, stageWithStatus } from './evolve.js';
import { ALL_CASE_STATUSES } from './status.js';

import {
  time,
  manager,
  createdEvent,
  stamp,
  fold,
  approved,
  advance,
  toCompleted,
  deepFreeze,
} from '../testing/evolve-fixtures.js';

describe('folding a stream', () => {
  it('gives null for no events', () => {
    expect(foldCase([])).toBeNull();
  });

  it.each(['CaseApproved', 'StageAdvanced', 'NoteAdded', 'CaseDeleted'] as const)(
    '%s cannot start a stream',
    (type) => {
      const event = { type, data: {}, actor: manager, at: time(0) } as unknown as CaseEvent;
      expect(() => evolve(null, event)).toThrow(`${type} cannot start a case stream`);
    },
  );

  it('counts one version per event and gives every note its own id', () => {
    const events = stamp([
      createdEvent,
      { type: 'NoteAdded', data: { text: 'a' } },
      { type: 'NoteAdded', data: { text: 'b' } },
      approved,
    ]);
    // Same timestamp for all: note ids must still differ.
    const sameTime = events.map((event) => ({ ...event, at: time(0) }));
    const theCase = foldCase(sameTime)!;
    expect(theCase.version).toBe(4);
    expect(new Set(theCase.notes.map((note) => note.id)).size).toBe(theCase.notes.length);
  });

  it('never changes the state it is given', () => {
    const events = stamp(toCompleted);
    let state: Case | null = null;
    for (const event of events) state = evolve(deepFreeze(state), event);
    expect(state!.status).toBe('Completed');
  });

  it('walks to Completed with every step completed, dated in order, and staging of max(upper, lower)', () => {
    const theCase = fold(...toCompleted);
    expect(theCase.status).toBe('Completed');
    expect(theCase.alignerWorkflow.every((step) => step.completed)).toBe(true);
    const dates = theCase.alignerWorkflow.map((step) => step.date!);
    expect([...dates].sort()).toEqual(dates);
    expect(theCase.staging).toHaveLength(4);
    expect(theCase.version).toBe(toCompleted.length);
  });

  it('imports a case whole, as a copy, at the next version', () => {
    const source = fold(...toCompleted);
    const { version: _version, ...imported } = source;
    const event = {
      type: 'CaseImported',
      data: { case: imported },
      actor: manager,
      at: time(99),
    } as CaseEvent;
    const fresh = evolve(null, event);
    expect(fresh).toEqual({ ...source, version: 1 });
    const notes = fresh.notes.length;
    imported.notes.push({ id: 'x', author: 'x', role: 'x', text: 'x', timestamp: time(99) });
    expect(fresh.notes).toHaveLength(notes);
    expect(evolve(fresh, event).version).toBe(2);
  });

  it('does not rebuild staging that an imported case already has when it reaches Completed', () => {
    const atDelivery = fold(...toCompleted.slice(0, -1));
    expect(atDelivery.status).toBe('Delivery to Doctor');
    const staging: StagingEntry[] = [
      { stageNumber: 1, status: 'Completed', startDate: time(1), endDate: time(2) },
    ];
    const { version: _version, ...withStaging } = { ...atDelivery, staging, stageWearTimeInDays: 10 };
    const done = fold(
      { type: 'CaseImported', data: { case: withStaging } },
      advance('Delivery to Doctor', 'Completed'),
    );
    expect(done.staging).toEqual(staging);
    expect(done.stageWearTimeInDays).toBe(10);
  });

  it('a technician placeholder is never listed as a technician', () => {
    const theCase = fold(
      createdEvent,
      {
        type: 'StageAssigneeChanged',
        data: { stage: 'Model Printing', assignee: 'Tech Team', viaQr: false },
      },
      {
        type: 'StageAssigneeChanged',
        data: { stage: 'Thermoforming', assignee: 'Unassigned', viaQr: false },
      },
    );
    expect(theCase.assignedTechnicians).toEqual(['Unassigned']);
    const named = fold(
      createdEvent,
      [
        { type: 'StageAssigneeChanged', data: { stage: 'Model Printing', assignee: 'tech', viaQr: true } },
        { username: 'tech', role: 'Technician' },
      ],
      {
        type: 'StageAssigneeChanged',
        data: { stage: 'Thermoforming', assignee: 'Unassigned', viaQr: false },
      },
    );
    expect(named.assignedTechnicians).toEqual(['tech']);
    expect(named.notes.at(-2)?.text).toBe('tech took Model Printing by generating the case QR code.');
  });

  it('an edited link syncs only its own file entry', () => {
    const uploaded = {
      name: 'walkthrough.mp4',
      type: 'Simulation Video' as const,
      url: '/u/w.mp4',
      size: '3.00 MB',
    };
    const external = {
      name: 'viewer',
      type: 'External Link' as const,
      url: 'https://3d.example/old',
      size: 'Link',
    };
    const theCase = fold(
      { ...createdEvent, data: { ...createdEvent.data, files: [uploaded, external] } } as CaseEventData,
      { type: 'CaseDetailsEdited', data: { changes: { simulationExternalLink: 'https://3d.example/new' } } },
    );
    expect(theCase.files).toEqual([
      uploaded,
      { name: 'External Simulation', type: 'External Link', url: 'https://3d.example/new', size: 'Link' },
    ]);
  });

  it('names the stream after the case', () => {
    expect(caseStreamId('CA-2025-321')).toBe('case-CA-2025-321');
  });
});

describe('stageWithStatus (spec section 4, stage status)', () => {
  const entry = (status: StageStatus, startDate: string | null, endDate: string | null): StagingEntry => ({
    stageNumber: 2,
    status,
    startDate,
    endDate,
  });
  const NOW = time(10);
  const EARLIER = time(1);

  it.each<[string, StagingEntry, StageStatus, StagingEntry]>([
    [
      'start sets the start date',
      entry('Not Started', null, null),
      'In Progress',
      entry('In Progress', NOW, null),
    ],
    [
      'start keeps an existing start date',
      entry('Not Started', EARLIER, null),
      'In Progress',
      entry('In Progress', EARLIER, null),
    ],
    ['complete ends now', entry('In Progress', EARLIER, null), 'Completed', entry('Completed', EARLIER, NOW)],
    [
      'complete without start sets both',
      entry('Not Started', null, null),
      'Completed',
      entry('Completed', NOW, NOW),
    ],
    [
      're-open clears the end',
      entry('Completed', EARLIER, time(5)),
      'In Progress',
      entry('In Progress', EARLIER, null),
    ],
    [
      'reset clears both',
      entry('Completed', EARLIER, time(5)),
      'Not Started',
      entry('Not Started', null, null),
    ],
  ])('%s', (_label, before, status, after) => {
    expect(stageWithStatus(before, status, NOW)).toEqual(after);
  });
});

describe('evolveInPlace and foldCase (one set of rules with evolve)', () => {
  const statusArb = fc.constantFrom<string>(...ALL_CASE_STATUSES, 'Bogus');
  const imported: CaseEventData = {
    type: 'CaseImported',
    data: {
      case: {
        ...structuredClone(fold(createdEvent, approved)),
        version: undefined,
        // Imported documents may be incomplete: steps without a date, stages numbered twice.
        alignerWorkflow: [
          { name: 'Pending Approval', completed: true, date: time(0), assignedTo: 'x' },
          { name: 'Scan Received' } as Case['alignerWorkflow'][number],
          { name: 'Digital Planning', completed: true, date: null, assignedTo: 'y' },
        ],
        staging: [
          { stageNumber: 1, status: 'Not Started', startDate: null, endDate: null },
          { stageNumber: 1, status: 'Completed', startDate: time(1), endDate: time(2) },
        ],
      } as Omit<Case, 'version'>,
    },
  };
  const eventArb: fc.Arbitrary<CaseEventData> = fc.oneof(
    fc.constant(createdEvent),
    fc.constant(imported),
    fc.constant(approved),
    fc.record({ type: fc.constant('CaseRejected'), data: fc.record({ reason: fc.string() }) }),
    fc.record({ type: fc.constant('StageAdvanced'), data: fc.record({ from: statusArb, to: statusArb }) }),
    fc.constant({ type: 'TreatmentPlanApproved', data: {} }),
    fc.record({ type: fc.constant('ChangesRequested'), data: fc.record({ comment: fc.string() }) }),
    fc.constantFrom(
      { type: 'CaseHeld', data: {} },
      { type: 'CaseResumed', data: {} },
      { type: 'CaseDeleted', data: {} },
    ),
    fc.record({
      type: fc.constant('CaseDetailsEdited'),
      data: fc.record({
        changes: fc.dictionary(
          fc.constantFrom(
            'patientName',
            'simulationVideoUrl',
            'simulationExternalLink',
            'priority',
            '__proto__',
          ),
          fc.constantFrom('', 'https://v.example/1', null),
        ),
      }),
    }),
    fc.record({
      type: fc.constant('PricingUpdated'),
      data: fc.record({
        price: fc.integer(),
        upperSheets: fc.option(fc.nat(5)),
        lowerSheets: fc.option(fc.nat(5)),
      }),
    }),
    fc.record({
      type: fc.constant('SimulationLinksSaved'),
      data: fc.record({
        simulationVideoUrl: fc.constantFrom('', 'https://v'),
        simulationExternalLink: fc.constantFrom('', 'https://e'),
      }),
    }),
    fc.record({
      type: fc.constant('StageAssigneeChanged'),
      data: fc.record({
        stage: statusArb,
        assignee: fc.constantFrom('tech', 'Tech Team', 'Unassigned'),
        viaQr: fc.boolean(),
      }),
    }),
    fc.record({
      type: fc.constant('QrAssignmentKept'),
      data: fc.record({ stage: statusArb, owner: fc.string() }),
    }),
    fc.record({ type: fc.constant('NoteAdded'), data: fc.record({ text: fc.string() }) }),
    fc.record({
      type: fc.constant('AlignerStageChanged'),
      data: fc.record({
        stageNumber: fc.nat(5),
        status: fc.constantFrom<StageStatus>('Not Started', 'In Progress', 'Completed'),
      }),
    }),
  ) as fc.Arbitrary<CaseEventData>;
  const streamArb = fc
    .tuple(fc.constantFrom(createdEvent, imported), fc.array(eventArb, { maxLength: 40 }))
    .map(([first, rest]) => stamp([first, ...rest]));

  it('give the same cases, key order included, and evolve changes nothing it is given', () => {
    fc.assert(
      fc.property(streamArb, (events) => {
        let pure: Case | null = null;
        let inPlace: Case | null = null;
        for (const event of events) {
          pure = evolve(deepFreeze(pure), deepFreeze(event));
          inPlace = evolveInPlace(inPlace, structuredClone(event));
          expect(JSON.stringify(inPlace)).toBe(JSON.stringify(pure));
        }
        expect(JSON.stringify(foldCase(structuredClone(events)))).toBe(JSON.stringify(pure));
      }),
      { numRuns: 500 },
    );
  });

  it('evolveInPlace changes the state it is given and keeps its arrays', () => {
    const state = fold(createdEvent, approved);
    const notes = state.notes;
    const [event] = stamp([{ type: 'NoteAdded', data: { text: 'a' } }]);
    expect(evolveInPlace(state, event)).toBe(state);
    expect(state.notes).toBe(notes);
    expect(notes.at(-1)?.text).toBe('a');
  });
});
