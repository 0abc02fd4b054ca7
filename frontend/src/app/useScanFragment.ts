import { useCallback, useEffect, useState } from 'react';

/** The only route state of the app: the URL fragment #scan opens the scanner dialog. */
export const SCAN_FRAGMENT = '#scan';

export function useScanFragment(): { open: boolean; openScanner: () => void; closeScanner: () => void } {
  const [open, setOpen] = useState(() => window.location.hash === SCAN_FRAGMENT);

  useEffect(() => {
    const sync = () => setOpen(window.location.hash === SCAN_FRAGMENT);
    window.addEventListener('hashchange', sync);
    return () => window.removeEventListener('hashchange', sync);
  }, []);

  const openScanner = useCallback(() => {
    if (window.location.hash !== SCAN_FRAGMENT) window.location.hash = SCAN_FRAGMENT;
    setOpen(true);
  }, []);

  /** Removes the fragment without leaving a '#' behind or adding a history entry. */
  const closeScanner = useCallback(() => {
    if (window.location.hash === SCAN_FRAGMENT) {
      window.history.replaceState(
        window.history.state,
        '',
        window.location.pathname + window.location.search,
      );
    }
    setOpen(false);
  }, []);

  return { open, openScanner, closeScanner };
}
