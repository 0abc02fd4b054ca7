import type { DataSource } from 'typeorm';
import { WorkQueueQuery } from './work-queue.query';

const step = (name: string, assignedTo = 'Tech Team') => ({ name, completed: false, date: null, assignedTo });
const row = (id: string, status: string, extra: Record<string, unknown> = {}) => ({
  item: {
    id,
    status,
    onHold: false,
    priority: 'Normal',
    deliveryDate: '2025-06-20',
    statusEnteredAt: '2025-06-01T00:00:00.000Z',
    alignerWorkflow: [step(status)],
    ...extra,
  },
});

describe('WorkQueueQuery', () => {
  it('asks PostgreSQL for the role’s statuses and the caller’s name, then applies the domain rule and order', async () => {
    const calls: unknown[][] = [];
    const dataSource = {
      query: async (_sql: string, params: unknown[]) => {
        calls.push(params);
        return [
          row('CA-1', 'Thermoforming', { deliveryDate: null }),
          row('CA-2', 'Quality Check', { deliveryDate: '2025-06-05' }),
          // A candidate the rule refuses (held): the rule, not the SQL, has the last word.
          row('CA-3', 'Model Printing', { onHold: true }),
          row('CA-4', 'Digital Planning', { alignerWorkflow: [step('Digital Planning', 'tech')] }),
        ];
      },
    } as unknown as DataSource;
    const queue = await new WorkQueueQuery(dataSource).forActor({ username: 'tech', role: 'Technician' });
    expect(calls).toEqual([
      [['Model Printing', 'Thermoforming', 'Trimming & Polishing', 'Quality Check'], 'tech'],
    ]);
    expect(queue.map((item) => item.id)).toEqual(['CA-2', 'CA-4', 'CA-1']);
  });
});
