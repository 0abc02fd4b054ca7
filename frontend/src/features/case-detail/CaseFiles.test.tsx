import { describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, within } from '@testing-library/react';
import type { CaseFile } from '@alignerflow/domain';
import { doctor, E, technician } from '../../test/fixtures';
import { caseAt, renderDetail } from '../../test/caseDetail';

vi.mock('./StlViewer', () => ({
  default: ({ url, name }: { url: string; name: string }) => (
    <p data-testid="stl-viewer">
      {name} {url}
    </p>
  ),
}));

const files: CaseFile[] = [
  { name: 'upper.stl', type: 'STL', url: '/api/files/u1/upper.stl', size: '12.40 MB' },
  { name: 'smile.jpg', type: 'Photo', url: '/api/files/p1/smile.jpg', size: '2.10 MB' },
  { name: 'plan.pdf', type: 'Document', url: '/api/files/d1/plan.pdf', size: '0.30 MB' },
  { name: 'placeholder.jpg', type: 'Photo', url: '#', size: '0.00 MB' },
];
/** The simulation links are listed among the files ('Simulation Video', 'External Simulation'). */
const linked = E.edited({
  simulationVideoUrl: 'https://example.com/sim.mp4',
  simulationExternalLink: 'https://viewer.example.com/c',
});
const withFiles = (status: 'Thermoforming' | 'Model Printing') => caseAt(status, { files }, linked);

const grid = () => screen.getByRole('region', { name: 'Case Files' });
const card = (name: string) => within(grid()).getByText(name).closest('li') as HTMLElement;

describe('Case Files', () => {
  it('lists each file with its name and size and what it offers', () => {
    renderDetail(technician, withFiles('Thermoforming'));
    expect(within(card('upper.stl')).getByText('STL · 12.40 MB')).toBeTruthy();
    const download = within(card('upper.stl')).getByRole('link', { name: 'Download upper.stl' });
    expect(download.getAttribute('href')).toBe('/api/files/u1/upper.stl');
    expect(download.hasAttribute('download')).toBe(true);
    expect(within(card('smile.jpg')).getByRole('link', { name: 'Download smile.jpg' })).toBeTruthy();
    expect(within(card('plan.pdf')).getByRole('link', { name: 'Download plan.pdf' })).toBeTruthy();
    const video = within(card('Simulation Video')).getByRole('link', { name: /Open Simulation Video/ });
    expect(video.getAttribute('target')).toBe('_blank');
    expect(video.getAttribute('rel')).toContain('noopener');
    expect(within(card('Simulation Video')).queryByRole('link', { name: /Download/ })).toBeNull();
    expect(within(card('placeholder.jpg')).queryByRole('button')).toBeNull();
  });

  it("opens a photo in the 'Case Photo' viewer", () => {
    renderDetail(technician, withFiles('Thermoforming'));
    fireEvent.click(within(card('smile.jpg')).getByRole('button', { name: 'View smile.jpg' }));
    const dialog = screen.getByRole('dialog', { name: 'Case Photo' });
    expect(within(dialog).getByRole('img', { name: 'smile.jpg' }).getAttribute('src')).toBe(
      '/api/files/p1/smile.jpg',
    );
  });

  it('opens an external link in the sandboxed External Simulation Viewer', () => {
    renderDetail(technician, withFiles('Thermoforming'));
    fireEvent.click(
      within(card('External Simulation')).getByRole('button', { name: 'Open External Simulation' }),
    );
    const frame = screen.getByRole('dialog', { name: 'External Simulation Viewer' }).querySelector('iframe')!;
    expect(frame.getAttribute('src')).toBe('https://viewer.example.com/c');
    expect(frame.getAttribute('sandbox')).toBe('allow-scripts allow-same-origin');
    expect(frame.getAttribute('referrerpolicy')).toBe('no-referrer');
  });

  it('opens an STL file in the lazily loaded 3D viewer', async () => {
    renderDetail(technician, withFiles('Thermoforming'));
    fireEvent.click(within(card('upper.stl')).getByRole('button', { name: 'View upper.stl in 3D' }));
    const dialog = screen.getByRole('dialog', { name: '3D Review: upper.stl' });
    expect((await within(dialog).findByTestId('stl-viewer')).textContent).toBe(
      'upper.stl /api/files/u1/upper.stl',
    );
  });

  it('AI analysis: progress text, then the result under AI Quality Analysis', async () => {
    let answer: (value: { body: unknown }) => void = () => undefined;
    const { server } = renderDetail(technician, withFiles('Thermoforming'), {
      routes: { 'POST /ai/analyze-photo': () => new Promise((resolve) => (answer = resolve)) },
    });
    fireEvent.click(within(card('smile.jpg')).getByRole('button', { name: 'Analyze smile.jpg with AI' }));
    expect(await within(card('smile.jpg')).findByText('Analyzing image with Gemini AI...')).toBeTruthy();
    expect(server.calls('POST', '/ai/analyze-photo')[0].body).toEqual({
      caseId: 'CA-2025-123',
      fileUrl: '/api/files/p1/smile.jpg',
    });
    answer({ body: { text: 'No defects found. The edges are smooth.' } });
    expect(await within(card('smile.jpg')).findByText('AI Quality Analysis')).toBeTruthy();
    expect(within(card('smile.jpg')).getByText('No defects found. The edges are smooth.')).toBeTruthy();
    expect(within(card('smile.jpg')).queryByText('Analyzing image with Gemini AI...')).toBeNull();
  });

  it("AI analysis failure: 'Failed to analyze image.' and the reason", async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    renderDetail(technician, withFiles('Thermoforming'), {
      routes: {
        'POST /ai/analyze-photo': {
          status: 502,
          body: { error: 'Failed to analyze image due to an API error.' },
        },
      },
    });
    fireEvent.click(within(card('smile.jpg')).getByRole('button', { name: 'Analyze smile.jpg with AI' }));
    const alert = await within(card('smile.jpg')).findByRole('alert');
    expect(within(alert).getByText('Failed to analyze image.')).toBeTruthy();
    expect(within(alert).getByText('Failed to analyze image due to an API error.')).toBeTruthy();
  });

  it('doctors get no AI analysis', () => {
    renderDetail(doctor, withFiles('Model Printing'));
    expect(within(grid()).queryByRole('button', { name: /Analyze/ })).toBeNull();
    expect(within(card('smile.jpg')).getByRole('button', { name: 'View smile.jpg' })).toBeTruthy();
  });

  it('says when there are no files', () => {
    renderDetail(technician, caseAt('Thermoforming'));
    expect(within(grid()).getByText('No files attached to this case.')).toBeTruthy();
  });
});
