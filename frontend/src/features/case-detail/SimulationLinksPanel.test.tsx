import { describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, within } from '@testing-library/react';
import { after, designer, E } from '../../test/fixtures';
import { cached, caseAt, renderDetail } from '../../test/caseDetail';

const panel = () => screen.getByRole('region', { name: 'Prepare for Doctor Approval' });

describe('Prepare for Doctor Approval', () => {
  it('saves trimmed links with the version seen', async () => {
    const item = caseAt('Digital Planning');
    const saved = after(item, [
      E.links('https://example.com/v.mp4', 'https://viewer.example.com/x'),
      designer,
    ]);
    const { server } = renderDetail(designer, item, {
      routes: { 'PUT /cases/CA-2025-123/simulation': { body: saved } },
    });
    fireEvent.change(within(panel()).getByLabelText('Simulation Video URL'), {
      target: { value: ' https://example.com/v.mp4 ' },
    });
    fireEvent.change(within(panel()).getByLabelText('External Simulation Link'), {
      target: { value: 'https://viewer.example.com/x' },
    });
    fireEvent.click(within(panel()).getByRole('button', { name: 'Save Links' }));
    await vi.waitFor(() => expect(cached()?.version).toBe(saved.version));
    expect(server.calls('PUT', '/cases/CA-2025-123/simulation')[0].body).toEqual({
      simulationVideoUrl: 'https://example.com/v.mp4',
      simulationExternalLink: 'https://viewer.example.com/x',
      expectedVersion: item.version,
    });
  });

  it('refuses a link that is not http(s), with the domain text', () => {
    const { server } = renderDetail(designer, caseAt('Digital Planning'));
    fireEvent.change(within(panel()).getByLabelText('External Simulation Link'), {
      target: { value: 'javascript:alert(1)' },
    });
    fireEvent.click(within(panel()).getByRole('button', { name: 'Save Links' }));
    expect(within(panel()).getByRole('alert').textContent).toBe(
      'External Simulation Link must be an http(s) URL.',
    );
    expect(server.requests).toHaveLength(0);
  });
});
