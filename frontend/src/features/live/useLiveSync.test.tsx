import { describe, expect, it, vi } from 'vitest';
import { act, render } from '@testing-library/react';
import { cache } from '../../api/cache';
import { fakeServer } from '../../test/fakeServer';
import { after, dashboardFigures, E, makeCase, manager, sampleCases } from '../../test/fixtures';
import { useLiveSync } from './useLiveSync';

function Probe({ onEnded = () => undefined }: { onEnded?: () => void }) {
  useLiveSync(manager, onEnded);
  return null;
}

class FakeEventSource {
  static CLOSED = 2;
  static instances: FakeEventSource[] = [];
  readyState = 0;
  onopen: (() => void) | null = null;
  onerror: (() => void) | null = null;
  listeners = new Map<string, (event: MessageEvent) => void>();
  constructor(readonly url: string) {
    FakeEventSource.instances.push(this);
  }
  addEventListener(type: string, listener: (event: MessageEvent) => void) {
    this.listeners.set(type, listener);
  }
  emit(type: string, data: unknown) {
    this.listeners.get(type)?.(new MessageEvent(type, { data: JSON.stringify(data) }));
  }
  close() {
    this.readyState = FakeEventSource.CLOSED;
  }
}

describe('useLiveSync', () => {
  it('polls cases and users every 1000 ms with ETags while there is no stream', async () => {
    vi.useFakeTimers();
    const server = fakeServer({
      'GET /cases': (request) =>
        request.headers['If-None-Match'] === '"c1"'
          ? { status: 304 }
          : { body: sampleCases, headers: { ETag: '"c1"' } },
      'GET /users': { body: [manager] },
      'GET /dashboard': { body: dashboardFigures },
    });
    cache.begin(manager);
    render(<Probe />);
    await act(() => vi.advanceTimersByTimeAsync(999));
    expect(server.calls('GET', '/cases')).toHaveLength(0);
    await act(() => vi.advanceTimersByTimeAsync(1));
    expect(server.calls('GET', '/cases')).toHaveLength(1);
    expect(cache.get().cases).toHaveLength(4);
    await act(() => vi.advanceTimersByTimeAsync(1000));
    const second = server.calls('GET', '/cases')[1];
    expect(second.headers['If-None-Match']).toBe('"c1"');
    expect(server.calls('GET', '/users')).toHaveLength(2);
  });

  it('marks the cache offline when the server cannot be reached, and back online when it answers', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    vi.useFakeTimers();
    let reachable = false;
    fakeServer({
      'GET /cases': () => (reachable ? { body: [] } : 'network'),
      'GET /users': () => (reachable ? { body: [] } : 'network'),
      'GET /dashboard': { body: dashboardFigures },
    });
    cache.begin(manager);
    render(<Probe />);
    await act(() => vi.advanceTimersByTimeAsync(1000));
    expect(cache.get().offline).toBe(true);
    reachable = true;
    await act(() => vi.advanceTimersByTimeAsync(1000));
    expect(cache.get().offline).toBe(false);
  });

  it('patches the cache from stream messages and stops polling while the stream is open', async () => {
    vi.useFakeTimers();
    vi.stubGlobal('EventSource', FakeEventSource);
    const server = fakeServer({
      'GET /cases': { body: sampleCases },
      'GET /users': { body: [manager] },
      'GET /dashboard': { body: dashboardFigures },
    });
    cache.begin(manager);
    cache.setCases(sampleCases);
    render(<Probe />);
    const source = FakeEventSource.instances.at(-1)!;
    expect(source.url).toBe('/api/events');
    act(() => source.onopen?.());
    expect(cache.get().streamConnected).toBe(true);
    await act(() => vi.advanceTimersByTimeAsync(10));
    const before = server.calls('GET', '/cases').length;

    act(() => source.emit('case_created', makeCase({ id: 'CA-2025-500', patientName: 'Live Case' })));
    expect(cache.get().cases.map((item) => item.id)).toContain('CA-2025-500');
    act(() => source.emit('case_updated', after(sampleCases[0], E.edited({ patientName: 'Renamed' }))));
    expect(cache.get().cases.find((item) => item.id === 'CA-2024-001')?.patientName).toBe('Renamed');
    act(() => source.emit('case_deleted', { id: 'CA-2024-002' }));
    expect(cache.get().cases.map((item) => item.id)).not.toContain('CA-2024-002');
    act(() => source.emit('users_refresh', [manager]));
    expect(cache.get().users).toEqual([manager]);

    await act(() => vi.advanceTimersByTimeAsync(3000));
    expect(server.calls('GET', '/cases').length).toBe(before);

    act(() => source.onerror?.());
    expect(cache.get().streamConnected).toBe(false);
    await act(() => vi.advanceTimersByTimeAsync(1000));
    expect(server.calls('GET', '/cases').length).toBe(before + 1);
  });

  it('ends the session when a poll answers 401', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    vi.useFakeTimers();
    fakeServer({
      'GET /cases': { status: 401, body: { error: 'Not signed in.' } },
      'GET /users': { body: [] },
    });
    cache.begin(manager);
    const onEnded = vi.fn();
    render(<Probe onEnded={onEnded} />);
    await act(() => vi.advanceTimersByTimeAsync(1000));
    expect(onEnded).toHaveBeenCalled();
  });
});
