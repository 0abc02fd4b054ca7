// Test fixtures of the app (imported by tests only; never part of the app bundle).
import {
  checkBackup,
  type Actor,
  type Case,
  type CaseEventData,
  type CaseHistoryEntry,
  type CaseStatus,
  type MfaStatus,
  type Passkey,
  type SessionInfo,
  type User,
} from '@alignerflow/domain';
import { E, given, roadSteps, stamp, time, type CreatedData, type Given } from '@alignerflow/domain/testing';

export { E, type Given } from '@alignerflow/domain/testing';

export const manager: User = {
  username: 'admin',
  role: 'Manager',
  email: null,
  activationSoundEnabled: true,
  notify: { push: true, email: true },
};
export const representative: User = {
  username: 'rep',
  role: 'Representative',
  email: null,
  activationSoundEnabled: true,
  notify: { push: true, email: true },
};
export const designer: User = {
  username: 'designer',
  role: 'Designer',
  email: null,
  activationSoundEnabled: true,
  notify: { push: true, email: true },
};
export const technician: User = {
  username: 'tech',
  role: 'Technician',
  email: null,
  activationSoundEnabled: true,
  notify: { push: true, email: true },
};
export const doctor: User = {
  username: 'dr.lee',
  role: 'Doctor',
  email: null,
  activationSoundEnabled: true,
  notify: { push: true, email: true },
};
export const allUsers = [manager, representative, designer, technician, doctor];

/** A user without a second factor whose role need not have one. */
export const noFactors: MfaStatus = { totp: false, passkeys: 0, required: false };

/** The answers of the account calls My Account makes (`GET /auth/me`, passkeys, sessions). */
export function accountRoutes(
  user: User,
  mfa: MfaStatus = noFactors,
  passkeys: Passkey[] = [],
  sessions: SessionInfo[] = [],
) {
  return {
    'GET /auth/me': { body: { user, mfa } },
    'GET /auth/passkeys': { body: passkeys },
    'GET /auth/sessions': { body: sessions },
  };
}

/**
 * What a test says of a case: only what its creation carries, where it has got to, and whether
 * it is held. Everything else (workflow, staging, notes, plan versions, version, times) follows
 * from the events, so a test that needs it adds the events that make it.
 */
export interface CaseSpec extends Partial<Omit<CreatedData, 'deliveryDate'>> {
  /** A new case always has a due date (the wizard's, or the default); an edit can clear it. */
  deliveryDate?: string;
  /** Where the usual road takes the case; Digital Planning unless said. */
  status?: RoadStatus;
  /** Put on hold (by the manager) once at `status`. */
  onHold?: boolean;
  /** When the case was created (T0 unless said); each later event comes an hour after the one before. */
  createdAt?: string;
}

/** Every status but Scan Received, which only a restored backup brings a case to. */
export type RoadStatus = Exclude<CaseStatus, 'Scan Received'>;

const HOUR = 3_600_000;
const actorOf = ({ username, role }: Actor): Actor => ({ username, role });

/**
 * The case the events make: created (by its doctor, who pays the case fee, or by the manager for
 * a case without one), taken along the usual road to `status` by the roles allowed to, held if
 * said, then `more`. Its version counts the events. By default far from due, and dr.lee's.
 */
export function makeCase(spec: CaseSpec = {}, ...more: Given[]): Case {
  const { status = 'Digital Planning', onHold = false, createdAt = time(0), ...created } = spec;
  const doctorUsername =
    created.assignedDoctorUsername === undefined ? 'dr.lee' : created.assignedDoctorUsername;
  const caseDoctor: Actor | null = doctorUsername ? { username: doctorUsername, role: 'Doctor' } : null;
  const road: Given[] = [
    [
      E.created({
        deliveryDate: '2099-01-15',
        ...(caseDoctor ? {} : { fee: null }),
        ...created,
        assignedDoctorUsername: doctorUsername,
      }),
      caseDoctor ?? actorOf(manager),
    ],
    ...roadSteps(status).map(({ by, event }): Given => {
      if (event.type === 'CaseApproved' && caseDoctor) return [E.approved(caseDoctor.username), by];
      return [event, by.role === 'Doctor' && caseDoctor ? caseDoctor : by];
    }),
    ...(onHold ? [E.held()] : []),
  ];
  return made(timed([...road, ...more], createdAt));
}

/** The events (signed and timed) each case of makeCase, after and restoredCase came from. */
const MADE_FROM = new WeakMap<Case, Given[]>();

function made(events: Given[]): Case {
  const item = given(...events);
  MADE_FROM.set(item, events);
  return item;
}

/**
 * The case `item` (one makeCase, after or restoredCase made) after `more`: the same events and
 * these, each an hour after the last unless timed. A server's answer to a command, or a change
 * the live stream brings, is the case it had plus the events the command decided.
 */
export function after(item: Case, ...more: Given[]): Case {
  const events = MADE_FROM.get(item);
  if (!events) throw new Error(`after(): case ${item.id} was not made by the fixtures (a copy?)`);
  const [, , last] = events.at(-1) as [CaseEventData, Actor, string];
  return made([...events, ...timed(more, new Date(Date.parse(last) + HOUR).toISOString())]);
}

/** The events signed (by the manager unless said) and timed: from `start`, each an hour after the last. */
function timed(events: Given[], start: string): Given[] {
  let last = Date.parse(start) - HOUR;
  return events.map((item) => {
    const [event, actor = manager, at = new Date(last + HOUR).toISOString()] = Array.isArray(item)
      ? item
      : [item];
    last = Date.parse(at);
    return [event, actorOf(actor), at];
  });
}

/**
 * A case restored from a backup (as the spec's older portal wrote them: `entry` is one of its
 * cases), checked and brought into today's shape by the domain's backup check. Its life before
 * lives in the backup, so it may lack what a case made here always has (a creation note…).
 */
export function restoredCase(entry: Record<string, unknown>, restoredAt = time(0)): Case {
  const checked = checkBackup({ users: [], cases: [entry] }, restoredAt);
  if ('error' in checked) throw new Error(checked.error);
  return made([
    [{ type: 'CaseImported', data: { case: checked.value.cases[0] } }, actorOf(manager), restoredAt],
  ]);
}

/**
 * A case's history as GET /cases/{id}/history answers it, from the events that made it (signed
 * and timed as makeCase's: from T0). The log positions are the versions: the test's log holds
 * this one case.
 */
export function historyOf(...events: Given[]): CaseHistoryEntry[] {
  return stamp(timed(events, time(0))).map(({ type, data, actor, at }, index) => ({
    position: String(index + 1),
    version: index + 1,
    type,
    data: data as Record<string, unknown>,
    actor,
    at,
  }));
}

export const sampleCases: Case[] = [
  makeCase({
    id: 'CA-2024-001',
    patientName: 'Alice Johnson',
    doctorName: 'Dr. Lee',
    status: 'Pending Approval',
  }),
  makeCase({
    id: 'CA-2024-002',
    patientName: 'Bob Smith',
    doctorName: 'Dr. Patel',
    status: 'Thermoforming',
    onHold: true,
  }),
  makeCase(
    { id: 'CA-2024-003', patientName: 'Carol White', doctorName: 'Dr. Lee', status: 'Doctor Approval' },
    E.edited({ deliveryDate: null }),
  ),
  makeCase({ id: 'CA-2024-077', patientName: 'Dan Brown', doctorName: 'Dr. Patel', status: 'Completed' }),
];

export const dashboardFigures = {
  totalActive: 3,
  pendingManagerApproval: 1,
  awaitingDoctorApproval: 1,
  overdue: 0,
  completedToday: 0,
};
