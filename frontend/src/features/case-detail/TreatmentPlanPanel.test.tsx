import { describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, within } from '@testing-library/react';
import { after, designer, doctor, E } from '../../test/fixtures';
import { cached, caseAt, renderDetail } from '../../test/caseDetail';

const panel = () => screen.getByRole('region', { name: 'Treatment Plan Approval' });

describe('Treatment Plan Approval panel', () => {
  it("shows 'No Video Provided', a disabled simulation button without a link, and the summary", () => {
    renderDetail(doctor, caseAt('Doctor Approval', { price: 1400, upperSheets: 20, lowerSheets: null }));
    expect(within(panel()).getByText('No Video Provided')).toBeTruthy();
    const view = within(panel()).getByRole('button', {
      name: 'View Interactive 3D Simulation',
    }) as HTMLButtonElement;
    expect(view.disabled).toBe(true);
    const value = (label: string) => within(panel()).getByText(label).nextElementSibling?.textContent;
    expect(value('Case ID')).toBe('CA-2025-123');
    expect(value('Patient')).toBe('Emma Thompson');
    expect(value('Upper Sheets')).toBe('20');
    expect(value('Lower Sheets')).toBe('N/A');
    expect(value('Final Price')).toBe('$1400.00');
  });

  it('plays the video and opens the external link in the sandboxed viewer', () => {
    renderDetail(
      doctor,
      caseAt(
        'Digital Planning',
        {},
        [E.links('https://example.com/sim.mp4', 'https://viewer.example.com/case'), designer],
        [E.advanced('Digital Planning', 'Doctor Approval'), designer],
      ),
    );
    const video = panel().querySelector('video') as HTMLVideoElement;
    expect(video.getAttribute('src')).toBe('https://example.com/sim.mp4');
    fireEvent.click(within(panel()).getByRole('button', { name: 'View Interactive 3D Simulation' }));
    const dialog = screen.getByRole('dialog', { name: 'External Simulation Viewer' });
    const frame = dialog.querySelector('iframe') as HTMLIFrameElement;
    expect(frame.getAttribute('src')).toBe('https://viewer.example.com/case');
    expect(frame.getAttribute('sandbox')).toBe('allow-scripts allow-same-origin');
    expect(frame.getAttribute('referrerpolicy')).toBe('no-referrer');
  });

  it('a video that cannot load gives way to a link that opens it in a new tab', () => {
    renderDetail(
      doctor,
      caseAt(
        'Digital Planning',
        {},
        [E.links('https://example.com/sim.mp4'), designer],
        [E.advanced('Digital Planning', 'Doctor Approval'), designer],
      ),
    );
    fireEvent.error(panel().querySelector('video')!);
    expect(within(panel()).getByText('The simulation video could not be loaded here.')).toBeTruthy();
    const link = within(panel()).getByRole('link', { name: 'Open in new tab' });
    expect(link.getAttribute('href')).toBe('https://example.com/sim.mp4');
    expect(link.getAttribute('rel')).toContain('noopener');
  });

  it('approves for manufacturing', async () => {
    const item = caseAt('Doctor Approval');
    const { server } = renderDetail(doctor, item, {
      routes: {
        'POST /cases/CA-2025-123/doctor-approve': {
          body: after(item, [E.planApproved(), doctor]),
        },
      },
    });
    fireEvent.click(within(panel()).getByRole('button', { name: 'Approve & Continue to Manufacturing' }));
    await vi.waitFor(() => expect(cached()?.status).toBe('Model Printing'));
    expect(server.calls('POST', '/cases/CA-2025-123/doctor-approve')[0].body).toEqual({
      expectedVersion: item.version,
    });
  });

  it('Request Changes requires a comment', async () => {
    const item = caseAt('Doctor Approval');
    const { server } = renderDetail(doctor, item, {
      routes: {
        'POST /cases/CA-2025-123/request-changes': {
          body: after(item, [E.changesRequested('Less movement on 11.'), doctor]),
        },
      },
    });
    fireEvent.click(within(panel()).getByRole('button', { name: 'Request Changes' }));
    const dialog = screen.getByRole('dialog', { name: 'Request Changes: CA-2025-123' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Request Changes' }));
    expect(within(dialog).getByRole('alert').textContent).toBe('A comment is required to request changes.');
    expect(server.requests).toHaveLength(0);
    fireEvent.change(within(dialog).getByLabelText('What should be changed?'), {
      target: { value: 'Less movement on 11.' },
    });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Request Changes' }));
    await vi.waitFor(() => expect(cached()?.status).toBe('Digital Planning'));
    expect(server.calls('POST', '/cases/CA-2025-123/request-changes')[0].body).toEqual({
      comment: 'Less movement on 11.',
      expectedVersion: item.version,
    });
  });

  it('a failed request keeps the dialog open with the server text', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    renderDetail(doctor, caseAt('Doctor Approval'), {
      routes: {
        'POST /cases/CA-2025-123/request-changes': {
          status: 403,
          body: { error: 'Only the assigned doctor can review this treatment plan.' },
        },
      },
    });
    fireEvent.click(within(panel()).getByRole('button', { name: 'Request Changes' }));
    const dialog = screen.getByRole('dialog', { name: 'Request Changes: CA-2025-123' });
    fireEvent.change(within(dialog).getByLabelText('What should be changed?'), { target: { value: 'x' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Request Changes' }));
    expect((await within(dialog).findByRole('alert')).textContent).toBe(
      'Only the assigned doctor can review this treatment plan.',
    );
  });
});
