import { useSyncExternalStore } from 'react';

/** The width below which the case list shows as cards instead of a table (as in styles.css). */
const NARROW = '(max-width: 767.98px)';

const query = () => (typeof window.matchMedia === 'function' ? window.matchMedia(NARROW) : null);

function subscribe(onChange: () => void): () => void {
  const list = query();
  list?.addEventListener('change', onChange);
  return () => list?.removeEventListener('change', onChange);
}

/** Whether the case list shows as cards: only one of table and cards is built, not both. */
export function useNarrowScreen(): boolean {
  return useSyncExternalStore(subscribe, () => query()?.matches ?? false);
}
