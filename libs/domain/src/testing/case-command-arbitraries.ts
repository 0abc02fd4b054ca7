/** fast-check arbitraries of case commands, actors and starting cases, for the invariant specs. */
import fc from 'fast-check';
import type { Case } from '../case/case.js';
import { type CaseCommand, type NewCaseInput } from '../case/commands.js';
import { ALL_CASE_STATUSES, WORKFLOW_ORDER } from '../case/status.js';
import { type Actor, type Role } from '../permissions/roles.js';
import { T0, manager, rep, designer, tech, tech2, drLee, drPatel } from './case-fixtures.js';

export { T0, manager, rep, designer, tech, tech2, drLee, drPatel };
export const at = (step: number) => new Date(T0 + step * 37 * 60_000).toISOString(); // increasing, 37 min apart

export const USERS: Actor[] = [manager, rep, designer, tech, tech2, drLee, drPatel];
export const DIRECTORY = new Map<string, { username: string; role: Role }>(
  USERS.map((user) => [user.username, user]),
);
export const LAB_USERS = new Set(USERS.filter((user) => user.role !== 'Doctor').map((user) => user.username));

/** Markers resolved against the state at the time of the command. */
export const CURRENT_STATUS = '<current status>';
export const UNCHANGED = '<unchanged>';

// ---------------------------------------------------------------------------------------------
// Arbitraries

export const junkArb = fc.oneof(
  fc.string({ maxLength: 12 }),
  fc.jsonValue({ maxDepth: 2 }),
  fc.constant(undefined),
);
export const textArb = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom('Looks good', '  Trim me \n', 'Line 1\nLine 2', '', '   ') },
  { weight: 1, arbitrary: fc.constant('x'.repeat(6000)) },
  { weight: 2, arbitrary: junkArb },
);
export const statusNameArb = fc.constantFrom<string>(
  ...ALL_CASE_STATUSES,
  ...WORKFLOW_ORDER,
  'Delivery',
  'quality check',
  'Bogus',
  '',
);
export const sheetsArb = fc.oneof(
  { weight: 6, arbitrary: fc.integer({ min: 0, max: 12 }) },
  { weight: 2, arbitrary: fc.constantFrom<unknown>(null, '', '7', 'abc', 2.5, -1, 250) },
);
export const priceArb = fc.oneof(
  fc.integer({ min: -10, max: 5000 }),
  fc.constantFrom<unknown>('99.90', '1200', 'abc', '', null, '-1', 2_000_000),
);
export const linkArb = fc.oneof(
  {
    weight: 4,
    arbitrary: fc.constantFrom<unknown>(
      '',
      'https://sim.example/v1',
      '  http://sim.example/v2  ',
      'ftp://sim.example/v3',
      'javascript:alert(1)',
      'not a url',
    ),
  },
  { weight: 1, arbitrary: junkArb },
);
export const stageNumberArb = fc.oneof(fc.integer({ min: 1, max: 4 }), fc.integer({ min: -1, max: 14 }));
export const EDIT_FIELDS = [
  'patientName',
  'doctorName',
  'clinicName',
  'priority',
  'treatmentPlanNotes',
  'simulationVideoUrl',
  'simulationExternalLink',
  'deliveryDate',
  'status',
  'id',
  'price',
  'onHold',
  'alignerWorkflow',
  'version',
  'favouriteColour',
];
export const editValueArb = fc.oneof(
  { weight: 3, arbitrary: fc.constant<unknown>(UNCHANGED) },
  {
    weight: 4,
    arbitrary: fc.constantFrom<unknown>('John Roe', '', 'High', 'Normal', 'Low', '2025-06-01', 'soon', null),
  },
  { weight: 2, arbitrary: linkArb },
  { weight: 1, arbitrary: junkArb },
);

export const newCaseInputArb: fc.Arbitrary<NewCaseInput> = fc.record(
  {
    patientName: fc.constantFrom<unknown>('Jane Doe', '  Jane Doe ', '', 7),
    doctorName: fc.constant('Dr. Lee'),
    clinicName: fc.constant('Smile Clinic'),
    priority: fc.constantFrom<unknown>('Normal', 'High', 'Low', undefined),
    deliveryDate: fc.constantFrom<unknown>(undefined, '', '2025-04-30', 'soon'),
    price: priceArb,
    upperSheets: sheetsArb,
    lowerSheets: sheetsArb,
  },
  { requiredKeys: ['patientName', 'doctorName', 'clinicName'] },
);

export const approveArb = fc
  .oneof(
    { weight: 4, arbitrary: fc.constantFrom('dr.lee', 'dr.patel', 'DR.PATEL') },
    { weight: 1, arbitrary: fc.constantFrom('tech', 'ghost', '', '  ') },
  )
  .map((doctorUsername): CaseCommand => ({
    type: 'ApproveCase',
    doctorUsername,
    doctor: DIRECTORY.get(doctorUsername.trim().toLowerCase()) ?? null,
  }));

export const reassignArb = fc
  .record({
    stage: statusNameArb,
    assignee: fc.oneof(
      {
        weight: 4,
        arbitrary: fc.constantFrom<unknown>('tech', 'tech2', 'Unassigned', 'Tech Team', 'admin', 'ghost', ''),
      },
      { weight: 1, arbitrary: junkArb },
    ),
  })
  .map(({ stage, assignee }): CaseCommand => ({
    type: 'ReassignStage',
    stage,
    assignee,
    assigneeIsLabUser: typeof assignee === 'string' && LAB_USERS.has(assignee.trim()),
  }));

