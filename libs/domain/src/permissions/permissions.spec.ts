import {
  canActOnCase,
  canSeeCase,
  isAssignedDoctor,
  STAGE_OWNERS,
  stageOwners,
} from '../case/case-access.js';
import { CAPABILITIES, can, type Capability } from './permissions.js';
import {
  ADMIN_USERNAME,
  isAdminUsername,
  isStaff,
  parseRole,
  ROLES,
  sameUsername,
  STAFF_ROLES,
  type Actor,
  type Role,
} from './roles.js';
import { ALL_CASE_STATUSES, type CaseStatus } from '../case/status.js';

const Y = true;
const N = false;

/**
 * Spec section 6 with the product decisions' answers to its open points ("not shown", "two readings"):
 * Hold/Resume, Edit and Delete are Manager only; pricing Manager + Representative; AI photo analysis
 * the staff roles; the case QR the users allowed to act on the case.
 */
const CAPABILITY_TABLE: [
  Capability,
  manager: boolean,
  rep: boolean,
  designer: boolean,
  tech: boolean,
  doctor: boolean,
][] = [
  ['createCase', Y, Y, N, N, Y],
  ['editCase', Y, N, N, N, N],
  ['deleteCase', Y, N, N, N, N],
  ['holdCase', Y, N, N, N, N],
  ['approveCase', Y, N, N, N, N],
  ['rejectCase', Y, N, N, N, N],
  ['reassignStage', Y, N, N, N, N],
  ['saveSimulation', Y, N, Y, N, N],
  ['selfAssignViaQr', N, N, N, Y, N],
  ['editPricing', Y, Y, N, N, N],
  ['analyzePhoto', Y, Y, Y, Y, N],
  ['reviewTreatmentPlan', N, N, N, N, Y],
  ['changeStaging', Y, N, N, N, Y],
  ['viewDashboard', Y, Y, Y, Y, N],
  ['viewWorkQueue', Y, Y, Y, Y, N],
  ['listUsers', Y, Y, Y, Y, N],
  ['manageUsers', Y, N, N, N, N],
  ['backup', Y, N, N, N, N],
  ['viewReports', Y, N, N, N, N],
  ['viewAccessLog', Y, N, N, N, N],
  ['sendNotifications', Y, N, N, N, N],
  ['scanQr', Y, Y, Y, Y, Y],
];
const ROLE_COLUMNS: Role[] = ['Manager', 'Representative', 'Designer', 'Technician', 'Doctor'];

describe('capability table (spec section 6 + product decisions)', () => {
  it('covers every capability the library defines', () => {
    expect(CAPABILITY_TABLE.map(([capability]) => capability).sort()).toEqual(
      Object.keys(CAPABILITIES).sort(),
    );
  });

  it.each(
    CAPABILITY_TABLE.flatMap(([capability, ...allowed]) =>
      ROLE_COLUMNS.map((role, index) => [capability, role, allowed[index]] as const),
    ),
  )('%s for %s → %s', (capability, role, allowed) => {
    expect(can(role, capability)).toBe(allowed);
  });
});

/** Spec section 4, stage ownership: who may "Complete Stage & Advance". */
const OWNERS_TABLE: [CaseStatus, Role[]][] = [
  ['Pending Approval', []],
  ['Scan Received', []],
  ['Digital Planning', ['Designer', 'Manager']],
  ['Doctor Approval', []],
  ['Model Printing', ['Technician', 'Manager']],
  ['Thermoforming', ['Technician', 'Manager']],
  ['Trimming & Polishing', ['Technician', 'Manager']],
  ['Quality Check', ['Technician', 'Manager']],
  ['Packaging & Labeling', ['Representative', 'Manager']],
  ['Delivery to Doctor', ['Representative', 'Manager']],
  ['Completed', []],
  ['Rejected', []],
];

describe('stage ownership (spec section 4)', () => {
  it('has a row for every status', () => {
    expect(OWNERS_TABLE.map(([status]) => status)).toEqual(ALL_CASE_STATUSES);
  });

  it.each(OWNERS_TABLE)('%s is owned by %j', (status, owners) => {
    expect([...stageOwners(status)]).toEqual(owners);
  });

  it('accepts internal names and the short Delivery reading', () => {
    expect([...stageOwners('TrimmingPolishing' as CaseStatus)]).toEqual(['Technician', 'Manager']);
    expect([...stageOwners('Delivery' as CaseStatus)]).toEqual(['Representative', 'Manager']);
    expect([...stageOwners('Unknown' as CaseStatus)]).toEqual([]);
  });

  it('never lets a Doctor own a stage', () => {
    for (const owners of Object.values(STAGE_OWNERS)) expect(owners).not.toContain('Doctor');
  });

  it.each(
    OWNERS_TABLE.flatMap(([status, owners]) =>
      ROLE_COLUMNS.map((role) => [status, role, role === 'Manager' || owners.includes(role)] as const),
    ),
  )('canActOnCase at %s for %s → %s (Manager, or an owner of the stage)', (status, role, allowed) => {
    expect(canActOnCase({ username: 'someone', role }, { status })).toBe(allowed);
  });
});

