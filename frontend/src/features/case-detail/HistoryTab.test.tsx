import { describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, within } from '@testing-library/react';
import { SYSTEM_ACTOR, type CaseEventData, type RiskKind } from '@alignerflow/domain';
import {
  designer,
  doctor,
  E,
  historyOf,
  manager,
  representative,
  technician,
  type Given,
} from '../../test/fixtures';
import { historyLines } from './historyText';
import { caseAt, renderDetail } from '../../test/caseDetail';

/** Emma's case from creation to a reassigned stage, then an event this app does not know yet. */
function trail() {
  return historyOf(
    [
      E.created({
        patientName: 'Emma Thompson',
        doctorName: 'Dr. Sarah Lee',
        clinicName: 'Bright Smiles Dental',
        price: 1250,
        upperSheets: 18,
        lowerSheets: 16,
      }),
      doctor,
    ],
    E.approved('dr.lee'),
    [E.links('https://example.com/v.mp4'), designer],
    [E.advanced('Digital Planning', 'Doctor Approval'), designer],
    [E.changesRequested('Less movement on 11.'), doctor],
    [E.advanced('Digital Planning', 'Doctor Approval'), designer],
    [E.planApproved(), doctor],
    [E.advanced('Model Printing', 'Thermoforming'), technician],
    E.held(),
    E.resumed(),
    E.edited({ priority: 'High', patientName: 'Emma J. Thompson' }),
    [E.priced(1300, 18, null), representative],
    [E.assignee('Thermoforming', 'tech', true), technician],
    E.assignee('Thermoforming', 'Tech Team'),
    E.note('Rush order.'),
    // A newer server's event type, which this app reads by its name.
    { type: 'SomethingNew', data: {} } as unknown as CaseEventData,
  );
}

describe('history sentences', () => {
  it('reads every event as a sentence, with what changed', () => {
    const lines = historyLines(trail());
    expect(lines.map((line) => line.sentence)).toEqual([
      'dr.lee created the case and paid the $50.00 case fee',
      'admin approved the case and assigned it to dr.lee',
      'designer saved the simulation links',
      'designer advanced Digital Planning → Doctor Approval',
      'dr.lee requested changes to the treatment plan',
      'designer advanced Digital Planning → Doctor Approval',
      'dr.lee approved the treatment plan',
      'tech advanced Model Printing → Thermoforming',
      'admin put the case on hold',
      'admin resumed the case',
      'admin edited the case details',
      'rep updated the pricing',
      'tech took Thermoforming by generating the case QR code',
      'admin assigned Thermoforming to Tech Team',
      'admin added a note',
      'admin: SomethingNew',
    ]);
    const details = (index: number) => lines[index].details.map((d) => `${d.label}: ${d.value}`);
    expect(details(2)).toEqual(['Simulation Video URL: (empty) → https://example.com/v.mp4']);
    expect(details(4)).toEqual(['Comment: Less movement on 11.']);
    expect(details(10)).toEqual([
      'Priority: Normal → High',
      'Patient Name: Emma Thompson → Emma J. Thompson',
    ]);
    expect(details(11)).toEqual(['Case Price: $1250.00 → $1300.00', 'Lower Sheets: 16 → N/A']);
    expect(details(14)).toEqual(['Note: Rush order.']);
    expect(lines[7].who).toBe('tech (Technician)');
  });

  it('reads the at-risk alerts of the lab’s scan, each kind in its own words', () => {
    const atRisk = (kind: RiskKind, day: string): Given => [
      { type: 'CaseAtRisk', data: { kind, day, deliveryDate: '2025-02-01' } },
      SYSTEM_ACTOR,
    ];
    const lines = historyLines(historyOf(atRisk('at_risk', '2025-01-30'), atRisk('overdue', '2025-02-03')));
    expect(lines.map((line) => line.sentence)).toEqual([
      'The managers were alerted that the case is at risk of missing its due date (Feb 1, 2025)',
      'The managers were alerted that the case is overdue (due Feb 1, 2025)',
    ]);
  });

  it('without the earlier events an edit shows the new values', () => {
    const [line] = historyLines(historyOf(E.edited({ clinicName: 'New Clinic' })));
    expect(line.details).toEqual([{ label: 'Clinic Name', value: 'New Clinic' }]);
  });
});

