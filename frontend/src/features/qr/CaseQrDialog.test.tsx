import { beforeEach, describe, expect, it, vi } from 'vitest';
import { act, fireEvent, render, screen, within } from '@testing-library/react';
import { stagePayload } from '@alignerflow/domain';
import { cache } from '../../api/cache';
import { fakeServer } from '../../test/fakeServer';
import { after, E, makeCase, technician } from '../../test/fixtures';
import { CaseQrDialog, StageQrSheet } from './index';

// The lazily loaded qrcode library is the boundary: jsdom has no canvas to draw on.
const toDataURL = vi.hoisted(() => vi.fn(async (text: string) => `data:image/png;base64,${btoa(text)}`));
vi.mock('qrcode', () => ({ default: { toDataURL }, toDataURL }));

const jane = { id: 'CA-2025-123', patientName: 'Jane Roe' };
const item = makeCase({ ...jane, status: 'Model Printing' });

function deferred<T>() {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((done) => (resolve = done));
  return { promise, resolve };
}

beforeEach(() => {
  toDataURL.mockClear();
  cache.begin(technician);
  cache.setCases([item]);
});

describe('CaseQrDialog', () => {
  it("shows 'Generating QR Code...', then the QR of the server's payload (type 4, level M)", async () => {
    const answer = deferred<{ status: number; body: unknown }>();
    const server = fakeServer({ 'POST /cases/CA-2025-123/qr': () => answer.promise });
    render(<CaseQrDialog case={item} onClose={vi.fn()} />);
    const dialog = screen.getByRole('dialog', { name: 'Case QR Code' });
    expect(within(dialog).getByText('Generating QR Code...')).toBeTruthy();
    expect(within(dialog).getByText('CA-2025-123')).toBeTruthy();
    expect(within(dialog).getByText('Jane Roe')).toBeTruthy();
    expect((within(dialog).getByRole('button', { name: 'Download' }) as HTMLButtonElement).disabled).toBe(
      true,
    );

    const assigned = after(item, [E.assignee('Model Printing', 'tech', true), technician]);
    await act(async () => answer.resolve({ status: 200, body: { case: assigned, payload: 'CA-2025-123' } }));

    const image = await within(dialog).findByRole('img', { name: 'QR code of case CA-2025-123' });
    expect(image.getAttribute('src')).toBe(`data:image/png;base64,${btoa('CA-2025-123')}`);
    expect(toDataURL).toHaveBeenCalledWith(
      'CA-2025-123',
      expect.objectContaining({ version: 4, errorCorrectionLevel: 'M' }),
    );
    expect(within(dialog).queryByText('Generating QR Code...')).toBeNull();
    expect(server.calls('POST', '/cases/CA-2025-123/qr')).toHaveLength(1);
    // The answer's case (a Technician took the stage) goes into the one cache.
    expect(cache.get().cases[0].assignedTechnicians).toEqual(['tech']);
  });

  it('downloads qrcode-{caseId}.png and prints only the QR sheet', async () => {
    fakeServer({ 'POST /cases/CA-2025-123/qr': { body: { case: item, payload: 'CA-2025-123' } } });
    const print = vi.fn();
    vi.stubGlobal('print', print);
    render(<CaseQrDialog case={item} onClose={vi.fn()} />);
    const download = await screen.findByRole('link', { name: 'Download' });
    expect(download.getAttribute('download')).toBe('qrcode-CA-2025-123.png');
    expect(download.getAttribute('href')).toMatch(/^data:image\/png/);
    fireEvent.click(screen.getByRole('button', { name: 'Print' }));
    expect(print).toHaveBeenCalled();
    const sheet = document.body.querySelector(':scope > .print-sheet');
    expect(sheet?.querySelector('img')).toBeTruthy();
    expect(sheet?.textContent).toContain('CA-2025-123');
    expect(sheet?.textContent).toContain('Jane Roe');
  });

  it("shows the server's refusal", async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    fakeServer({
      'POST /cases/CA-2025-123/qr': {
        status: 403,
        body: { error: 'Only users who can act on this case can show its QR code.' },
      },
    });
    render(<CaseQrDialog case={item} onClose={vi.fn()} />);
    expect((await screen.findByRole('alert')).textContent).toBe(
      'Only users who can act on this case can show its QR code.',
    );
    expect(screen.queryByText('Generating QR Code...')).toBeNull();
    expect((screen.getByRole('button', { name: 'Print' }) as HTMLButtonElement).disabled).toBe(true);
  });
});

describe('StageQrSheet', () => {
  // Completion makes one stage per sheet of the larger arch.
  const completed = makeCase({ ...jane, status: 'Completed', upperSheets: 3, lowerSheets: 2 });

  it("shows a QR per stage labelled 'Stage N / total', the case id and patient, and Print", async () => {
    cache.setCases([completed]);
    const print = vi.fn();
    vi.stubGlobal('print', print);
    render(<StageQrSheet case={completed} onClose={vi.fn()} />);
    const dialog = screen.getByRole('dialog', { name: 'Aligner Stage QR Codes' });
    expect(within(dialog).getByText('Generating QR Code...')).toBeTruthy();
    expect(await within(dialog).findByText('Stage 1 / 3')).toBeTruthy();
    expect(within(dialog).getByText('Stage 2 / 3')).toBeTruthy();
    expect(within(dialog).getByText('Stage 3 / 3')).toBeTruthy();
    expect(within(dialog).getAllByRole('img')).toHaveLength(3);
    expect(within(dialog).getByText('Jane Roe')).toBeTruthy();
    expect(within(dialog).getAllByText('CA-2025-123').length).toBeGreaterThan(0);
    for (const stage of [1, 2, 3]) {
      expect(toDataURL).toHaveBeenCalledWith(
        stagePayload('CA-2025-123', stage),
        expect.objectContaining({ version: 4, errorCorrectionLevel: 'M' }),
      );
    }
    fireEvent.click(within(dialog).getByRole('button', { name: 'Print' }));
    expect(print).toHaveBeenCalled();
    expect(document.body.querySelectorAll(':scope > .print-sheet img')).toHaveLength(3);
  });

  it('says so when the case has no stages', () => {
    cache.setCases([]);
    // Completed without sheet counts: no stages were made.
    const unstaged = makeCase({ ...jane, status: 'Completed', upperSheets: null, lowerSheets: null });
    render(<StageQrSheet case={unstaged} onClose={vi.fn()} />);
    expect(screen.getByText('This case has no aligner stages yet.')).toBeTruthy();
  });
});
