import { ACCESS_LOG_TEXTS } from '@alignerflow/domain';

const BAD_FILTER =
  'action is one of view, download, print, export; from and to are dates as YYYY-MM-DD, from on or before to.';

/** api.md's error answers of the access log's routes (openapi/documented-errors.ts spreads them in). */
export const ACCESS_LOG_ERRORS = {
  'get /cases/{id}/access-log': [{ status: 403, description: ACCESS_LOG_TEXTS.managersOnly }],
  'get /access-log': [
    { status: 400, description: BAD_FILTER },
    { status: 403, description: ACCESS_LOG_TEXTS.managersOnly },
  ],
  'get /access-log.csv': [
    { status: 400, description: BAD_FILTER },
    { status: 403, description: ACCESS_LOG_TEXTS.managersOnly },
  ],
};
