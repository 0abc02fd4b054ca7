import { describe, expect, it } from 'vitest';
import { act, fireEvent, render, screen, within } from '@testing-library/react';
import { fakeServer } from '../../test/fakeServer';
import { AccessLogSettings } from './AccessLogSettings';

const ENTRY = {
  at: '2026-03-02T10:15:00.000Z',
  username: 'admin',
  role: 'Manager',
  action: 'export',
  detail: 'backup',
  address: '10.0.0.5',
  caseId: null,
};

const lastQuery = (server: ReturnType<typeof fakeServer>) =>
  new URL(String(server.fetch.mock.calls.at(-1)![0]), 'http://localhost').search;

describe('Settings › Access log', () => {
  it('lists every access, filters by username, action and days, and links the same CSV', async () => {
    const server = fakeServer({
      'GET /access-log': {
        body: [
          ENTRY,
          {
            ...ENTRY,
            username: 'dr.lee',
            role: 'Doctor',
            action: 'view',
            detail: 'case',
            caseId: 'CA-2026-001',
          },
        ],
      },
    });
    render(<AccessLogSettings />);
    await act(async () => undefined);
    const rows = within(screen.getByRole('list', { name: 'Access log' })).getAllByRole('listitem');
    expect(rows[1].textContent).toContain('dr.lee (Doctor) · Viewed case · CA-2026-001');
    expect(lastQuery(server)).toBe('');

    fireEvent.change(screen.getByLabelText('Username'), { target: { value: 'dr.lee' } });
    fireEvent.change(screen.getByLabelText('Action'), { target: { value: 'view' } });
    fireEvent.change(screen.getByLabelText('From'), { target: { value: '2026-03-01' } });
    fireEvent.change(screen.getByLabelText('To'), { target: { value: '2026-03-31' } });
    fireEvent.click(screen.getByRole('button', { name: 'Show' }));
    await act(async () => undefined);
    expect(lastQuery(server)).toBe('?username=dr.lee&action=view&from=2026-03-01&to=2026-03-31');
    expect(screen.getByRole('link', { name: 'Download CSV' }).getAttribute('href')).toBe(
      '/api/access-log.csv?username=dr.lee&action=view&from=2026-03-01&to=2026-03-31',
    );
  });

  it('names a reversed range before asking the server', async () => {
    const server = fakeServer({ 'GET /access-log': { body: [] } });
    render(<AccessLogSettings />);
    await act(async () => undefined);
    expect(screen.getByText('No access matches these filters.')).toBeTruthy();
    const asked = server.requests.length;
    fireEvent.change(screen.getByLabelText('From'), { target: { value: '2026-03-31' } });
    fireEvent.change(screen.getByLabelText('To'), { target: { value: '2026-03-01' } });
    fireEvent.click(screen.getByRole('button', { name: 'Show' }));
    expect(screen.getByRole('alert').textContent).toBe('from must be on or before to.');
    expect(server.requests).toHaveLength(asked);
  });
});
