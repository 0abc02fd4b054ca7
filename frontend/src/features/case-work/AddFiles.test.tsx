import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, fireEvent, screen } from '@testing-library/react';
import type { CaseFile } from '@alignerflow/domain';
import { after, doctor, E, manager, technician } from '../../test/fixtures';
import { caseAt, cached, renderDetail } from '../../test/caseDetail';
import { FakeXhr } from '../../test/fakeXhr';

const stored = {
  url: '/api/files/00000000-0000-0000-0000-000000000009/plan.pdf',
  name: 'plan.pdf',
  size: '0.01 MB',
  type: 'Document',
};

beforeEach(() => {
  FakeXhr.reset();
  vi.stubGlobal('XMLHttpRequest', FakeXhr);
});
afterEach(() => vi.unstubAllGlobals());

const choose = (...files: File[]) =>
  fireEvent.change(screen.getByLabelText('Files to add to the case'), { target: { files } });

describe('Add files', () => {
  it('uploads each file with its own progress bar, then adds it to the case', async () => {
    const item = caseAt('Digital Planning');
    const { server } = renderDetail(technician, item, {
      routes: {
        'POST /cases/CA-2025-123/files': (request) => ({
          body: after(item, [E.filesAdded(...(request.body as { files: CaseFile[] }).files), technician]),
        }),
      },
    });
    choose(new File(['%PDF-1.4'], 'plan.pdf', { type: 'application/pdf' }));
    const xhr = FakeXhr.last();
    expect(xhr.url).toBe('/api/upload');
    expect(xhr.body?.get('type')).toBe('Document');
    expect(xhr.body?.get('caseId')).toBeNull();
    act(() => xhr.progress(30, 100));
    expect((screen.getByLabelText('plan.pdf upload progress') as HTMLProgressElement).value).toBe(30);
    expect(screen.getByText('Uploading… 30%')).toBeTruthy();
    await act(async () => xhr.respond(201, stored));
    expect(server.calls('POST', '/cases/CA-2025-123/files')[0].body).toEqual({ files: [stored] });
    expect(screen.queryByLabelText('plan.pdf upload progress')).toBeNull();
    expect(cached().files).toEqual([stored]);
    expect(screen.getByText('plan.pdf')).toBeTruthy();
  });

  it('Cancel aborts the upload and nothing is added', async () => {
    const { server } = renderDetail(doctor, caseAt('Digital Planning'));
    choose(new File(['solid x facet'], 'upper.stl'));
    const xhr = FakeXhr.last();
    expect(xhr.body?.get('type')).toBe('STL');
    await act(async () =>
      fireEvent.click(screen.getByRole('button', { name: 'Cancel the upload of upper.stl' })),
    );
    expect(xhr.aborted).toBe(true);
    expect(screen.queryByLabelText('upper.stl upload progress')).toBeNull();
    expect(server.calls('POST', '/cases/CA-2025-123/files')).toHaveLength(0);
  });

  it("shows the server's text beside a failed file; an unsupported file is refused before upload", async () => {
    renderDetail(manager, caseAt('Completed'));
    choose(new File(['x'], 'notes.txt', { type: 'text/plain' }), new File(['x'], 'fake.pdf'));
    expect(FakeXhr.instances).toHaveLength(1);
    expect(screen.getByText('Only STL files, photos and PDF documents can be added.')).toBeTruthy();
    await act(async () => FakeXhr.last().respond(400, { error: 'Documents must be PDF files.' }));
    expect(screen.getByText('Documents must be PDF files.')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Dismiss fake.pdf' }));
    expect(screen.queryByText('Documents must be PDF files.')).toBeNull();
  });
});

describe('Remove a file', () => {
  const file = { name: 'wrong.pdf', type: 'Document' as const, url: stored.url, size: '0.01 MB' };

  it('a Manager removes a file after giving a reason', async () => {
    const item = caseAt('Model Printing', { files: [file] });
    const removed = after(item, E.fileRemoved(file.url, 'Wrong patient'));
    const { server } = renderDetail(manager, item, {
      routes: { 'POST /cases/CA-2025-123/files/remove': { body: removed } },
    });
    fireEvent.click(screen.getByRole('button', { name: 'Remove wrong.pdf' }));
    fireEvent.click(screen.getAllByRole('button', { name: 'Remove' }).at(-1)!);
    expect(screen.getByText('A reason is required to remove a file.')).toBeTruthy();
    fireEvent.change(screen.getByLabelText('Reason for removing the file'), {
      target: { value: 'Wrong patient' },
    });
    await act(async () => fireEvent.click(screen.getAllByRole('button', { name: 'Remove' }).at(-1)!));
    expect(server.calls('POST', '/cases/CA-2025-123/files/remove')[0].body).toEqual({
      url: stored.url,
      reason: 'Wrong patient',
      expectedVersion: item.version,
    });
    expect(cached().files).toEqual([]);
  });

  it('other roles see no Remove', () => {
    renderDetail(technician, caseAt('Model Printing', { files: [file] }));
    expect(screen.queryByRole('button', { name: 'Remove wrong.pdf' })).toBeNull();
    expect(screen.getByLabelText('Files to add to the case')).toBeTruthy();
  });
});
