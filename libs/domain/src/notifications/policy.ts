import type { Case } from '../case/case.js';
import { patientInitials } from '../case/patient-initials.js';
import type { CaseEvent, RiskKind } from '../case/events.js';
import { STATUS_LABELS } from '../case/status.js';
import type { Role } from '../permissions/roles.js';
import { DEVICE_TEXTS } from '../materials/texts.js';
import { CARRIER_NAMES } from '../materials/shipping.js';

export const PRODUCT_NAME = 'AlignerFlow';
export const DEFAULT_NOTIFICATION = { title: PRODUCT_NAME, body: 'You have a new update' } as const;

/** Who hears of it: everyone with one of the roles, or one user. */
export type Audience = { roles: readonly Role[] } | { username: string };

export interface Alert {
  /** manager_alert sounds for managers, doctor_alert for the named doctor (spec section 6). */
  kind: 'manager_alert' | 'doctor_alert';
  audience: Audience;
  title: string;
  body: string;
  caseId: string;
  /** The doctor a doctor_alert is addressed to. */
  doctor?: string;
  /** Set on the at-risk alerts: the stream's `kind` of a manager_alert. */
  risk?: RiskKind;
}

/**
 * How an alert names the patient: in full on the lab's own screens and web push (end-to-end
 * encrypted to the browser), by initials in an email or an FCM message, which leave the lab's
 * systems readable (api.md, "Patient data"). 'initials' also leaves out every free text a user
 * wrote (a change request, a rejection reason): the app shows those after sign-in.
 */
export type PatientNaming = 'full' | 'initials';

export const RISK_ALERT_TEXTS = {
  atRiskTitle: 'Case at risk',
  atRiskBody: (caseId: string, patient: string, due: string, status: string) =>
    `${caseId} for ${patient} is due ${due} and is still at ${status}.`,
  overdueTitle: 'Case overdue',
  overdueBody: (caseId: string, patient: string, due: string, status: string) =>
    `${caseId} for ${patient} was due ${due} and is still at ${status}.`,
} as const;

/** The case events alertsFor may answer an alert for; any other never alerts (no state needed). */
export const ALERTING_CASE_EVENTS: ReadonlySet<string> = new Set<CaseEvent['type']>([
  'CaseCreated',
  'StageAdvanced',
  'CaseHeld',
  'CaseResumed',
  'ChangesRequested',
  'CaseRejected',
  'CaseAtRisk',
  'ShipmentRecorded',
]);

/**
 * The notification policy of the product decisions: which case events tell whom. Both the live
 * stream's alerts and the push notifications come from here.
 */
export function alertsFor(
  event: CaseEvent,
  after: Omit<Case, 'notes'>,
  naming: PatientNaming = 'full',
): Alert[] {
  const caseId = after.id;
  const patient = naming === 'full' ? after.patientName : patientInitials(after.patientName);
  const toManagers = (title: string, body: string): Alert => ({
    kind: 'manager_alert',
    audience: { roles: ['Manager'] },
    title,
    body,
    caseId,
  });
  const toDoctor = (doctor: string | null, title: string, body: string): Alert[] =>
    doctor ? [{ kind: 'doctor_alert', audience: { username: doctor }, title, body, caseId, doctor }] : [];

  switch (event.type) {
    case 'CaseCreated':
      return [toManagers('New case submitted', `${caseId} for ${patient} is waiting for approval.`)];
    case 'StageAdvanced':
      if (event.data.to === STATUS_LABELS.DoctorApproval) {
        return toDoctor(
          after.assignedDoctorUsername,
          'Treatment plan ready',
          `The treatment plan of ${patient} (${caseId}) is waiting for your approval.`,
        );
      }
      if (event.data.to === STATUS_LABELS.Completed) {
        return toDoctor(
          after.assignedDoctorUsername,
          'Case completed',
          `${caseId} for ${patient} is complete.`,
        );
      }
      return [];
    case 'CaseHeld':
      return [
        toManagers('Case on hold', `${caseId} for ${patient} was put on hold by ${event.actor.username}.`),
      ];
    case 'CaseResumed':
      return [toManagers('Case resumed', `${caseId} for ${patient} was resumed by ${event.actor.username}.`)];
    case 'ChangesRequested':
      return [
        {
          kind: 'manager_alert',
          audience: { roles: ['Manager', 'Designer'] },
          title: 'Changes requested',
          body:
            naming === 'full'
              ? `${event.actor.username} requested changes to ${caseId}: ${event.data.comment}`
              : `${event.actor.username} requested changes to ${caseId} (${patient}).`,
          caseId,
        },
      ];
    case 'CaseRejected': {
      const creator = after.createdBy;
      const body =
        naming === 'full'
          ? `${caseId} for ${patient} was rejected: ${event.data.reason}`
          : `${caseId} for ${patient} was rejected.`;
      if (creator.role === 'Doctor') return toDoctor(creator.username, 'Case rejected', body);
      return [
        {
          kind: 'manager_alert',
          audience: { username: creator.username },
          title: 'Case rejected',
          body,
          caseId,
        },
      ];
    }
    case 'ShipmentRecorded':
      return toDoctor(
        after.assignedDoctorUsername,
        DEVICE_TEXTS.shippedTitle(caseId),
        DEVICE_TEXTS.shippedBody(CARRIER_NAMES[event.data.carrier], event.data.trackingNumber),
      );
    case 'CaseAtRisk': {
      const due = event.data.deliveryDate ?? 'on no set date';
      const overdue = event.data.kind === 'overdue';
      const alert = overdue
        ? toManagers(
            RISK_ALERT_TEXTS.overdueTitle,
            RISK_ALERT_TEXTS.overdueBody(caseId, patient, due, after.status),
          )
        : toManagers(
            RISK_ALERT_TEXTS.atRiskTitle,
            RISK_ALERT_TEXTS.atRiskBody(caseId, patient, due, after.status),
          );
      return [{ ...alert, risk: event.data.kind }];
    }
    default:
      return [];
  }
}

export function isInAudience(audience: Audience, user: { username: string; role: Role }): boolean {
  return 'roles' in audience
    ? audience.roles.includes(user.role)
    : audience.username.toLowerCase() === user.username.toLowerCase();
}

export type AlertKind = Alert['kind'];

/**
 * Whether an alert received on the live stream sounds for this user (spec section 6): a
 * manager_alert for a Manager, a doctor_alert for a Doctor (the named one, when it names one).
 * Receiving is wider than sounding: the audience decides who receives an alert (isInAudience),
 * so a Designer receives "Changes requested" silently.
 */
export function alertSoundsFor(
  kind: AlertKind,
  user: { username: string; role: Role },
  doctor?: string,
): boolean {
  if (kind === 'manager_alert') return user.role === 'Manager';
  if (user.role !== 'Doctor') return false;
  return !doctor || user.username.toLowerCase() === doctor.toLowerCase();
}
