/**
 * Cases for the API and browser tests, made over HTTP the way the domain's fixtures make them:
 * the domain fixture's new case, then the usual road's steps (`roadSteps`), each sent by the
 * user the road names. A test that is about who moves a stage sends those steps itself.
 */
import type { Case, CaseCommand, CaseStatus } from '@alignerflow/domain';
import { E, manager, roadSteps, type CreatedData } from '@alignerflow/domain/testing';
import type { ApiClient } from './http';

/** Who sends a step: the road's users by username ('admin', 'dr.lee'), or a lookup. */
export type RoadClients = Readonly<Record<string, ApiClient>> | ((username: string) => ApiClient);

const { patientName, doctorName, clinicName, priority } = E.created().data as CreatedData;
/** The body of POST /cases unless a test says otherwise: the domain fixture's new case. */
const NEW_CASE = { patientName, doctorName, clinicName, priority };

/** The clients by the username they signed in as. */
export function byUsername(...clients: ApiClient[]): Record<string, ApiClient> {
  return Object.fromEntries(
    clients.map((client) => {
      if (!client.user) throw new Error('byUsername: a client that did not sign in through login()');
      return [client.user.username, client];
    }),
  );
}

/** POST /cases with `input` over NEW_CASE; anything but a 201 fails. Answers the new case. */
export async function createCase(client: ApiClient, input: Record<string, unknown> = {}): Promise<Case> {
  const answer = await client.post<Case>('/cases', { ...NEW_CASE, ...input });
  if (answer.status !== 201) {
    throw new Error(
      `POST /cases by ${client.user?.username ?? 'nobody'}: ${answer.status} ${JSON.stringify(answer.body)}`,
    );
  }
  return answer.body;
}

function clientFor(clients: RoadClients, username: string): ApiClient {
  const client = typeof clients === 'function' ? clients(username) : clients[username];
  if (!client) throw new Error(`No client for ${username} among the road's clients`);
  return client;
}

/** The route and body of a command on the road. */
function requestOf(id: string, command: CaseCommand): { path: string; body?: object } {
  const at = `/cases/${id}`;
  switch (command.type) {
    case 'ApproveCase':
      return { path: `${at}/approve`, body: { doctorUsername: command.doctorUsername } };
    case 'RejectCase':
      return { path: `${at}/reject`, body: { reason: command.reason } };
    case 'AdvanceStage':
      return { path: `${at}/advance`, body: { fromStatus: command.fromStatus } };
    case 'ApproveTreatmentPlan':
      return { path: `${at}/doctor-approve` };
    default:
      throw new Error(`${command.type} is not a step of the road`);
  }
}

/**
 * Sends the road's steps from Pending Approval (or from `from`, where the case already is) to
 * `status` for case `id`, each by the client of the user the step names; a step answered with
 * anything but 200 fails, naming the step. Answers the case as the last step left it (as the
 * manager reads it when there is no step).
 */
export async function walkCase(
  clients: RoadClients,
  id: string,
  status: CaseStatus,
  from: CaseStatus = 'Pending Approval',
): Promise<Case> {
  if (status === 'Scan Received')
    throw new Error('Scan Received is off the road: only an import brings a case there');
  const steps = roadSteps(status);
  const done = roadSteps(from).length;
  let last: Case | undefined;
  for (const [index, { by, command }] of steps.entries()) {
    if (index < done) continue;
    const { path, body } = requestOf(id, command);
    const answer = await clientFor(clients, by.username).post<Case>(path, body);
    if (answer.status !== 200) {
      throw new Error(
        `${id} to ${status}, step ${index + 1} of ${steps.length} (${command.type} by ${by.username}, ` +
          `POST ${path}): ${answer.status} ${JSON.stringify(answer.body)}`,
      );
    }
    last = answer.body;
  }
  if (!last) {
    const answer = await clientFor(clients, manager.username).get<Case>(`/cases/${id}`);
    if (answer.status !== 200)
      throw new Error(`GET /cases/${id}: ${answer.status} ${JSON.stringify(answer.body)}`);
    last = answer.body;
  }
  if (last.status !== status) throw new Error(`${id} is at ${last.status} after the road to ${status}`);
  return last;
}

/** A new case (`input` over NEW_CASE, created by `createdBy`) walked the road to `status`. */
export async function caseAt(
  clients: RoadClients,
  status: CaseStatus,
  input: Record<string, unknown> = {},
  createdBy = manager.username,
): Promise<Case> {
  const created = await createCase(clientFor(clients, createdBy), input);
  return status === 'Pending Approval' ? created : walkCase(clients, created.id, status);
}
