import { describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, within } from '@testing-library/react';
import { after, designer, doctor, E, manager, representative, technician } from '../../test/fixtures';
import { cached, caseAt, renderDetail } from '../../test/caseDetail';

const steps = () => Array.from(document.querySelectorAll<HTMLElement>('.cd-stepper > li'));

describe('Workflow Progress', () => {
  it('checks completed stages, marks the current one, greys later ones', () => {
    renderDetail(technician, caseAt('Thermoforming'));
    const states = steps().map((step) => step.dataset.state);
    expect(states).toEqual([
      'done',
      'done',
      'done',
      'done',
      'done',
      'current',
      'upcoming',
      'upcoming',
      'upcoming',
      'upcoming',
      'upcoming',
    ]);
    const current = steps()[5];
    expect(current.getAttribute('aria-current')).toBe('step');
    expect(within(current).getByText('Thermoforming')).toBeTruthy();
    expect(within(current).getByText('Current stage')).toBeTruthy();
    expect(current.querySelector('.cd-step__marker svg')).toBeNull();
    expect(steps()[0].querySelector('.cd-step__marker svg')).toBeTruthy();
    expect(within(steps()[0]).getByText('Completed')).toBeTruthy();
    expect(within(steps()[6]).getByText('Not started')).toBeTruthy();
  });

  it('every stage of a Completed case is checked', () => {
    renderDetail(manager, caseAt('Completed'));
    expect(steps().every((step) => step.dataset.state === 'done')).toBe(true);
  });

  it.each([technician, designer, representative, doctor].map((user) => [user.role, user] as const))(
    '%s sees assignees as plain text',
    (_role, user) => {
      renderDetail(user, caseAt('Thermoforming'));
      expect(screen.queryAllByRole('button', { name: /^Reassign / })).toHaveLength(0);
      expect(within(steps()[5]).getByText('Tech Team')).toBeTruthy();
    },
  );

  it('a manager reassigns a stage from a dropdown of lab users', async () => {
    const item = caseAt('Thermoforming');
    const updated = after(item, E.assignee('Thermoforming', 'tech'));
    const { server } = renderDetail(manager, item, {
      routes: { 'PUT /cases/CA-2025-123/stages/Thermoforming/assignee': { body: updated } },
    });
    fireEvent.click(screen.getByRole('button', { name: 'Reassign Thermoforming, assigned to Tech Team' }));
    const select = screen.getByRole('combobox', { name: 'Assign Thermoforming to' }) as HTMLSelectElement;
    expect(Array.from(select.options).map((option) => option.value)).toEqual([
      'Unassigned',
      'Tech Team',
      'admin',
      'rep',
      'designer',
      'tech',
    ]);
    fireEvent.change(select, { target: { value: 'tech' } });
    await vi.waitFor(() => expect(cached()?.alignerWorkflow[5].assignedTo).toBe('tech'));
    expect(server.calls('PUT', '/cases/CA-2025-123/stages/Thermoforming/assignee')[0].body).toEqual({
      assignee: 'tech',
      expectedVersion: item.version,
    });
    expect(screen.queryByRole('combobox', { name: 'Assign Thermoforming to' })).toBeNull();
    expect(screen.getByRole('button', { name: 'Reassign Thermoforming, assigned to tech' })).toBeTruthy();
  });

  it('encodes the stage name in the path', async () => {
    const item = caseAt('Trimming & Polishing');
    const { server } = renderDetail(manager, item, {
      routes: {
        'PUT /cases/CA-2025-123/stages/Trimming%20%26%20Polishing/assignee': {
          body: after(item, E.assignee('Trimming & Polishing', 'Unassigned')),
        },
      },
    });
    fireEvent.click(screen.getByRole('button', { name: /^Reassign Trimming & Polishing/ }));
    fireEvent.change(screen.getByRole('combobox'), { target: { value: 'Unassigned' } });
    await vi.waitFor(() => expect(server.requests).toHaveLength(1));
    expect(server.requests[0].path).toBe('/cases/CA-2025-123/stages/Trimming%20%26%20Polishing/assignee');
  });

  it('reassignment is disabled while the case is held', () => {
    renderDetail(manager, caseAt('Thermoforming', { onHold: true }));
    const reassign = screen.getByRole('button', {
      name: 'Reassign Thermoforming, assigned to Tech Team',
    }) as HTMLButtonElement;
    expect(reassign.disabled).toBe(true);
    expect(reassign.title).toBe('Reassignment is disabled while the case is on hold.');
    fireEvent.click(reassign);
    expect(screen.queryByRole('combobox')).toBeNull();
  });
});
