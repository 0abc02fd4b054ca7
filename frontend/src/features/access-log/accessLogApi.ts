import type { AccessEntry, AccessLogFilter, CaseAccessEntry } from '@alignerflow/domain';
import { API_BASE, request } from '../../api/client';

const enc = encodeURIComponent;

/** The filters as a query string: only those given. */
export function accessLogQuery(filter: AccessLogFilter): string {
  const parts = (['username', 'action', 'from', 'to'] as const)
    .filter((key) => filter[key])
    .map((key) => `${key}=${enc(filter[key]!)}`);
  return parts.length ? `?${parts.join('&')}` : '';
}

/** api.md, "Patient data": the access log (Managers). */
export const accessLogApi = {
  ofCase: (caseId: string) => request<CaseAccessEntry[]>('GET', `/cases/${enc(caseId)}/access-log`),
  search: (filter: AccessLogFilter) => request<AccessEntry[]>('GET', `/access-log${accessLogQuery(filter)}`),
  /** A plain link: the session cookie authenticates the download. */
  csvUrl: (filter: AccessLogFilter) => `${API_BASE}/access-log.csv${accessLogQuery(filter)}`,
};
