import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { stagePayload } from '@alignerflow/domain';
import { cache } from '../../api/cache';
import { Toaster } from '../../components/Toaster';
import { fakeServer } from '../../test/fakeServer';
import { after, doctor, E, makeCase } from '../../test/fixtures';
import { ScanDialog } from './ScanDialog';

/** The lazily loaded html5-qrcode camera class is the boundary: a stand-in the test drives. */
const camera = vi.hoisted(() => ({
  startError: null as unknown,
  decode: null as ((text: string) => void) | null,
  started: 0,
  stopped: 0,
  cleared: 0,
  elementIds: [] as string[],
  constraints: [] as unknown[],
}));

vi.mock('html5-qrcode', () => ({
  Html5QrcodeSupportedFormats: { QR_CODE: 0 },
  Html5Qrcode: class {
    constructor(elementId: string) {
      camera.elementIds.push(elementId);
    }
    async start(constraints: unknown, _config: unknown, onSuccess: (text: string) => void) {
      camera.constraints.push(constraints);
      if (camera.startError) throw camera.startError;
      camera.started += 1;
      camera.decode = onSuccess;
    }
    async stop() {
      camera.stopped += 1;
    }
    clear() {
      camera.cleared += 1;
    }
  },
}));

/** Jane's completed case, its aligner stages not started yet. */
const item = makeCase({ id: 'CA-2025-123', patientName: 'Jane Roe', status: 'Completed' });

function withCamera() {
  vi.stubGlobal('navigator', { ...navigator, mediaDevices: { getUserMedia: vi.fn() } });
}

function setup(routes: Parameters<typeof fakeServer>[0] = {}) {
  vi.spyOn(console, 'warn').mockImplementation(() => undefined);
  vi.spyOn(console, 'error').mockImplementation(() => undefined);
  const server = fakeServer(routes);
  cache.begin(doctor);
  cache.setCases([item]);
  const handlers = { onClose: vi.fn(), onOpenCase: vi.fn() };
  const view = render(
    <>
      <ScanDialog {...handlers} />
      <Toaster />
    </>,
  );
  return { server, handlers, view };
}

async function scanned(text: string) {
  await waitFor(() => expect(camera.decode).toBeTruthy());
  await act(async () => camera.decode!(text));
}

function toastWith(title: string) {
  const status = screen.getAllByRole('status').find((region) => region.classList.contains('toaster'))!;
  const toast = within(status).getByText(title).closest('.toast') as HTMLElement;
  return toast;
}

beforeEach(() => {
  Object.assign(camera, { startError: null, decode: null, started: 0, stopped: 0, cleared: 0 });
  camera.elementIds = [];
  camera.constraints = [];
  // Toasts live in a module store: start each test without the last one's.
  const { unmount } = render(<Toaster />);
  screen.queryAllByRole('button', { name: 'Dismiss' }).forEach((button) => fireEvent.click(button));
  unmount();
});

afterEach(() => {
  vi.useRealTimers();
});

describe('ScanDialog: camera', () => {
  it('shows the title and hint, starts the rear camera and stops it on close', async () => {
    withCamera();
    const { view } = setup();
    const dialog = screen.getByRole('dialog', { name: 'Scan Case QR Code' });
    expect(within(dialog).getByText('Point your camera at the QR code on the case file.')).toBeTruthy();
    await waitFor(() => expect(camera.started).toBe(1));
    expect(camera.constraints[0]).toEqual({ facingMode: 'environment' });
    expect(document.getElementById(camera.elementIds[0])).toBeTruthy();
    view.unmount();
    await waitFor(() => expect(camera.stopped).toBe(1));
    expect(camera.cleared).toBe(1);
  });

  it('says when the browser has no camera access at all', () => {
    vi.stubGlobal('navigator', { ...navigator, mediaDevices: undefined });
    setup();
    expect(screen.getByRole('alert').textContent).toBe('Camera access is not supported by this browser.');
  });

  it.each([
    [
      'denied (html5-qrcode message)',
      'Error getting userMedia, error = NotAllowedError: Permission denied',
      'Camera access was denied. Please enable camera permissions in your browser settings and refresh the page.',
    ],
    [
      'denied (DOMException)',
      new DOMException('Permission denied', 'NotAllowedError'),
      'Camera access was denied. Please enable camera permissions in your browser settings and refresh the page.',
    ],
    [
      'no camera',
      new DOMException('Requested device not found', 'NotFoundError'),
      'No camera found on this device. Please make sure a camera is connected.',
    ],
    [
      'in use',
      'Error getting userMedia, error = NotReadableError: Could not start video source',
      'The camera is currently in use by another application or a hardware error occurred.',
    ],
    [
      'streaming not supported',
      'Camera streaming not supported by the browser.',
      'Camera access is not supported by this browser.',
    ],
    [
      'anything else',
      new Error('boom'),
      'Could not access the camera. Please check permissions and try again.',
    ],
  ])('camera error: %s', async (_label, error, text) => {
    withCamera();
    camera.startError = error;
    setup();
    expect((await screen.findByRole('alert')).textContent).toBe(text);
    // Typing the code stays possible.
    expect(screen.getByLabelText('QR code text or case ID')).toBeTruthy();
  });
});

