import { beforeEach, describe, expect, it, vi } from 'vitest';
import { toCaseSummary } from '@alignerflow/domain';
import { after, dashboardFigures, E, makeCase, manager, sampleCases, technician } from '../test/fixtures';
import { cache, KEEP_QUIET_MS } from './cache';
import { LEGACY_OFFLINE_COPY_KEY, readOfflineCopy, writeOfflineCopy, type OfflineCopy } from './offlineCopy';

/** IndexedDB (fake-indexeddb) runs on the fake clock too: each step lets its tasks run. */
async function settled<T>(promise: Promise<T>): Promise<T> {
  await vi.advanceTimersByTimeAsync(10);
  return promise;
}

/** Past the quiet time and the idle wait: the copy is written. */
const afterKeeping = () => vi.advanceTimersByTimeAsync(KEEP_QUIET_MS + 2_100);

const storedCopy = () => settled(readOfflineCopy());

/** The list as GET /cases gives it: summaries. */
const summaries = sampleCases.map(toCaseSummary);

const copyOf = (overrides: Partial<OfflineCopy> = {}): OfflineCopy => ({
  owner: manager,
  cases: summaries,
  details: {},
  users: [manager],
  dashboard: dashboardFigures,
  syncedAt: '2025-03-01T09:30:00.000Z',
  ...overrides,
});

describe('offline copy of the cache', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });

  it('keeps the synced data a moment after it changes, not while the change is rendered', async () => {
    cache.begin(manager, null);
    cache.setCases(sampleCases);
    cache.setUsers([manager]);
    cache.setDashboard(dashboardFigures);
    cache.markSynced(new Date('2025-03-02T08:00:00Z'));
    cache.setSessionEnd('2025-03-02T08:30:00.000Z');
    expect(await storedCopy()).toBeNull();

    await afterKeeping();
    expect(await storedCopy()).toEqual({
      owner: manager,
      cases: summaries,
      details: {},
      users: [manager],
      dashboard: dashboardFigures,
      syncedAt: '2025-03-02T08:00:00.000Z',
      // The session it was saved under: shown offline only until then.
      expiresAt: '2025-03-02T08:30:00.000Z',
    });

    // A live update is kept too.
    cache.upsertCase(after(sampleCases[0], E.edited({ patientName: 'Renamed Patient' })));
    await afterKeeping();
    expect((await storedCopy())?.cases[0].patientName).toBe('Renamed Patient');
  });

  it('keeps a copy larger than localStorage could hold (5 MB)', async () => {
    const notes = 'x'.repeat(3_000);
    const cases = Array.from({ length: 2_000 }, (_, n) =>
      makeCase({ id: `CA-2020-${10_000 + n}`, treatmentPlanNotes: notes }),
    );
    expect(JSON.stringify(cases).length).toBeGreaterThan(5 * 1024 * 1024);
    cache.begin(manager, null);
    cache.setCases(cases);
    await afterKeeping();
    const kept = (await storedCopy())!.cases;
    expect(kept.map((item) => item.id)).toEqual(cases.map((item) => item.id));

    // A shorter list replaces it whole.
    cache.setCases(summaries);
    await afterKeeping();
    expect((await storedCopy())?.cases).toEqual(summaries);
  });

  it('writes what is not kept yet at once when the page is closed', async () => {
    cache.begin(manager, null);
    cache.setCases(summaries);
    window.dispatchEvent(new Event('pagehide'));
    expect((await storedCopy())?.cases).toEqual(summaries);
  });

  it('restores the copy when the same user starts a session', async () => {
    await settled(writeOfflineCopy(copyOf()));
    cache.begin({ ...manager, username: manager.username.toUpperCase() });
    await vi.advanceTimersByTimeAsync(10);
    expect(cache.get()).toMatchObject({
      cases: summaries,
      users: [manager],
      dashboard: dashboardFigures,
      syncedAt: '2025-03-01T09:30:00.000Z',
      offline: false,
    });
  });

  it("never shows another user's copy", async () => {
    await settled(writeOfflineCopy(copyOf()));
    cache.begin(technician);
    await vi.advanceTimersByTimeAsync(10);
    expect(cache.get()).toMatchObject({ owner: technician, cases: [], users: null, syncedAt: null });
  });

  it('lets data from the server win over a copy read after it arrived', async () => {
    await settled(writeOfflineCopy(copyOf()));
    const fresh = [makeCase({ id: 'CA-2025-100' })];
    cache.begin(manager);
    cache.setCases(fresh);
    cache.markSynced(new Date('2025-03-02T08:00:00Z'));
    await vi.advanceTimersByTimeAsync(10);
    // The cases and their time are the server's; what it has not sent yet comes from the copy.
    expect(cache.get()).toMatchObject({
      cases: fresh.map(toCaseSummary),
      syncedAt: '2025-03-02T08:00:00.000Z',
      users: [manager],
    });
  });

  it('keeps the whole cases opened, notes included, and a live summary does not drop them', async () => {
    // Its creation note and one more.
    const opened = after(sampleCases[0], E.note('Kept offline.'));
    cache.begin(manager, null);
    cache.setCases(summaries);
    cache.upsertCase(opened);
    expect(cache.get().cases[0]).toEqual(toCaseSummary(opened));

    // A newer summary (a change seen on the live stream) updates the list; the notes stay.
    cache.upsertCase(toCaseSummary(after(opened, E.edited({ patientName: 'Renamed' }))));
    expect(cache.get().cases[0]).toMatchObject({ patientName: 'Renamed', noteCount: 2 });
    expect(cache.get().details[opened.id].notes).toEqual(opened.notes);
    expect(opened.notes.map((note) => note.text)).toContain('Kept offline.');

    await afterKeeping();
    expect((await storedCopy())?.details).toEqual({ [opened.id]: opened });
    cache.begin(manager);
    await vi.advanceTimersByTimeAsync(10);
    expect(cache.get().details[opened.id]).toEqual(opened);
  });

  it('shows a copy kept before lists carried summaries as summaries', async () => {
    await settled(writeOfflineCopy(copyOf({ cases: sampleCases, details: undefined })));
    cache.begin(manager);
    await vi.advanceTimersByTimeAsync(10);
    expect(cache.get()).toMatchObject({ cases: summaries, details: {} });
  });

  it('erases the copy at logout, including a write still pending', async () => {
    cache.begin(manager, null);
    cache.setCases(sampleCases);
    await afterKeeping();
    expect(await storedCopy()).not.toBeNull();

    cache.upsertCase(after(sampleCases[0], E.edited({ patientName: 'Pending Write' })));
    cache.clear();
    await afterKeeping();
    expect(await storedCopy()).toBeNull();
    expect(cache.get().cases).toEqual([]);
  });

  it('does not apply a copy that is read after its session ended', async () => {
    await settled(writeOfflineCopy(copyOf()));
    cache.begin(manager);
    cache.clear();
    // Signed in again before the read finished: the erased copy must not come back.
    cache.begin(manager, null);
    await vi.advanceTimersByTimeAsync(10);
    expect(cache.get()).toMatchObject({ owner: manager, cases: [], syncedAt: null });
  });

  it('moves the copy of older versions out of localStorage into IndexedDB', async () => {
    localStorage.setItem(LEGACY_OFFLINE_COPY_KEY, JSON.stringify(copyOf()));
    expect(await storedCopy()).toEqual(copyOf());
    expect(localStorage.getItem(LEGACY_OFFLINE_COPY_KEY)).toBeNull();
    expect(await storedCopy()).toEqual(copyOf());

    // Logout erases a copy of an older version that was never read too.
    localStorage.setItem(LEGACY_OFFLINE_COPY_KEY, JSON.stringify(copyOf()));
    cache.clear();
    expect(localStorage.getItem(LEGACY_OFFLINE_COPY_KEY)).toBeNull();
    expect(await storedCopy()).toBeNull();
  });
});

