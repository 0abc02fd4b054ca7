import { useCache } from '../../api/cache';
import { Icon } from '../../components/Icon';
import { LIVE_TEXTS } from './texts';

export function formatSyncTime(iso: string): string {
  return new Date(iso).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });
}

/** Shown while the server cannot be reached: the data on screen is the last synced copy. */
export function OfflineBanner() {
  const offline = useCache((state) => state.offline);
  const syncedAt = useCache((state) => state.syncedAt);
  if (!offline) return null;
  return (
    <div className="banner banner--warning" role="status">
      <Icon name="alert" />
      <span>{syncedAt ? LIVE_TEXTS.offline(formatSyncTime(syncedAt)) : LIVE_TEXTS.offlineNever}</span>
    </div>
  );
}
