import { describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, within } from '@testing-library/react';
import { after, doctor, E, manager, technician } from '../../test/fixtures';
import { cached, caseAt, renderDetail } from '../../test/caseDetail';

const patel = { ...doctor, username: 'dr.patel' };
const panel = () => screen.getByRole('region', { name: 'New Case Approval' });
const approve = () =>
  within(panel()).getByRole('button', { name: 'Approve & Activate' }) as HTMLButtonElement;

describe('New Case Approval panel', () => {
  it('defaults to the first doctor of the users list and approves with it', async () => {
    // A case the lab entered itself: no doctor yet.
    const item = caseAt('Pending Approval', { assignedDoctorUsername: null });
    const { server } = renderDetail(manager, item, {
      users: [manager, technician, patel, doctor],
      routes: { 'POST /cases/CA-2025-123/approve': { body: after(item, E.approved('dr.lee')) } },
    });
    const select = within(panel()).getByLabelText('Assign Doctor') as HTMLSelectElement;
    expect(Array.from(select.options).map((option) => option.value)).toEqual(['dr.patel', 'dr.lee']);
    expect(select.value).toBe('dr.patel');
    expect(approve().disabled).toBe(false);
    fireEvent.change(select, { target: { value: 'dr.lee' } });
    fireEvent.click(approve());
    await vi.waitFor(() => expect(cached()?.status).toBe('Digital Planning'));
    expect(server.calls('POST', '/cases/CA-2025-123/approve')[0].body).toEqual({
      doctorUsername: 'dr.lee',
      expectedVersion: item.version,
    });
    expect(screen.queryByRole('region', { name: 'New Case Approval' })).toBeNull();
  });

  it('preselects the doctor who submitted the case', () => {
    renderDetail(manager, caseAt('Pending Approval', { assignedDoctorUsername: 'dr.lee' }), {
      users: [patel, doctor],
    });
    expect((within(panel()).getByLabelText('Assign Doctor') as HTMLSelectElement).value).toBe('dr.lee');
  });

  it("shows 'No doctors available' and keeps Approve disabled until there is a doctor to choose", () => {
    renderDetail(manager, caseAt('Pending Approval', { assignedDoctorUsername: null }), {
      users: [manager, technician],
    });
    const select = within(panel()).getByLabelText('Assign Doctor') as HTMLSelectElement;
    expect(select.options[0].textContent).toBe('No doctors available');
    expect(select.disabled).toBe(true);
    expect(approve().disabled).toBe(true);
  });

  it('keeps Approve disabled while the users list is loading', () => {
    renderDetail(manager, caseAt('Pending Approval'), { users: null });
    expect(approve().disabled).toBe(true);
  });

  it('Reject Case asks for a reason; an empty one is refused with the domain text', async () => {
    const item = caseAt('Pending Approval');
    const { server } = renderDetail(manager, item, {
      routes: {
        'POST /cases/CA-2025-123/reject': {
          body: after(item, E.rejected('Scans are unreadable.')),
        },
      },
    });
    fireEvent.click(within(panel()).getByRole('button', { name: 'Reject Case' }));
    const dialog = screen.getByRole('dialog', { name: 'Reject Case: CA-2025-123' });
    const reason = within(dialog).getByLabelText('Reason for rejection');
    expect(document.activeElement).toBe(reason);
    fireEvent.change(reason, { target: { value: '   ' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Reject Case' }));
    expect(within(dialog).getByRole('alert').textContent).toBe('A reason is required to reject a case.');
    expect(server.requests).toHaveLength(0);
    fireEvent.change(reason, { target: { value: '  Scans are unreadable.  ' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Reject Case' }));
    await vi.waitFor(() => expect(cached()?.status).toBe('Rejected'));
    expect(server.calls('POST', '/cases/CA-2025-123/reject')[0].body).toEqual({
      reason: 'Scans are unreadable.',
      expectedVersion: item.version,
    });
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('shows the server text of a failed approval next to the button', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    renderDetail(manager, caseAt('Pending Approval'), {
      routes: {
        'POST /cases/CA-2025-123/approve': { status: 400, body: { error: '"dr.lee" is not a doctor.' } },
      },
    });
    fireEvent.click(approve());
    expect((await within(panel()).findByRole('alert')).textContent).toBe('"dr.lee" is not a doctor.');
  });
});
