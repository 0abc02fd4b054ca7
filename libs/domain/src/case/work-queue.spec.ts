import type { Case, Priority } from './case';
import { CASE_STATUSES, STATUS_LABELS, type CaseStatus } from './status';
import { compareWorkQueue, isInWorkQueue, queueStatusesOf, workQueueOf } from './work-queue';
import type { Actor } from '../permissions/roles';

const tech: Actor = { username: 'tech', role: 'Technician' };
const designer: Actor = { username: 'designer', role: 'Designer' };
const rep: Actor = { username: 'rep', role: 'Representative' };
const admin: Actor = { username: 'admin', role: 'Manager' };
const doctor: Actor = { username: 'dr.lee', role: 'Doctor' };

function item(
  status: CaseStatus,
  extra: Partial<Case> & { assignee?: string; deleted?: boolean } = {},
): Case & { deleted?: boolean } {
  const { assignee, ...rest } = extra;
  return {
    id: 'CA-2025-100',
    status,
    onHold: false,
    priority: 'Normal' as Priority,
    deliveryDate: '2025-06-20',
    statusEnteredAt: '2025-06-01T10:00:00.000Z',
    alignerWorkflow: CASE_STATUSES.map((name) => ({
      name,
      completed: false,
      date: null,
      assignedTo: name === status && assignee ? assignee : 'Tech Team',
    })),
    ...rest,
  } as Case & { deleted?: boolean };
}

describe('work queue rule', () => {
  it('gives each role the statuses it may advance, a Manager every advanceable one', () => {
    expect(queueStatusesOf('Technician')).toEqual([
      'Model Printing',
      'Thermoforming',
      'Trimming & Polishing',
      'Quality Check',
    ]);
    expect(queueStatusesOf('Designer')).toEqual(['Digital Planning']);
    expect(queueStatusesOf('Representative')).toEqual(['Packaging & Labeling', 'Delivery to Doctor']);
    expect(queueStatusesOf('Manager')).toEqual([
      'Digital Planning',
      'Model Printing',
      'Thermoforming',
      'Trimming & Polishing',
      'Quality Check',
      'Packaging & Labeling',
      'Delivery to Doctor',
    ]);
    expect(queueStatusesOf('Doctor')).toEqual([]);
  });

  it('holds role-owned active cases and leaves out held, deleted, closed and other roles’ cases', () => {
    expect(isInWorkQueue(item('Thermoforming'), tech)).toBe(true);
    expect(isInWorkQueue(item('Thermoforming'), designer)).toBe(false);
    expect(isInWorkQueue(item('Thermoforming', { onHold: true }), tech)).toBe(false);
    expect(isInWorkQueue(item('Thermoforming', { deleted: true }), tech)).toBe(false);
    expect(isInWorkQueue(item('Digital Planning'), designer)).toBe(true);
    expect(isInWorkQueue(item('Delivery to Doctor'), rep)).toBe(true);
    expect(isInWorkQueue(item('Pending Approval'), admin)).toBe(false);
    expect(isInWorkQueue(item('Doctor Approval'), admin)).toBe(false);
    expect(isInWorkQueue(item('Completed'), admin)).toBe(false);
    expect(isInWorkQueue(item('Rejected'), admin)).toBe(false);
  });

  it('holds a case whose current stage is assigned to the caller, whatever the role', () => {
    expect(isInWorkQueue(item('Digital Planning', { assignee: 'tech' }), tech)).toBe(true);
    expect(isInWorkQueue(item('Scan Received', { assignee: 'tech' }), tech)).toBe(true);
    expect(isInWorkQueue(item('Scan Received', { assignee: 'tech' }), designer)).toBe(false);
    expect(isInWorkQueue(item('Digital Planning', { assignee: 'tech', onHold: true }), tech)).toBe(false);
    expect(isInWorkQueue(item('Completed', { assignee: 'tech' }), tech)).toBe(false);
  });

  it('gives a Doctor no queue, even for a stage named after them', () => {
    expect(isInWorkQueue(item('Scan Received', { assignee: 'dr.lee' }), doctor)).toBe(false);
  });

  it('orders by due date (none last), then High before Normal, then time in stage', () => {
    const late = item('Thermoforming', { id: 'CA-1', deliveryDate: '2025-07-01', priority: 'High' });
    const none = item('Thermoforming', { id: 'CA-2', deliveryDate: null, priority: 'High' });
    const soonNormal = item('Thermoforming', { id: 'CA-3', deliveryDate: '2025-06-10' });
    const soonHigh = item('Thermoforming', { id: 'CA-4', deliveryDate: '2025-06-10', priority: 'High' });
    const soonHighOlder = item('Thermoforming', {
      id: 'CA-5',
      deliveryDate: '2025-06-10',
      priority: 'High',
      statusEnteredAt: '2025-05-01T10:00:00.000Z',
    });
    const sorted = [late, none, soonNormal, soonHigh, soonHighOlder].sort(compareWorkQueue);
    expect(sorted.map((c) => c.id)).toEqual(['CA-5', 'CA-4', 'CA-3', 'CA-1', 'CA-2']);
  });

  it('filters and orders a list with the same rule', () => {
    const cases = [
      item('Thermoforming', { id: 'CA-1', deliveryDate: '2025-07-01' }),
      item(STATUS_LABELS.DigitalPlanning, { id: 'CA-2' }),
      item('Quality Check', { id: 'CA-3', deliveryDate: '2025-06-02' }),
    ];
    expect(workQueueOf(cases, tech).map((c) => c.id)).toEqual(['CA-3', 'CA-1']);
  });
});
