import type { CaseStatus } from '@alignerflow/domain';
import { startTestApp, type TestApp } from './support/test-app';
import { byUsername, createCase, walkCase } from './support/case-road';
import { ApiClient } from './support/http';
import { failOnSecretsInAnswers } from './support/no-secrets';

failOnSecretsInAnswers();

/** YYYY-MM-DD `days` from today, in local time as the lab counts days. */
function dueIn(days: number): string {
  const now = new Date();
  const day = new Date(now.getFullYear(), now.getMonth(), now.getDate() + days);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${day.getFullYear()}-${pad(day.getMonth() + 1)}-${pad(day.getDate())}`;
}

describe('GET /work-queue', () => {
  let lab: TestApp;
  let admin: ApiClient, rep: ApiClient, designer: ApiClient, tech: ApiClient, tech2: ApiClient;
  let drLee: ApiClient;
  const made: Record<string, string> = {};

  /** A new case walked the usual road to `status`, due in 20 days unless said (null: no due date). */
  async function caseAt(
    label: string,
    status: CaseStatus,
    input: { deliveryDate?: string | null; priority?: 'High' | 'Normal' } = {},
  ): Promise<string> {
    const { id } = await createCase(admin, {
      patientName: `Patient ${label}`,
      ...input,
      deliveryDate: input.deliveryDate ?? dueIn(20),
    });
    made[label] = id;
    if (input.deliveryDate === null) {
      expect((await admin.put(`/cases/${id}`, { deliveryDate: '' })).status).toBe(200);
    }
    await walkCase(byUsername(admin, drLee), id, status);
    return id;
  }

  const queueOf = async (client: ApiClient) => {
    const answer = await client.get('/work-queue');
    expect(answer.status).toBe(200);
    return answer.body as { id: string; status: string; onHold: boolean; noteCount: number }[];
  };
  /** The queue's cases made by this file, by label, in the queue's order. */
  const labelsIn = async (client: ApiClient) => {
    const byId = Object.fromEntries(Object.entries(made).map(([label, id]) => [id, label]));
    return (await queueOf(client)).map((item) => byId[item.id] ?? item.id);
  };

  beforeAll(async () => {
    lab = await startTestApp();
    [admin, rep, designer, tech, drLee] = await Promise.all(
      ['admin', 'rep', 'designer', 'tech', 'dr.lee'].map((name) => lab.login(name)),
    );
    expect(
      (await admin.post('/users', { username: 'tech2', password: 'Lathe-Orbit-2222', role: 'Technician' }))
        .status,
    ).toBe(201);
    tech2 = await lab.login('tech2', 'Lathe-Orbit-2222');
    // The seed's five cases are in the way of exact lists: take them out (a deleted case is never queued).
    for (const seeded of (await admin.get('/cases')).body as { id: string }[]) {
      expect((await admin.delete(`/cases/${seeded.id}`)).status).toBe(204);
    }

    await caseAt('printingNormal', 'Model Printing', { deliveryDate: dueIn(3) });
    await caseAt('checkHigh', 'Quality Check', { deliveryDate: dueIn(3), priority: 'High' });
    await caseAt('thermoNoDue', 'Thermoforming', { deliveryDate: null, priority: 'High' });
    await caseAt('trimOverdue', 'Trimming & Polishing', { deliveryDate: dueIn(-2) });
    await caseAt('packaging', 'Packaging & Labeling', { deliveryDate: dueIn(5) });
    await caseAt('delivery', 'Delivery to Doctor', { deliveryDate: dueIn(1) });
    await caseAt('planning', 'Digital Planning', { deliveryDate: dueIn(8) });
    await caseAt('planningForTech', 'Digital Planning', { deliveryDate: dueIn(9) });
    expect(
      (
        await admin.put(`/cases/${made.planningForTech}/stages/Digital%20Planning/assignee`, {
          assignee: 'tech',
        })
      ).status,
    ).toBe(200);
    await caseAt('held', 'Thermoforming', { deliveryDate: dueIn(1) });
    expect((await admin.post(`/cases/${made.held}/hold`)).status).toBe(200);
    await caseAt('heldForTech', 'Digital Planning', { deliveryDate: dueIn(1) });
    await admin.put(`/cases/${made.heldForTech}/stages/Digital%20Planning/assignee`, { assignee: 'tech' });
    expect((await admin.post(`/cases/${made.heldForTech}/hold`)).status).toBe(200);
    await caseAt('pending', 'Pending Approval', { deliveryDate: dueIn(1) });
    await caseAt('doctorApproval', 'Doctor Approval', { deliveryDate: dueIn(1) });
    await caseAt('completed', 'Completed', { deliveryDate: dueIn(1) });
    await caseAt('rejected', 'Rejected', { deliveryDate: dueIn(1) });
    await caseAt('deleted', 'Thermoforming', { deliveryDate: dueIn(1) });
    expect((await admin.delete(`/cases/${made.deleted}`)).status).toBe(204);
  });
  afterAll(() => lab.close());

  it('gives a Technician the manufacturing stages and the stages assigned to them, in queue order', async () => {
    expect(await labelsIn(tech)).toEqual([
      'trimOverdue',
      'checkHigh',
      'printingNormal',
      'planningForTech',
      'thermoNoDue',
    ]);
  });

  it('gives another Technician the same role-owned cases, but not a stage assigned to someone else', async () => {
    expect(await labelsIn(tech2)).toEqual(['trimOverdue', 'checkHigh', 'printingNormal', 'thermoNoDue']);
  });

  it('gives a Designer Digital Planning and a Representative packaging and delivery', async () => {
    expect(await labelsIn(designer)).toEqual(['planning', 'planningForTech']);
    expect(await labelsIn(rep)).toEqual(['delivery', 'packaging']);
  });

  it('gives a Manager every advanceable case, never a held, closed or approval-waiting one', async () => {
    expect(await labelsIn(admin)).toEqual([
      'trimOverdue',
      'delivery',
      'checkHigh',
      'printingNormal',
      'packaging',
      'planning',
      'planningForTech',
      'thermoNoDue',
    ]);
  });

  it('answers the summary shape of GET /cases', async () => {
    const [first] = await queueOf(tech);
    const listed = ((await tech.get('/cases')).body as { id: string }[]).find((item) => item.id === first.id);
    expect(first).toEqual(listed);
    expect(first).not.toHaveProperty('notes');
    expect(typeof first.noteCount).toBe('number');
  });

  it('follows the case: advanced out of the role, it leaves; resumed, it comes back', async () => {
    const moved = await tech.post(`/cases/${made.checkHigh}/advance`, { fromStatus: 'Quality Check' });
    expect(moved.status).toBe(200);
    expect(await labelsIn(tech)).not.toContain('checkHigh');
    expect(await labelsIn(rep)).toEqual(['delivery', 'checkHigh', 'packaging']);

    expect((await admin.post(`/cases/${made.held}/resume`)).status).toBe(200);
    expect(await labelsIn(tech)).toContain('held');
  });

  it('answers 304 to its ETag until a case changes, then the changed queue', async () => {
    const first = await tech.get('/work-queue');
    const tag = first.headers.get('etag')!;
    expect(tag).toBeTruthy();
    expect((await tech.get('/work-queue', { 'if-none-match': tag })).status).toBe(304);
    // Another caller's queue has its own tag.
    expect((await tech2.get('/work-queue')).headers.get('etag')).not.toBe(tag);

    const moved = await admin.post(`/cases/${made.printingNormal}/advance`, { fromStatus: 'Model Printing' });
    expect(moved.status).toBe(200);
    const after = await tech.get('/work-queue', { 'if-none-match': tag });
    expect(after.status).toBe(200);
    const entry = (after.body as { id: string; status: string }[]).find(
      (item) => item.id === made.printingNormal,
    );
    expect(entry?.status).toBe('Thermoforming');
  });

  it('refuses a Doctor with 403 and an anonymous caller with 401', async () => {
    const doctor = await drLee.get('/work-queue');
    expect(doctor.status).toBe(403);
    expect(doctor.body).toEqual({ error: 'Doctors have no work queue.' });
    const anonymous = await lab.anonymous.get('/work-queue');
    expect(anonymous.status).toBe(401);
    expect(anonymous.body).toHaveProperty('error');
  });
});