export const commandArb: fc.Arbitrary<CaseCommand> = fc.oneof(
  {
    weight: 1,
    arbitrary: newCaseInputArb.map((input): CaseCommand => ({
      type: 'CreateCase',
      caseId: 'CA-2025-500',
      input,
    })),
  },
  { weight: 10, arbitrary: approveArb },
  { weight: 2, arbitrary: textArb.map((reason): CaseCommand => ({ type: 'RejectCase', reason })) },
  {
    weight: 40,
    arbitrary: fc
      .option(
        fc.oneof(
          { weight: 3, arbitrary: fc.constant(CURRENT_STATUS) },
          { weight: 1, arbitrary: statusNameArb },
        ),
        {
          nil: undefined,
        },
      )
      .map((fromStatus): CaseCommand => ({ type: 'AdvanceStage', fromStatus })),
  },
  { weight: 10, arbitrary: fc.constant<CaseCommand>({ type: 'ApproveTreatmentPlan' }) },
  { weight: 3, arbitrary: textArb.map((comment): CaseCommand => ({ type: 'RequestChanges', comment })) },
  { weight: 2, arbitrary: fc.constant<CaseCommand>({ type: 'HoldCase' }) },
  { weight: 5, arbitrary: fc.constant<CaseCommand>({ type: 'ResumeCase' }) },
  {
    weight: 4,
    arbitrary: fc
      .dictionary(fc.constantFrom(...EDIT_FIELDS), editValueArb, { maxKeys: 4 })
      .map((fields): CaseCommand => ({ type: 'EditCase', fields })),
  },
  {
    weight: 5,
    arbitrary: fc
      .record({ price: priceArb, upperSheets: sheetsArb, lowerSheets: sheetsArb })
      .map((pricing): CaseCommand => ({ type: 'UpdatePricing', ...pricing })),
  },
  {
    weight: 4,
    arbitrary: fc
      .record({ simulationVideoUrl: linkArb, simulationExternalLink: linkArb })
      .map((links): CaseCommand => ({ type: 'SaveSimulationLinks', ...links })),
  },
  { weight: 4, arbitrary: reassignArb },
  { weight: 6, arbitrary: fc.constant<CaseCommand>({ type: 'GenerateCaseQr' }) },
  { weight: 4, arbitrary: textArb.map((text): CaseCommand => ({ type: 'AddNote', text })) },
  {
    weight: 8,
    arbitrary: fc
      .record({
        stageNumber: stageNumberArb,
        action: fc.constantFrom('start', 'complete', 'reopen', 'reset' as const),
      })
      .map((change): CaseCommand => ({ type: 'ChangeAlignerStage', ...change })),
  },
  {
    weight: 6,
    arbitrary: stageNumberArb.map((stageNumber): CaseCommand => ({ type: 'ScanAlignerStage', stageNumber })),
  },
  { weight: 1, arbitrary: fc.constant<CaseCommand>({ type: 'DeleteCase' }) },
);

/**
 * Anyone acts, both doctors included; OWNER stands for the user a real lab would have act next (the
 * stage's owner, the assigned doctor), so that cases travel the whole road often enough.
 */
export const OWNER = 'owner' as const;
export type ActorChoice = Actor | typeof OWNER;
export const actorArb: fc.Arbitrary<ActorChoice> = fc.oneof(
  { weight: 3, arbitrary: fc.constant(OWNER) },
  { weight: 2, arbitrary: fc.constant(manager) },
  { weight: 4, arbitrary: fc.constantFrom(rep, designer, tech, tech2, drLee, drPatel) },
);

export function actorFor(choice: ActorChoice, state: Case): Actor {
  if (choice !== OWNER) return choice;
  const doctor = state.assignedDoctorUsername;
  switch (state.status) {
    case 'Digital Planning':
      return designer;
    case 'Model Printing':
    case 'Thermoforming':
    case 'Trimming & Polishing':
    case 'Quality Check':
      return tech;
    case 'Packaging & Labeling':
    case 'Delivery to Doctor':
      return rep;
    case 'Doctor Approval':
    case 'Completed':
      return doctor ? { username: doctor, role: 'Doctor' } : manager;
    default:
      return manager;
  }
}

/** A valid new case: its pricing may be absent or not numeric, but never out of bounds. */
export const setupSheetsArb = fc.oneof(
  { weight: 6, arbitrary: fc.integer({ min: 0, max: 12 }) },
  { weight: 2, arbitrary: fc.constantFrom<unknown>(null, '', '7', 'abc', 2.5) },
);
export interface Setup {
  creator: Actor;
  priority: string;
  price: unknown;
  upperSheets: unknown;
  lowerSheets: unknown;
}
export const setupArb: fc.Arbitrary<Setup> = fc.record({
  creator: fc.constantFrom(manager, rep, drLee, drPatel),
  priority: fc.constantFrom('Normal', 'High'),
  price: fc.oneof(fc.integer({ min: 0, max: 5000 }), fc.constantFrom<unknown>('99.90', 'abc', '', null)),
  upperSheets: setupSheetsArb,
  lowerSheets: setupSheetsArb,
});
