import type { Case } from './case.js';
import { CASE_EVENT_TYPES, type CaseEvent, type CaseEventData } from './events.js';
import { evolve, NOTES_ONLY_EVENTS, NOTES_REWRITING_EVENTS } from './evolve.js';
import { CASE_STATUSES } from './status.js';

import {
  time,
  manager,
  drLee,
  createdEvent,
  fold,
  approved,
  advance,
  deepFreeze,
} from '../testing/evolve-fixtures.js';

describe('CaseCreated', () => {
  it('builds the new case from the event, its actor and its time', () => {
    const theCase = evolve(null, { ...createdEvent, actor: drLee, at: time(0) } as CaseEvent);
    expect(theCase).toEqual<Case>({
      id: 'CA-2025-321',
      patientName: 'Jane Doe',
      doctorName: 'Dr. Lee',
      clinicName: 'Smile Clinic',
      assignedDoctorUsername: 'dr.lee',
      type: 'Clear Aligner',
      status: 'Pending Approval',
      statusEnteredAt: time(0),
      priority: 'High',
      onHold: false,
      createdDate: time(0),
      deliveryDate: '2025-03-24',
      assignedTechnicians: ['Unassigned'],
      alignerWorkflow: CASE_STATUSES.map((name) => ({
        name,
        completed: false,
        date: null,
        assignedTo: 'Tech Team',
      })),
      files: [{ name: 'upper.stl', type: 'STL', url: '/u/upper.stl', size: '1.00 MB' }],
      notes: [
        {
          id: `note-${Date.parse(time(0))}-1`,
          author: 'dr.lee',
          role: 'Doctor',
          text: 'Case created by Doctor and submitted for approval.',
          timestamp: time(0),
        },
      ],
      treatmentPlanNotes: 'Crowding',
      simulationVideoUrl: '',
      simulationExternalLink: '',
      price: 1200,
      upperSheets: 3,
      lowerSheets: 4,
      staging: [],
      stageWearTimeInDays: 15,
      createdBy: drLee,
      fee: { amount: 50, currency: 'USD', paidAt: time(0) },
      planVersions: [],
      origin: null,
      followUps: [],
      version: 1,
    });
  });
});

