import { describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, within } from '@testing-library/react';
import { DEFAULT_MATERIAL_SETTINGS } from '@alignerflow/domain';
import {
  after,
  designer,
  doctor,
  E,
  manager,
  representative,
  technician,
  type RoadStatus,
} from '../../test/fixtures';
import { cached, caseAt, renderDetail } from '../../test/caseDetail';

const button = (name: string | RegExp) => screen.queryByRole('button', { name });
const advance = () => screen.getByRole('button', { name: 'Complete Stage & Advance' }) as HTMLButtonElement;

describe('CaseDetail: header and summary', () => {
  it('shows patient, priority, id, clinic, doctor and the summary row', () => {
    const { props } = renderDetail(
      manager,
      caseAt(
        'Thermoforming',
        { priority: 'High', createdAt: new Date(2025, 0, 1, 10).toISOString() },
        E.edited({ deliveryDate: null }),
        E.assignee('Thermoforming', 'tech'),
        E.assignee('Trimming & Polishing', 'tech2'),
      ),
    );
    expect(screen.getByRole('heading', { level: 1, name: 'Emma Thompson' })).toBeTruthy();
    expect(screen.getByText('High')).toBeTruthy();
    const header = screen.getByRole('region', { name: 'Emma Thompson' });
    expect(within(header).getByText('CA-2025-123')).toBeTruthy();
    expect(within(header).getByText('Bright Smiles Dental')).toBeTruthy();
    expect(within(header).getByText('Dr. Sarah Lee')).toBeTruthy();
    const summary = screen.getByLabelText('Case summary');
    const value = (label: string) => within(summary).getByText(label).nextElementSibling?.textContent;
    expect(value('Status')).toBe('Thermoforming');
    expect(value('Due Date')).toBe('N/A');
    expect(value('Created')).toBe(
      new Date(2025, 0, 1).toLocaleDateString(undefined, { year: 'numeric', month: 'short', day: 'numeric' }),
    );
    expect(value('Assigned Technicians')).toBe('tech, tech2');
    fireEvent.click(screen.getByRole('button', { name: 'Back to Dashboard' }));
    expect(props.onBack).toHaveBeenCalled();
  });

  it('Normal priority badge', () => {
    renderDetail(manager, caseAt('Thermoforming'));
    expect(screen.getByText('Normal')).toBeTruthy();
  });

  it.each<[string, typeof manager, RoadStatus, string[], string[]]>([
    ['a manager, Thermoforming', manager, 'Thermoforming', ['QR Code', 'Edit', 'Hold'], ['Stage QRs']],
    ['a manager, Pending Approval', manager, 'Pending Approval', ['Edit', 'Hold'], ['QR Code']],
    ['a technician at their stage', technician, 'Thermoforming', ['QR Code'], ['Edit', 'Hold']],
    ['a technician at Digital Planning', technician, 'Digital Planning', [], ['QR Code', 'Edit', 'Hold']],
    ['a designer at Digital Planning', designer, 'Digital Planning', ['QR Code'], ['Edit', 'Hold']],
    ['a representative at Delivery', representative, 'Delivery to Doctor', ['QR Code'], ['Edit']],
    ['the doctor', doctor, 'Model Printing', [], ['QR Code', 'Edit', 'Hold']],
  ])('header buttons for %s', (_label, user, status, shown, hidden) => {
    renderDetail(user, caseAt(status));
    const group = screen.getByRole('group', { name: 'Case actions' });
    for (const name of shown) expect(within(group).getByRole('button', { name })).toBeTruthy();
    for (const name of hidden) expect(within(group).queryByRole('button', { name })).toBeNull();
  });

  it("'Stage QRs' only for a Completed case with staging; the buttons call their props", () => {
    const { props } = renderDetail(manager, caseAt('Completed', { upperSheets: 1, lowerSheets: null }));
    fireEvent.click(screen.getByRole('button', { name: 'Stage QRs' }));
    expect(props.onShowStageQrs).toHaveBeenCalledWith(expect.objectContaining({ id: 'CA-2025-123' }));
    fireEvent.click(screen.getByRole('button', { name: 'QR Code' }));
    expect(props.onShowCaseQr).toHaveBeenCalledWith(expect.objectContaining({ id: 'CA-2025-123' }));
    fireEvent.click(screen.getByRole('button', { name: 'Edit' }));
    expect(props.onEdit).toHaveBeenCalledWith('CA-2025-123');
  });

  it("no 'Stage QRs' for a Completed case without staging (no sheet counts when it completed)", () => {
    renderDetail(manager, caseAt('Completed', { upperSheets: null, lowerSheets: null }));
    expect(button('Stage QRs')).toBeNull();
  });
});