describe('ScanDialog: what a scan does', () => {
  it("a case QR finds the case: 'Case Found', the dialog closes and the case opens", async () => {
    withCamera();
    const { server, handlers } = setup({ 'POST /scan': { body: { kind: 'case', case: item } } });
    await scanned('CA-2025-123');
    await waitFor(() => expect(handlers.onOpenCase).toHaveBeenCalledWith('CA-2025-123'));
    expect(server.calls('POST', '/scan')[0].body).toEqual({ payload: 'CA-2025-123' });
    expect(handlers.onClose).toHaveBeenCalled();
    expect(toastWith('Case Found').textContent).toContain('CA-2025-123');
  });

  it("a stage QR: 'Stage scan detected — starting…', 'Stage Started', closes after 0.8 s", async () => {
    withCamera();
    // The scan of stage 3 starts it and completes stage 2.
    const started = after(item, [E.scanned(3, 'In Progress'), doctor], [E.scanned(2, 'Completed'), doctor]);
    let answer!: (value: { body: unknown }) => void;
    const { server, handlers } = setup({
      'POST /scan': () => new Promise((resolve) => (answer = resolve)),
    });
    await scanned(stagePayload('CA-2025-123', 3));
    expect(screen.getByText('Stage scan detected — starting…')).toBeTruthy();
    // The camera keeps reading the same code: one request only.
    await act(async () => camera.decode!(stagePayload('CA-2025-123', 3)));
    expect(server.calls('POST', '/scan')).toHaveLength(1);

    vi.useFakeTimers();
    await act(async () => answer({ body: { kind: 'stage', case: started, started: 3, completed: 2 } }));
    const toast = toastWith('Stage Started');
    expect(toast.textContent).toContain('Stage 3 is start now. Stage 2 completed.');
    expect(cache.get().cases[0].version).toBe(started.version);
    act(() => vi.advanceTimersByTime(799));
    expect(handlers.onClose).not.toHaveBeenCalled();
    act(() => vi.advanceTimersByTime(1));
    expect(handlers.onClose).toHaveBeenCalled();
    expect(handlers.onOpenCase).toHaveBeenCalledWith('CA-2025-123');
  });

  it("stage 1 has no 'completed' part", async () => {
    withCamera();
    const started = after(item, [E.scanned(1, 'In Progress'), doctor]);
    setup({ 'POST /scan': { body: { kind: 'stage', case: started, started: 1, completed: null } } });
    await scanned(stagePayload('CA-2025-123', 1));
    await waitFor(() => expect(toastWith('Stage Started').textContent).toContain('Stage 1 is start now.'));
    expect(toastWith('Stage Started').textContent).not.toContain('completed');
  });

  it("409: 'Scan Invalid' with 'Stage N is already started or completed.'; the dialog stays", async () => {
    withCamera();
    const { handlers } = setup({
      'POST /scan': { status: 409, body: { error: 'Stage 3 is already started or completed.' } },
    });
    await scanned(stagePayload('CA-2025-123', 3));
    await waitFor(() =>
      expect(toastWith('Scan Invalid').textContent).toContain('Stage 3 is already started or completed.'),
    );
    expect(handlers.onClose).not.toHaveBeenCalled();
    expect(screen.queryByText('Stage scan detected — starting…')).toBeNull();
  });

  it("404: 'Invalid QR Code'", async () => {
    withCamera();
    const { handlers } = setup({ 'POST /scan': { status: 404, body: { error: 'Invalid QR Code' } } });
    await scanned('CA-1999-000');
    await waitFor(() => expect(toastWith('Invalid QR Code')).toBeTruthy());
    expect(handlers.onOpenCase).not.toHaveBeenCalled();
  });

  it('the code can be typed instead', async () => {
    vi.stubGlobal('navigator', { ...navigator, mediaDevices: undefined });
    const { server, handlers } = setup({ 'POST /scan': { body: { kind: 'case', case: item } } });
    fireEvent.change(screen.getByLabelText('QR code text or case ID'), {
      target: { value: ' CA-2025-123 ' },
    });
    fireEvent.click(screen.getByRole('button', { name: 'Look up' }));
    await waitFor(() => expect(handlers.onOpenCase).toHaveBeenCalledWith('CA-2025-123'));
    expect(server.calls('POST', '/scan')[0].body).toEqual({ payload: 'CA-2025-123' });
  });
});