describe('every event type changes what it should', () => {
  const base = fold(createdEvent, approved, advance('Digital Planning', 'Doctor Approval'), {
    type: 'TreatmentPlanApproved',
    data: {},
  }); // at Model Printing, version 4
  const at = time(50);
  const stepOf = (theCase: Case, name: string) => theCase.alignerWorkflow.find((step) => step.name === name)!;

  const changes: [string, CaseEventData, (before: Case, after: Case) => void][] = [
    [
      'CaseApproved',
      { type: 'CaseApproved', data: { doctorUsername: 'dr.patel' } },
      (_before, after) => {
        expect(after.status).toBe('Digital Planning');
        expect(after.assignedDoctorUsername).toBe('dr.patel');
        expect(after.notes.at(-1)?.text).toBe('Case approved by admin and assigned to doctor dr.patel.');
      },
    ],
    [
      'CaseRejected',
      { type: 'CaseRejected', data: { reason: 'No scan' } },
      (before, after) => {
        expect(after.status).toBe('Rejected');
        expect(after.statusEnteredAt).toBe(at);
        expect(after.alignerWorkflow).toEqual(before.alignerWorkflow);
        expect(after.notes.at(-1)?.text).toBe('Case rejected: No scan');
      },
    ],
    [
      'StageAdvanced',
      advance('Model Printing', 'Thermoforming'),
      (_before, after) => {
        expect(after.status).toBe('Thermoforming');
        expect(stepOf(after, 'Model Printing')).toMatchObject({ completed: true, date: at });
      },
    ],
    [
      'TreatmentPlanApproved',
      { type: 'TreatmentPlanApproved', data: {} },
      (_before, after) => expect(after.status).toBe('Model Printing'),
    ],
    [
      'ChangesRequested',
      { type: 'ChangesRequested', data: { comment: 'Tooth 11' } },
      (before, after) => {
        expect(after.status).toBe('Digital Planning');
        expect(after.alignerWorkflow.slice(0, 2)).toEqual(before.alignerWorkflow.slice(0, 2));
        expect(after.alignerWorkflow.slice(2).every((step) => !step.completed && step.date === null)).toBe(
          true,
        );
        expect(after.notes.at(-1)?.text).toBe('Changes requested: Tooth 11');
      },
    ],
    ['CaseHeld', { type: 'CaseHeld', data: {} }, (_before, after) => expect(after.onHold).toBe(true)],
    ['CaseResumed', { type: 'CaseResumed', data: {} }, (_before, after) => expect(after.onHold).toBe(false)],
    [
      'CaseDetailsEdited',
      { type: 'CaseDetailsEdited', data: { changes: { patientName: 'John Roe', deliveryDate: null } } },
      (before, after) => {
        expect(after.patientName).toBe('John Roe');
        expect(after.deliveryDate).toBeNull();
        expect(after.files).toEqual(before.files);
      },
    ],
    [
      'PricingUpdated',
      { type: 'PricingUpdated', data: { price: null, upperSheets: 20, lowerSheets: 18 } },
      (_before, after) => expect([after.price, after.upperSheets, after.lowerSheets]).toEqual([null, 20, 18]),
    ],
    [
      'SimulationLinksSaved',
      {
        type: 'SimulationLinksSaved',
        data: { simulationVideoUrl: 'https://v.example/1', simulationExternalLink: '' },
      },
      (before, after) => {
        expect(after.simulationVideoUrl).toBe('https://v.example/1');
        expect(after.files).toEqual([
          ...before.files,
          { name: 'Simulation Video', type: 'Simulation Video', url: 'https://v.example/1', size: 'Link' },
        ]);
      },
    ],
    [
      'StageAssigneeChanged',
      { type: 'StageAssigneeChanged', data: { stage: 'Quality Check', assignee: 'tech2', viaQr: false } },
      (_before, after) => {
        expect(stepOf(after, 'Quality Check').assignedTo).toBe('tech2');
        expect(after.assignedTechnicians).toEqual(['tech2']);
        expect(after.notes.at(-1)?.text).toBe('Quality Check reassigned to tech2 by admin.');
      },
    ],
    [
      'QrAssignmentKept',
      { type: 'QrAssignmentKept', data: { stage: 'Model Printing', owner: 'tech2' } },
      (before, after) => {
        expect(after.alignerWorkflow).toEqual(before.alignerWorkflow);
        expect(after.notes.at(-1)?.text).toBe(
          'admin generated the case QR code; Model Printing stays assigned to tech2.',
        );
      },
    ],
    [
      'NoteAdded',
      { type: 'NoteAdded', data: { text: 'Hello' } },
      (before, after) => {
        expect(after.notes).toHaveLength(before.notes.length + 1);
        expect(after.notes.at(-1)).toEqual({
          id: `note-${Date.parse(at)}-${after.version}`,
          author: 'admin',
          role: 'Manager',
          text: 'Hello',
          timestamp: at,
        });
      },
    ],
    [
      'AlignerStageChanged (no such stage is a no-op on staging)',
      { type: 'AlignerStageChanged', data: { stageNumber: 1, status: 'In Progress' } },
      (before, after) => expect(after.staging).toEqual(before.staging),
    ],
    ['CaseDeleted', { type: 'CaseDeleted', data: {} }, (_before, after) => expect(after.deleted).toBe(true)],
    [
      'FilesAdded',
      {
        type: 'FilesAdded',
        data: { files: [{ name: 'a.pdf', type: 'Document', url: '/api/files/x/a.pdf', size: '0.01 MB' }] },
      },
      (before, after) =>
        expect(after.files.slice(before.files.length).map((file) => file.name)).toEqual(['a.pdf']),
    ],
    [
      'FileRemoved (an unknown url changes nothing)',
      { type: 'FileRemoved', data: { url: '/api/files/none/x', reason: 'Wrong patient' } },
      (before, after) => expect(after.files).toEqual(before.files),
    ],
    [
      'FollowUpOrdered',
      {
        type: 'FollowUpOrdered',
        data: { caseId: 'CA-2025-999', kind: 'remake', reasonCode: 'lost', reason: '' },
      },
      (_before, after) => expect(after.followUps).toEqual([{ caseId: 'CA-2025-999', kind: 'remake' }]),
    ],
    [
      'ShipmentRecorded',
      { type: 'ShipmentRecorded', data: { carrier: 'ups', trackingNumber: '1Z 999', shippedAt: at } },
      (_before, after) =>
        expect(after.shipments).toEqual([
          {
            carrier: 'ups',
            trackingNumber: '1Z 999',
            trackingUrl: 'https://www.ups.com/track?tracknum=1Z%20999',
            shippedAt: at,
            by: 'admin',
          },
        ]),
    ],
    [
      'CaseReceived',
      { type: 'CaseReceived', data: {} },
      (_before, after) => expect(after.receivedAt).toBe(at),
    ],
    [
      'FilePurged (an unknown url changes nothing)',
      { type: 'FilePurged', data: { url: '/api/files/none/x', reason: 'Misfiled' } },
      (before, after) => expect(after.files).toEqual(before.files),
    ],
    [
      'CaseErased',
      { type: 'CaseErased', data: { reason: 'Asked by the patient' } },
      (_before, after) =>
        expect(after).toMatchObject({
          patientName: 'Erased patient',
          files: [],
          erasedAt: at,
          erasedBy: 'admin',
        }),
    ],
    [
      'CaseAtRisk (only the record of the alert changes)',
      { type: 'CaseAtRisk', data: { kind: 'overdue', day: '2025-03-21', deliveryDate: '2025-03-20' } },
      (before, after) => {
        const { riskAlerts, version: _after, ...rest } = after;
        const { version: _before, ...restBefore } = before;
        expect(rest).toEqual(restBefore);
        expect(riskAlerts).toEqual({ overdue: '2025-03-21' });
      },
    ],
  ];
  it.each(changes)('%s', (_label, event, check) => {
    const before = deepFreeze(structuredClone(base));
    const after = evolve(before, { ...event, actor: manager, at } as CaseEvent);
    expect(after.version).toBe(before.version + 1);
    check(before, after);
  });

  it.each(changes)(
    '%s keeps the notes the case holds, unless it rewrites them (NOTES_REWRITING_EVENTS)',
    (_label, event) => {
      const before = deepFreeze(structuredClone(base));
      const after = evolve(before, { ...event, actor: manager, at } as CaseEvent);
      const kept = after.notes.slice(0, before.notes.length);
      if (NOTES_REWRITING_EVENTS.has(event.type))
        expect(kept.every((note, i) => note === before.notes[i])).toBe(false);
      else expect(kept.every((note, i) => note === before.notes[i])).toBe(true);
    },
  );

  it('covers the whole event catalogue', () => {
    expect([...CASE_EVENT_TYPES].sort()).toEqual(
      [
        'CaseCreated',
        'CaseApproved',
        'CaseRejected',
        'StageAdvanced',
        'TreatmentPlanApproved',
        'ChangesRequested',
        'CaseHeld',
        'CaseResumed',
        'CaseDetailsEdited',
        'PricingUpdated',
        'SimulationLinksSaved',
        'StageAssigneeChanged',
        'QrAssignmentKept',
        'NoteAdded',
        'AlignerStageChanged',
        'CaseDeleted',
        'CaseImported',
        'FilesAdded',
        'FileRemoved',
        'FollowUpOrdered',
        'CaseAtRisk',
        'ShipmentRecorded',
        'CaseReceived',
        'CaseErased',
        'FilePurged',
      ].sort(),
    );
  });
});

describe('NOTES_ONLY_EVENTS', () => {
  it('change nothing of a case but its notes and version, in any stage', () => {
    const cases = [
      fold(createdEvent),
      fold(createdEvent, approved),
      fold(createdEvent, approved, advance('Digital Planning', 'Doctor Approval')),
    ];
    for (const type of NOTES_ONLY_EVENTS)
      for (const before of cases) {
        const event = { type, data: { text: 'A note' }, actor: manager, at: time(9) } as CaseEvent;
        const { notes: _n, version: _v, ...rest } = evolve(deepFreeze(structuredClone(before)), event);
        const { notes: _bn, version: _bv, ...restBefore } = before;
        expect(rest).toEqual(restBefore);
      }
  });
});
