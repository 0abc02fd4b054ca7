import { describe, expect, it } from 'vitest';
import { act, fireEvent, render, screen } from '@testing-library/react';
import { after, doctor, E, makeCase, manager, technician } from '../../test/fixtures';
import { caseAt, cached, renderDetail } from '../../test/caseDetail';
import { CaseLinks, FollowUpBadge } from '../case-shared/CaseLinks';

const order = () => screen.queryByRole('button', { name: 'Order remake / refinement' });

describe('Order remake / refinement', () => {
  it('is offered on a completed case to a Manager', () => {
    renderDetail(manager, caseAt('Completed'));
    expect(order()).toBeTruthy();
  });
  it('not to a technician', () => {
    renderDetail(technician, caseAt('Completed'));
    expect(order()).toBeNull();
  });
  it('not before completion, even to the case doctor', () => {
    renderDetail(doctor, caseAt('Quality Check'));
    expect(order()).toBeNull();
  });

  it('checks the form with the domain, sends it, and both cases are known with their links', async () => {
    // dr.lee's case (caseAt's doctor).
    const original = caseAt('Completed');
    const created = caseAt('Pending Approval', {
      id: 'CA-2025-777',
      origin: { caseId: 'CA-2025-123', kind: 'remake', reasonCode: 'other', reason: 'Dog ate it' },
    });
    const { server } = renderDetail(doctor, original, {
      routes: {
        'POST /cases/CA-2025-123/reorders': { status: 201, body: created },
        'GET /cases/CA-2025-123': {
          body: after(original, [E.followUp('CA-2025-777', 'remake', 'other', 'Dog ate it'), doctor]),
        },
      },
    });
    fireEvent.click(order()!);
    fireEvent.change(screen.getByLabelText('Reason code'), { target: { value: 'other' } });
    fireEvent.click(screen.getByRole('button', { name: 'Order' }));
    expect(screen.getByText('Describe the reason when the reason code is "other".')).toBeTruthy();
    expect(server.calls('POST', '/cases/CA-2025-123/reorders')).toHaveLength(0);
    fireEvent.change(screen.getByLabelText('Reason'), { target: { value: ' Dog ate it ' } });
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Order' })));
    expect(server.calls('POST', '/cases/CA-2025-123/reorders')[0].body).toEqual({
      kind: 'remake',
      reasonCode: 'other',
      reason: 'Dog ate it',
      expectedVersion: original.version,
    });
    expect(cached().followUps).toEqual([{ caseId: 'CA-2025-777', kind: 'remake' }]);
    expect(cached('CA-2025-777').origin?.caseId).toBe('CA-2025-123');
    expect(screen.queryByRole('dialog')).toBeNull();
  });
});

describe('CaseLinks and the badge', () => {
  it('link a remake to its original and an original to its follow-ups', () => {
    const opened: string[] = [];
    render(
      <CaseLinks
        item={makeCase(
          {
            status: 'Completed',
            origin: { caseId: 'CA-2025-100', kind: 'remake', reasonCode: 'lost', reason: '' },
          },
          E.followUp('CA-2025-300', 'refinement'),
        )}
        onOpenCase={(id) => opened.push(id)}
      />,
    );
    expect(screen.getByText('Remake of')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'CA-2025-100' }));
    fireEvent.click(screen.getByRole('button', { name: 'CA-2025-300' }));
    expect(opened).toEqual(['CA-2025-100', 'CA-2025-300']);
    expect(screen.getByText('Follow-ups:')).toBeTruthy();
  });

  it('the badge marks only a follow-up', () => {
    const { container } = render(<FollowUpBadge item={makeCase()} />);
    expect(container.innerHTML).toBe('');
    render(
      <FollowUpBadge
        item={makeCase({
          origin: { caseId: 'CA-2025-100', kind: 'refinement', reasonCode: null, reason: '' },
        })}
      />,
    );
    expect(screen.getByTitle('Refinement of CA-2025-100').textContent).toBe('Refinement');
  });
});
