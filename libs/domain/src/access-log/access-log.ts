import { ACCESS_ACTIONS, type AccessAction } from '../contract/access-log.js';
import { isIsoDate } from '../validation/validation.js';

export const ACCESS_LOG_TEXTS = {
  managersOnly: 'The access log is for managers.',
  badAction: (value: string) =>
    `action must be one of ${ACCESS_ACTIONS.join(', ')} (got "${value.slice(0, 40)}").`,
  notADate: (name: 'from' | 'to', value: string) =>
    `${name} must be a date as YYYY-MM-DD (got "${value.slice(0, 40)}").`,
  fromAfterTo: 'from must be on or before to.',
  title: 'Access log',
  tab: 'Access',
  caseHeading: 'Who read this case',
  intro: 'Every read of a case and every export: who, when, what and from which address.',
  empty: 'Nobody has read this case yet.',
  noEntries: 'No access matches these filters.',
  downloadCsv: 'Download CSV',
  loading: 'Loading the access log...',
  failed: 'The access log could not be loaded.',
  retry: 'Retry',
  filters: 'Filter the access log',
  username: 'Username',
  action: 'Action',
  anyAction: 'Any action',
  fromDay: 'From',
  toDay: 'To',
  apply: 'Show',
  from: 'from',
  actionLabels: {
    view: 'Viewed',
    download: 'Downloaded',
    print: 'Printed',
    export: 'Exported',
  } satisfies Record<AccessAction, string>,
} as const;

/** The CSV's columns, in order (`GET /access-log.csv`). */
export const ACCESS_LOG_CSV_HEADER = [
  'at',
  'username',
  'role',
  'action',
  'detail',
  'address',
  'caseId',
] as const;

/** `GET /access-log`'s filters, checked: every one optional; from/to whole days, inclusive. */
export interface AccessLogFilter {
  username?: string;
  action?: AccessAction;
  from?: string;
  to?: string;
}

export function isAccessAction(value: unknown): value is AccessAction {
  return typeof value === 'string' && (ACCESS_ACTIONS as readonly string[]).includes(value);
}

/** The query string's filters, or the first error in the contract's words. */
export function parseAccessLogFilter(query: {
  username?: unknown;
  action?: unknown;
  from?: unknown;
  to?: unknown;
}): { filter: AccessLogFilter } | { error: string } {
  const filter: AccessLogFilter = {};
  const text = (value: unknown) => (typeof value === 'string' ? value.trim() : '');
  const username = text(query.username);
  if (username) filter.username = username;
  const action = text(query.action);
  if (action) {
    if (!isAccessAction(action)) return { error: ACCESS_LOG_TEXTS.badAction(action) };
    filter.action = action;
  }
  for (const name of ['from', 'to'] as const) {
    const value = text(query[name]);
    if (!value) continue;
    if (!isIsoDate(value)) return { error: ACCESS_LOG_TEXTS.notADate(name, value) };
    filter[name] = value;
  }
  if (filter.from && filter.to && filter.from > filter.to) return { error: ACCESS_LOG_TEXTS.fromAfterTo };
  return { filter };
}