describe('CaseDetail: panels per role and status', () => {
  it.each<[string, typeof manager, RoadStatus, boolean, string[]]>([
    ['manager, Pending Approval', manager, 'Pending Approval', false, ['New Case Approval']],
    ['manager, Pending Approval, held', manager, 'Pending Approval', true, []],
    ['representative, Pending Approval', representative, 'Pending Approval', false, []],
    ['doctor, Doctor Approval', doctor, 'Doctor Approval', false, ['Treatment Plan Approval']],
    ['doctor, Doctor Approval, held', doctor, 'Doctor Approval', true, []],
    ['manager, Doctor Approval', manager, 'Doctor Approval', false, []],
    ['designer, Digital Planning', designer, 'Digital Planning', false, ['Prepare for Doctor Approval']],
    ['manager, Digital Planning', manager, 'Digital Planning', false, ['Prepare for Doctor Approval']],
    ['designer, Digital Planning, held', designer, 'Digital Planning', true, []],
    ['technician, Digital Planning', technician, 'Digital Planning', false, []],
    ['designer, Model Printing', designer, 'Model Printing', false, []],
  ])('%s → %j', (_label, user, status, onHold, panels) => {
    renderDetail(user, caseAt(status, { onHold }));
    for (const title of ['New Case Approval', 'Treatment Plan Approval', 'Prepare for Doctor Approval']) {
      const shown = screen.queryByRole('heading', { name: title }) !== null;
      expect([title, shown]).toEqual([title, panels.includes(title)]);
    }
    expect(screen.getByRole('heading', { name: 'Workflow Progress' })).toBeTruthy();
    expect(screen.getByRole('heading', { name: 'Case Files' })).toBeTruthy();
  });

  it("another doctor's case at Doctor Approval shows no review panel", () => {
    renderDetail(doctor, caseAt('Doctor Approval', { assignedDoctorUsername: 'dr.patel' }));
    expect(screen.queryByRole('heading', { name: 'Treatment Plan Approval' })).toBeNull();
  });
});

/** The lot picker's reads: an empty register, the default settings. */
const MATERIALS_ROUTES = {
  'GET /materials/lots': { body: [] },
  'GET /materials/settings': { body: DEFAULT_MATERIAL_SETTINGS },
};

/** At Thermoforming the button opens the lot picker; its Complete Stage sends the advance. */
async function completeWithoutLots() {
  fireEvent.click(advance());
  const dialog = await screen.findByRole('dialog', { name: 'Complete Thermoforming' });
  fireEvent.click(within(dialog).getByRole('button', { name: 'Complete Stage' }));
}

describe('CaseDetail: Complete Stage & Advance', () => {
  it.each<[string, typeof manager, RoadStatus, boolean, string | null]>([
    ['technician at Thermoforming', technician, 'Thermoforming', true, null],
    ['manager at Quality Check', manager, 'Quality Check', true, null],
    [
      'designer at Thermoforming',
      designer,
      'Thermoforming',
      false,
      'This stage can only be completed by: Technician or Manager',
    ],
    [
      'technician at Packaging',
      technician,
      'Packaging & Labeling',
      false,
      'This stage can only be completed by: Representative or Manager',
    ],
    [
      'technician at Digital Planning',
      technician,
      'Digital Planning',
      false,
      'This stage can only be completed by: Designer or Manager',
    ],
    [
      'manager at Pending Approval',
      manager,
      'Pending Approval',
      false,
      'This case must be approved by a manager before proceeding.',
    ],
    [
      'manager at Doctor Approval',
      manager,
      'Doctor Approval',
      false,
      "Waiting for doctor's approval before proceeding.",
    ],
    ['manager at Completed', manager, 'Completed', false, 'This case is complete.'],
  ])('%s', (_label, user, status, enabled, guidance) => {
    renderDetail(user, caseAt(status));
    expect(advance().disabled).toBe(!enabled);
    if (guidance) expect(screen.getByText(guidance)).toBeTruthy();
  });

  it('is not offered to doctors, who own no stage (they approve the treatment plan)', () => {
    renderDetail(doctor, caseAt('Model Printing'));
    expect(button('Complete Stage & Advance')).toBeNull();
    expect(screen.getByRole('tabpanel').textContent).toContain('Dr. Sarah Lee');
  });

  it('sends fromStatus and puts the answered case in the cache', async () => {
    const item = caseAt('Thermoforming');
    const { server } = renderDetail(technician, item, {
      routes: {
        ...MATERIALS_ROUTES,
        'POST /cases/CA-2025-123/advance': {
          body: after(item, [E.advanced('Thermoforming', 'Trimming & Polishing'), technician]),
        },
      },
    });
    await completeWithoutLots();
    await vi.waitFor(() => expect(cached()?.status).toBe('Trimming & Polishing'));
    expect(server.calls('POST', '/cases/CA-2025-123/advance')[0].body).toEqual({
      fromStatus: 'Thermoforming',
    });
    expect(screen.getByLabelText('Case summary').textContent).toContain('Trimming & Polishing');
  });

  it('a 409 shows its text next to the button and reloads the case', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    // Someone else advanced it first.
    const item = caseAt('Thermoforming');
    const moved = after(item, E.advanced('Thermoforming', 'Trimming & Polishing'));
    const { server } = renderDetail(technician, item, {
      routes: {
        ...MATERIALS_ROUTES,
        'POST /cases/CA-2025-123/advance': {
          status: 409,
          body: { error: 'The case was changed by someone else. Reload and try again.' },
        },
        'GET /cases/CA-2025-123': { body: moved },
      },
    });
    await completeWithoutLots();
    await vi.waitFor(() => expect(cached()?.version).toBe(moved.version));
    const alerts = screen.getAllByText('The case was changed by someone else. Reload and try again.');
    expect(alerts.length).toBeGreaterThanOrEqual(1);
    expect(alerts.some((element) => element.closest('.cd-advance'))).toBe(true);
    expect(server.calls('GET', '/cases/CA-2025-123')).toHaveLength(1);
  });

  it('a 403 shows the server text next to the button without reloading', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const { server } = renderDetail(technician, caseAt('Trimming & Polishing'), {
      routes: {
        'POST /cases/CA-2025-123/advance': {
          status: 403,
          body: { error: 'This stage can only be completed by: Technician or Manager' },
        },
      },
    });
    fireEvent.click(advance());
    expect(await screen.findByRole('alert')).toBeTruthy();
    expect(screen.getByRole('alert').textContent).toBe(
      'This stage can only be completed by: Technician or Manager',
    );
    expect(server.calls('GET', '/cases/CA-2025-123')).toHaveLength(0);
  });
});

