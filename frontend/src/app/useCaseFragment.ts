import { useEffect } from 'react';
import { caseIdFromFragment } from '@alignerflow/domain';

/** The `case` query parameter a push notification's click opens (`{base}?case=CA-…`). */
const CASE_PARAMETER = 'case';

/**
 * Opens the case a link names: `#case=CA-…` (the emails' links) or `?case=CA-…` (a push
 * notification's). The link is then taken out of the address without a new history entry, so a
 * reload or Back does not open the case again.
 */
export function useCaseFragment(openCase: (caseId: string) => void): void {
  useEffect(() => {
    const open = () => {
      const { hash, search, pathname } = window.location;
      const parameters = new URLSearchParams(search);
      const caseId = caseIdFromFragment(hash) ?? (parameters.get(CASE_PARAMETER)?.trim() || null);
      if (!caseId) return;
      parameters.delete(CASE_PARAMETER);
      const query = parameters.toString();
      const keptHash = caseIdFromFragment(hash) ? '' : hash;
      window.history.replaceState(
        window.history.state,
        '',
        `${pathname}${query ? `?${query}` : ''}${keptHash}`,
      );
      openCase(caseId);
    };
    open();
    window.addEventListener('hashchange', open);
    return () => window.removeEventListener('hashchange', open);
  }, [openCase]);
}
