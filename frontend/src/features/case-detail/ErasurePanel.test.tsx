import { describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, within } from '@testing-library/react';
import { erasedCase } from '@alignerflow/domain';
import { manager, technician } from '../../test/fixtures';
import { cached, caseAt, renderDetail } from '../../test/caseDetail';

const eraseButton = () => screen.queryByRole('button', { name: 'Erase patient data' });

describe('Erase patient data', () => {
  it('is offered to a Manager on a completed case; the reason goes to the server, the erased case shows', async () => {
    const item = caseAt('Completed');
    const erased = { ...erasedCase(item, 'admin', '2026-11-26T06:00:00.000Z'), version: item.version + 1 };
    const { server } = renderDetail(manager, item, {
      routes: { [`POST /cases/${item.id}/erase`]: { body: erased } },
    });
    fireEvent.click(eraseButton()!);
    const dialog = screen.getByRole('dialog', { name: `Erase the patient data of ${item.id}?` });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Erase for good' }));
    expect(within(dialog).getByRole('alert').textContent).toBe('A reason is required.');
    fireEvent.change(within(dialog).getByLabelText('Reason'), { target: { value: 'Asked in writing' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Erase for good' }));
    await vi.waitFor(() => expect(cached()?.patientName).toBe('Erased patient'));
    expect(server.calls('POST', `/cases/${item.id}/erase`)[0].body).toEqual({ reason: 'Asked in writing' });
    await screen.findByText(/^Patient data erased on .* by admin\.$/);
    expect(eraseButton()).toBeNull();
  });

  it('is not offered on a case still in the lab', () => {
    renderDetail(manager, caseAt('Thermoforming'));
    expect(eraseButton()).toBeNull();
  });

  it('is not offered to a Technician', () => {
    renderDetail(technician, caseAt('Completed'));
    expect(eraseButton()).toBeNull();
  });
});
