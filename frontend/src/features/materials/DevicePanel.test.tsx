import { describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, within } from '@testing-library/react';
import type { CaseEventData } from '@alignerflow/domain';
import { after, doctor, representative } from '../../test/fixtures';
import { cached, caseAt, renderDetail } from '../../test/caseDetail';

const shipped = (carrier: string, trackingNumber: string): CaseEventData =>
  ({
    type: 'ShipmentRecorded',
    data: { carrier, trackingNumber, shippedAt: '2025-03-12T10:00:00.000Z' },
  }) as CaseEventData;
const panel = () => within(screen.getByRole('region', { name: 'Device record' }));

describe('the device panel', () => {
  it("shows the doctor each shipment's tracking link, and Received sends the version seen", async () => {
    const item = caseAt('Delivery to Doctor', {}, [shipped('ups', '1Z 9'), representative]);
    const { server } = renderDetail(doctor, item, {
      routes: {
        'POST /cases/CA-2025-123/received': {
          body: after(item, [{ type: 'CaseReceived', data: {} }, doctor]),
        },
      },
    });
    const link = panel().getByRole('link', { name: 'Track with UPS' });
    expect(link.getAttribute('href')).toBe('https://www.ups.com/track?tracknum=1Z%209');
    expect(panel().queryByRole('button', { name: 'Ship' })).toBeNull();
    fireEvent.click(panel().getByRole('button', { name: 'Received' }));
    await vi.waitFor(() => expect(cached()?.receivedAt).toBeDefined());
    expect(server.calls('POST', '/cases/CA-2025-123/received')[0].body).toEqual({
      expectedVersion: item.version,
    });
    expect(panel().queryByRole('button', { name: 'Received' })).toBeNull();
  });

  it('offers the statement only after Quality Check', () => {
    renderDetail(representative, caseAt('Quality Check'));
    expect(panel().getByText('The statement is issued after Quality Check.')).toBeTruthy();
    expect(panel().queryByRole('link', { name: 'Statement (A4)' })).toBeNull();
  });

  it('lets the lab ship from Packaging & Labeling, showing the server text of a refusal', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    renderDetail(representative, caseAt('Packaging & Labeling'), {
      routes: {
        'POST /cases/CA-2025-123/shipments': { status: 400, body: { error: 'Tracking number is required.' } },
      },
    });
    expect(panel().getByRole('link', { name: 'Statement (Letter)' }).getAttribute('href')).toBe(
      '/api/cases/CA-2025-123/statement.pdf?paper=letter',
    );
    fireEvent.click(panel().getByRole('button', { name: 'Ship' }));
    const dialog = within(screen.getByRole('dialog', { name: 'Ship case' }));
    fireEvent.change(dialog.getByLabelText('Tracking number'), { target: { value: ' ' } });
    fireEvent.click(dialog.getByRole('button', { name: 'Record shipment' }));
    expect((await dialog.findByRole('alert')).textContent).toBe('Tracking number is required.');
  });
});