describe('CaseDetail: held case', () => {
  it('shows the banner, On Hold, the pause icon; actions and reassignment are disabled', () => {
    renderDetail(manager, caseAt('Thermoforming', { onHold: true }));
    const banner = document.querySelector('.cd-hold-banner') as HTMLElement;
    expect(banner.textContent).toBe('This case is currently on hold. Workflow actions are disabled.');
    const summary = screen.getByLabelText('Case summary');
    expect(within(summary).getByText('On Hold')).toBeTruthy();
    const current = document.querySelector('.cd-step[aria-current="step"]') as HTMLElement;
    expect(current.dataset.state).toBe('held');
    expect(current.querySelector('.cd-step__marker svg')).toBeTruthy();
    expect(within(current).getByText('Current stage, on hold')).toBeTruthy();
    for (const reassign of screen.getAllByRole('button', { name: /^Reassign / })) {
      expect((reassign as HTMLButtonElement).disabled).toBe(true);
    }
    expect(advance().disabled).toBe(true);
    expect(
      screen.getAllByText('This case is currently on hold. Workflow actions are disabled.'),
    ).toHaveLength(2);
    expect(button('Resume')).toBeTruthy();
  });

  it('Hold and Resume send the command with the version seen', async () => {
    const item = caseAt('Thermoforming');
    const { server } = renderDetail(manager, item, {
      routes: { 'POST /cases/CA-2025-123/hold': { body: after(item, E.held()) } },
    });
    fireEvent.click(screen.getByRole('button', { name: 'Hold' }));
    await screen.findByRole('button', { name: 'Resume' });
    expect(document.querySelector('.cd-hold-banner')).toBeTruthy();
    expect(server.calls('POST', '/cases/CA-2025-123/hold')[0].body).toEqual({
      expectedVersion: item.version,
    });
    expect(screen.getByRole('button', { name: 'Resume' })).toBeTruthy();
  });
});

describe('CaseDetail: a case not in the cache', () => {
  it('is read with GET /cases/{id}', async () => {
    const { server } = renderDetail(manager, caseAt('Thermoforming', { id: 'CA-2025-999' }), {
      caseId: 'CA-2025-123',
      routes: { 'GET /cases/CA-2025-123': { body: caseAt('Model Printing') } },
    });
    expect(screen.getByText('Loading case...')).toBeTruthy();
    expect(await screen.findByRole('heading', { level: 1, name: 'Emma Thompson' })).toBeTruthy();
    expect(server.calls('GET', '/cases/CA-2025-123')).toHaveLength(1);
  });

  it("says 'Case not found.' on 404", async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    renderDetail(manager, caseAt('Thermoforming', { id: 'CA-2025-999' }), {
      caseId: 'CA-2025-123',
      routes: { 'GET /cases/CA-2025-123': { status: 404, body: { error: 'Case not found.' } } },
    });
    expect(await screen.findByText('Case not found.')).toBeTruthy();
  });
});