describe('case visibility: staff see every case, a doctor only their own', () => {
  const lee: Actor = { username: 'dr.lee', role: 'Doctor' };
  it.each<[string, Actor, string | null, boolean | undefined, boolean]>([
    ['a Manager, unassigned case', { username: 'admin', role: 'Manager' }, null, undefined, true],
    [
      'a Representative, other doctor',
      { username: 'rep', role: 'Representative' },
      'dr.patel',
      undefined,
      true,
    ],
    ['a Designer', { username: 'designer', role: 'Designer' }, 'dr.lee', undefined, true],
    ['a Technician', { username: 'tech', role: 'Technician' }, null, false, true],
    ['the assigned doctor', lee, 'dr.lee', undefined, true],
    ['the assigned doctor, other letter case', lee, 'Dr.Lee', undefined, true],
    ['another doctor', lee, 'dr.patel', undefined, false],
    ['a doctor, unassigned case', lee, null, undefined, false],
    ['a doctor, empty assignee', { username: '', role: 'Doctor' }, '', undefined, false],
    ['a Manager, deleted case', { username: 'admin', role: 'Manager' }, null, true, false],
    ['the assigned doctor, deleted case', lee, 'dr.lee', true, false],
  ])('%s → %s', (_label, actor, assignedDoctorUsername, deleted, visible) => {
    expect(canSeeCase(actor, { assignedDoctorUsername, deleted })).toBe(visible);
  });

  it.each<[Actor, string | null, boolean]>([
    [lee, 'dr.lee', true],
    [lee, 'DR.LEE', true],
    [lee, 'dr.patel', false],
    [lee, null, false],
    [{ username: 'dr.lee', role: 'Manager' }, 'dr.lee', false],
  ])('isAssignedDoctor(%j, %j) → %s', (actor, assignedDoctorUsername, expected) => {
    expect(isAssignedDoctor(actor, { assignedDoctorUsername })).toBe(expected);
  });
});

describe('roles', () => {
  it('has the five roles of the spec', () => {
    expect([...ROLES]).toEqual(['Manager', 'Representative', 'Designer', 'Technician', 'Doctor']);
  });

  it.each<[unknown, Role | undefined]>([
    ['Manager', 'Manager'],
    ['manager', 'Manager'],
    ['  TECHNICIAN ', 'Technician'],
    ['Representative', 'Representative'],
    ['designer', 'Designer'],
    ['Doctor', 'Doctor'],
    ['admin', 'Manager'], // the role 'admin' of older data is an alias of Manager
    ['Admin', 'Manager'],
    ['ADMIN', 'Manager'],
    ['Boss', undefined],
    ['', undefined],
    [null, undefined],
    [undefined, undefined],
    [3, undefined],
  ])('parseRole(%j) → %j', (value, role) => {
    expect(parseRole(value)).toBe(role);
  });

  it.each<[Role, boolean]>([
    ['Manager', true],
    ['Designer', true],
    ['Technician', true],
    ['Representative', true],
    ['Doctor', false],
  ])('isStaff(%s) → %s', (role, staff) => {
    expect(isStaff(role)).toBe(staff);
  });

  it('lists the staff roles as the spec orders them', () => {
    expect([...STAFF_ROLES]).toEqual(['Manager', 'Designer', 'Technician', 'Representative']);
  });

  it.each<[string, boolean]>([
    ['admin', true],
    ['Admin', true],
    ['ADMIN', true],
    [' admin ', true],
    ['administrator', false],
    ['adm', false],
  ])('isAdminUsername(%j) → %s', (name, expected) => {
    expect(isAdminUsername(name)).toBe(expected);
    expect(ADMIN_USERNAME).toBe('admin');
  });

  it.each<[string | null | undefined, string | null | undefined, boolean]>([
    ['dr.lee', 'dr.lee', true],
    ['dr.lee', 'DR.LEE', true],
    ['dr.lee', 'dr.patel', false],
    [null, null, false],
    ['', '', false],
    [undefined, 'dr.lee', false],
    ['dr.lee', null, false],
  ])('sameUsername(%j, %j) → %s', (a, b, expected) => {
    expect(sameUsername(a, b)).toBe(expected);
  });
});
