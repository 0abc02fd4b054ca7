import { describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, within } from '@testing-library/react';
import { DEFAULT_MATERIAL_SETTINGS, type Lot } from '@alignerflow/domain';
import { after, technician } from '../../test/fixtures';
import { cached, caseAt, renderDetail } from '../../test/caseDetail';

const lot = (lotNumber: string, expiresOn: string | null = null): Lot => ({
  lotNumber,
  kind: 'sheet',
  product: 'PETG',
  supplier: null,
  expiresOn,
  addedAt: '2025-01-01T00:00:00.000Z',
  addedBy: 'tech',
});

describe('the lot picker', () => {
  it('sends the lots chosen and the machine with the advance of Thermoforming', async () => {
    const item = caseAt('Thermoforming');
    const { server } = renderDetail(technician, item, {
      routes: {
        'GET /materials/lots': { body: [lot('PETG-1'), lot('OLD-1', '2020-01-01')] },
        'GET /materials/settings': { body: { ...DEFAULT_MATERIAL_SETTINGS, requireLots: true } },
        'POST /cases/CA-2025-123/advance': {
          body: after(item, [
            {
              type: 'StageAdvanced',
              data: { from: 'Thermoforming', to: 'Trimming & Polishing', lots: ['PETG-1'] },
            },
            technician,
          ]),
        },
      },
    });
    fireEvent.click(screen.getByRole('button', { name: 'Complete Stage & Advance' }));
    const dialog = within(await screen.findByRole('dialog', { name: 'Complete Thermoforming' }));
    await dialog.findByText('This lab records the lot of every Model Printing and Thermoforming.');
    const select = dialog.getByLabelText('Choose a lot');
    // The expired lot is not offered.
    expect(within(select).queryByRole('option', { name: /OLD-1/ })).toBeNull();
    fireEvent.change(select, { target: { value: 'PETG-1' } });
    fireEvent.click(dialog.getByRole('button', { name: 'Add' }));
    expect(dialog.getByRole('button', { name: 'Remove lot PETG-1' })).toBeTruthy();
    fireEvent.change(dialog.getByLabelText('Machine (optional)'), { target: { value: 'Biostar' } });
    fireEvent.click(dialog.getByRole('button', { name: 'Complete Stage' }));
    await vi.waitFor(() => expect(cached()?.status).toBe('Trimming & Polishing'));
    expect(server.calls('POST', '/cases/CA-2025-123/advance')[0].body).toEqual({
      fromStatus: 'Thermoforming',
      lots: ['PETG-1'],
      machine: 'Biostar',
    });
    expect(screen.queryByRole('dialog')).toBeNull();
  });
});
