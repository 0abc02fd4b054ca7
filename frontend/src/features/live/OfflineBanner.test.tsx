import { describe, expect, it } from 'vitest';
import { act, render, screen } from '@testing-library/react';
import { cache } from '../../api/cache';
import { manager } from '../../test/fixtures';
import { OfflineBanner, formatSyncTime } from './OfflineBanner';

describe('OfflineBanner', () => {
  it('appears only while offline, with the time of the last sync', () => {
    cache.begin(manager);
    render(<OfflineBanner />);
    expect(screen.queryByRole('status')).toBeNull();
    const at = new Date('2025-04-02T08:15:00Z');
    act(() => {
      cache.markSynced(at);
      cache.setOffline(true);
    });
    expect(screen.getByRole('status').textContent).toBe(
      `Offline — showing data from ${formatSyncTime(at.toISOString())}`,
    );
    act(() => cache.markSynced());
    expect(screen.queryByRole('status')).toBeNull();
  });
});
