import type { LogListener } from '../event-store/log-listener';
import type { DataSource } from 'typeorm';
import { WorkQueueQueries } from './work-queue.queries';
import type { MaterialsStore } from '../materials-store/materials.store';
import { DEFAULT_MATERIAL_SETTINGS } from '@alignerflow/domain';

const row = (id: string, status: string, extra: Record<string, unknown> = {}) => ({
  id,
  status,
  on_hold: false,
  priority: 'Normal',
  delivery_date: '2025-06-20',
  status_entered_at: '2025-06-01T00:00:00.000Z',
  assignee: 'Tech Team',
  summary: JSON.stringify({ id }),
  ...extra,
});

describe('WorkQueueQueries', () => {
  it('asks PostgreSQL for the role’s statuses and the caller’s name, then applies the domain rule and order', async () => {
    const calls: unknown[][] = [];
    const dataSource = {
      query: async (_sql: string, params: unknown[]) => {
        calls.push(params);
        return [
          row('CA-1', 'Thermoforming', { delivery_date: null }),
          row('CA-2', 'Quality Check', { delivery_date: '2025-06-05' }),
          // Candidates the rule refuses (held; a closed case assigned to the caller): the rule has the last word.
          row('CA-3', 'Model Printing', { on_hold: true }),
          row('CA-5', 'Completed', { assignee: 'tech' }),
          row('CA-4', 'Digital Planning', { assignee: 'tech' }),
          row('CA-6', 'Digital Planning', { assignee: 'designer' }),
        ];
      },
    } as unknown as DataSource;
    const log = { subscribe: () => ({ unsubscribe: () => undefined }) } as unknown as LogListener;
    const materials = { settings: async () => DEFAULT_MATERIAL_SETTINGS } as unknown as MaterialsStore;
    const query = new WorkQueueQueries(dataSource, materials, log);
    const text = await query.json({ username: 'tech', role: 'Technician' });
    expect(calls).toEqual([
      [['Model Printing', 'Thermoforming', 'Trimming & Polishing', 'Quality Check'], 'tech'],
    ]);
    expect(JSON.parse(text)).toEqual([{ id: 'CA-2' }, { id: 'CA-4' }, { id: 'CA-1' }]);
    query.onModuleDestroy();
  });
});
