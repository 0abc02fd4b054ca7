import { describe, expect, it } from 'vitest';
import { act, fireEvent, screen, within } from '@testing-library/react';
import { designer, manager } from '../../test/fixtures';
import { caseAt, renderDetail } from '../../test/caseDetail';

const READ = {
  at: '2026-03-02T10:15:00.000Z',
  username: 'dr.lee',
  role: 'Doctor',
  action: 'view',
  detail: 'case',
  address: '203.0.113.7',
};

describe("the case's Access tab", () => {
  it('shows a Manager who read the case, when, what and from where', async () => {
    const item = caseAt('Digital Planning');
    renderDetail(manager, item, {
      routes: {
        [`GET /cases/${item.id}/access-log`]: {
          body: [
            READ,
            { ...READ, username: 'rep', role: 'Representative', action: 'download', detail: 'scan.stl' },
          ],
        },
      },
    });
    fireEvent.click(screen.getByRole('tab', { name: 'Access' }));
    await act(async () => undefined);
    const rows = within(screen.getByRole('list', { name: 'Access log' })).getAllByRole('listitem');
    expect(rows.map((row) => row.textContent)).toEqual([
      expect.stringMatching(/^dr\.lee \(Doctor\) · Viewed case.*from 203\.0\.113\.7$/),
      expect.stringMatching(/^rep \(Representative\) · Downloaded scan\.stl.*from 203\.0\.113\.7$/),
    ]);
    expect(rows[0].querySelector('time')?.getAttribute('dateTime')).toBe(READ.at);
  });

  it('says so when nobody read it, and names a failure with Retry', async () => {
    const item = caseAt('Digital Planning');
    let fail = true;
    renderDetail(manager, item, {
      routes: {
        [`GET /cases/${item.id}/access-log`]: () =>
          fail ? { status: 500, body: { error: 'Internal server error.' } } : { body: [] },
      },
    });
    fireEvent.click(screen.getByRole('tab', { name: 'Access' }));
    await act(async () => undefined);
    expect(screen.getByRole('alert').textContent).toContain('The access log could not be loaded.');
    fail = false;
    fireEvent.click(screen.getByRole('button', { name: 'Retry' }));
    await act(async () => undefined);
    expect(screen.getByText('Nobody has read this case yet.')).toBeTruthy();
  });

  it('is not offered to other roles', () => {
    renderDetail(designer, caseAt('Digital Planning'));
    expect(screen.queryByRole('tab', { name: 'Access' })).toBeNull();
  });
});