describe('cache: My Queue', () => {
  const late = makeCase({ id: 'CA-2025-2', status: 'Thermoforming', deliveryDate: '2099-02-01' });
  const soon = makeCase({ id: 'CA-2025-1', status: 'Quality Check', deliveryDate: '2099-01-01' });

  it('keeps the queue by the domain rule: a changed case joins in order, moves, or leaves; a deleted one goes', () => {
    cache.begin(technician);
    cache.setCases([toCaseSummary(late)]);
    cache.setWorkQueue([toCaseSummary(late)]);
    cache.upsertCase(toCaseSummary(soon));
    expect(cache.get().workQueue?.map((item) => item.id)).toEqual(['CA-2025-1', 'CA-2025-2']);
    // Due sooner now: it moves up.
    cache.upsertCase(toCaseSummary(after(late, E.edited({ deliveryDate: '2098-12-01' }))));
    expect(cache.get().workQueue?.map((item) => item.id)).toEqual(['CA-2025-2', 'CA-2025-1']);
    // On to Packaging & Labeling, a Representative's stage: it leaves.
    cache.upsertCase(toCaseSummary(after(soon, E.advanced('Quality Check', 'Packaging & Labeling'))));
    expect(cache.get().workQueue?.map((item) => item.id)).toEqual(['CA-2025-2']);
    cache.removeCase('CA-2025-2');
    expect(cache.get().workQueue).toEqual([]);
  });

  it('leaves an unread queue unread', () => {
    cache.begin(technician);
    cache.upsertCase(toCaseSummary(soon));
    expect(cache.get().workQueue).toBeNull();
  });
});
