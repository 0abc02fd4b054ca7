import { byUsername, caseAt as roadCaseAt } from './case-road';
import { useDemoUsers } from './demo-users';
import type { ApiClient } from './http';
import { failOnSecretsInAnswers } from './no-secrets';

/** The texts the case commands answer with (api.md), as the tests of `test/case-commands-*.e2e.ts` expect them. */
export const TEXT = {
  notFound: 'Case not found.',
  managerOnly: 'Only a manager can do this.',
  needsManagerApproval: 'This case must be approved by a manager before proceeding.',
  waitingForDoctor: "Waiting for doctor's approval before proceeding.",
  complete: 'This case is complete.',
  rejected: 'This case was rejected.',
  onHold: 'This case is currently on hold. Workflow actions are disabled.',
  concurrentChange: 'The case was changed by someone else. Reload and try again.',
  onlyAtPendingApproval: 'Only a case pending approval can be approved or rejected.',
  onlyAtDoctorApproval: 'The treatment plan can only be reviewed at Doctor Approval.',
  onlyAssignedDoctor: 'Only the assigned doctor can review this treatment plan.',
  createRoles: 'Only a Manager, a Representative or a Doctor can create cases.',
  pricingRoles: 'Only a Manager or a Representative can edit pricing.',
  simulationRoles: 'Only a Designer or a Manager can save simulation links.',
  onlyAtDigitalPlanning: 'Simulation links can only be saved at Digital Planning.',
  qrRoles: 'Only users who can act on this case can show its QR code.',
  qrNotYet: 'The case QR code is available once the case is approved.',
  stagingRoles: 'Only the assigned doctor or a manager can change aligner stages.',
  invalidQr: 'Invalid QR Code',
};

/** The path of a case from Pending Approval on. */
export const ROUTE = [
  'Pending Approval',
  'Digital Planning',
  'Doctor Approval',
  'Model Printing',
  'Thermoforming',
  'Trimming & Polishing',
  'Quality Check',
  'Packaging & Labeling',
  'Delivery to Doctor',
  'Completed',
] as const;
export type RouteStatus = (typeof ROUTE)[number];

export const lastNote = (c: any) => c.notes[c.notes.length - 1];
export const step = (c: any, name: string) =>
  c.alignerWorkflow.find((s: { name: string }) => s.name === name);

/**
 * The checks the case command tests share, over the clients a file signs in (`clients` is read
 * when a check runs, so after the file's `beforeAll`).
 */
export function caseCommandChecks(clients: () => { admin: ApiClient; rep: ApiClient; drLee: ApiClient }) {
  /** A new case of dr.lee's (six upper, four lower sheets), walked the usual road to `status`. */
  const caseAt = (status: RouteStatus) => {
    const { admin, rep, drLee } = clients();
    return roadCaseAt(byUsername(admin, rep, drLee), status, { upperSheets: 6, lowerSheets: 4 }, 'rep');
  };

  /** The case as a manager reads it, and its history length. */
  async function snapshot(id: string) {
    const { admin } = clients();
    const [found, history] = await Promise.all([
      admin.get(`/cases/${id}`),
      admin.get(`/cases/${id}/history`),
    ]);
    expect(found.status).toBe(200);
    return { case: found.body, events: history.body.length as number };
  }

  async function expectUnchanged(before: { case: any; events: number }) {
    const after = await snapshot(before.case.id);
    expect(after.case).toEqual(before.case);
    expect(after.events).toBe(before.events);
    expect(after.case.version).toBe(before.events);
  }

  return { caseAt, snapshot, expectUnchanged };
}

/**
 * The set-up every `test/case-commands-*.e2e.ts` file on one app shares, called at the top of its
 * `describe`: every answer is scanned for secrets (`failOnSecretsInAnswers`), the file gets its own
 * app with the six demo users signed in (`useDemoUsers`), and the checks above run on them.
 */
export function useCaseCommandLab() {
  failOnSecretsInAnswers();
  const users = useDemoUsers();
  const { admin, rep, designer, tech, drLee, drPatel } = users;
  return { admin, rep, designer, tech, drLee, drPatel, ...caseCommandChecks(() => users) };
}