describe('History tab', () => {
  it('loads the audit trail, newest first, and toggles to oldest first', async () => {
    const { server } = renderDetail(manager, caseAt('Thermoforming'), {
      routes: { 'GET /cases/CA-2025-123/history': { body: trail() } },
    });
    fireEvent.click(screen.getByRole('tab', { name: 'History' }));
    const list = await screen.findByRole('list', { name: 'Case History' });
    const sentences = () =>
      within(list)
        .getAllByRole('listitem')
        .map((item) => item.querySelector('.cd-history__sentence')?.textContent);
    expect(sentences()[0]).toBe('admin: SomethingNew');
    expect(sentences()).toContain('tech advanced Model Printing → Thermoforming');
    expect(sentences()).toContain('admin put the case on hold');
    expect(screen.getByRole('button', { name: 'Newest first' }).getAttribute('aria-pressed')).toBe('true');
    fireEvent.click(screen.getByRole('button', { name: 'Oldest first' }));
    expect(sentences()[0]).toBe('dr.lee created the case and paid the $50.00 case fee');
    const first = within(list).getAllByRole('listitem')[0];
    expect(within(first).getByText(/dr\.lee \(Doctor\)/)).toBeTruthy();
    expect(first.querySelector('time')?.getAttribute('dateTime')).toBe('2025-03-10T09:00:00.000Z');
    expect(server.calls('GET', '/cases/CA-2025-123/history')).toHaveLength(1);
  });

  it('shows a failure with Retry', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    let fail = true;
    renderDetail(manager, caseAt('Thermoforming'), {
      routes: {
        'GET /cases/CA-2025-123/history': () =>
          fail ? { status: 503, body: { error: 'Database unavailable' } } : { body: trail() },
      },
    });
    fireEvent.click(screen.getByRole('tab', { name: 'History' }));
    const alert = await screen.findByRole('alert');
    expect(within(alert).getByText('Could not load the history.')).toBeTruthy();
    expect(within(alert).getByText('Database unavailable')).toBeTruthy();
    fail = false;
    fireEvent.click(within(alert).getByRole('button', { name: 'Retry' }));
    expect(await screen.findByRole('list', { name: 'Case History' })).toBeTruthy();
  });

  describe('seal check (tamper evidence)', () => {
    const verified = { ok: true, caseId: 'CA-2025-123', events: 16, unsealed: 0, firstBroken: null };

    it('shows a Manager the verified mark', async () => {
      const { server } = renderDetail(manager, caseAt('Thermoforming'), {
        routes: {
          'GET /cases/CA-2025-123/history': { body: trail() },
          'GET /audit/verify': { body: verified },
        },
      });
      fireEvent.click(screen.getByRole('tab', { name: 'History' }));
      const mark = await screen.findByText('✓ Verified');
      expect(mark.parentElement?.textContent).toContain('16 events sealed and unchanged.');
      expect(server.calls('GET', '/audit/verify')).toHaveLength(1);
    });

    it('says where the trail no longer matches its seals', async () => {
      renderDetail(manager, caseAt('Thermoforming'), {
        routes: {
          'GET /cases/CA-2025-123/history': { body: trail() },
          'GET /audit/verify': { body: { ...verified, ok: false, firstBroken: '42' } },
        },
      });
      fireEvent.click(screen.getByRole('tab', { name: 'History' }));
      const alert = await screen.findByRole('alert');
      expect(alert.textContent).toBe('⚠ TamperedThe event at log position 42 no longer matches its seal.');
      expect(screen.queryByText('✓ Verified')).toBeNull();
    });

    it('names the newest events not sealed yet', async () => {
      renderDetail(manager, caseAt('Thermoforming'), {
        routes: {
          'GET /cases/CA-2025-123/history': { body: trail() },
          'GET /audit/verify': { body: { ...verified, events: 15, unsealed: 1 } },
        },
      });
      fireEvent.click(screen.getByRole('tab', { name: 'History' }));
      const mark = await screen.findByText('✓ Verified');
      expect(mark.parentElement?.textContent).toContain(
        '15 events sealed and unchanged. 1 newest event not sealed yet.',
      );
    });

    it('is not shown, nor asked for, for other roles', async () => {
      const { server } = renderDetail(representative, caseAt('Thermoforming'), {
        routes: { 'GET /cases/CA-2025-123/history': { body: trail() } },
      });
      fireEvent.click(screen.getByRole('tab', { name: 'History' }));
      await screen.findByRole('list', { name: 'Case History' });
      expect(screen.queryByText('✓ Verified')).toBeNull();
      expect(server.calls('GET', '/audit/verify')).toHaveLength(0);
    });
  });
});
