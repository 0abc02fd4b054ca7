import { createHash, timingSafeEqual } from 'node:crypto';

export type MetricsAccess = 'allowed' | 'not_configured' | 'refused';

/**
 * Whether an Authorization header carries METRICS_TOKEN. Both sides are hashed first so that the
 * comparison takes as long whatever the header's length or content: nothing about the token leaks
 * through the time an answer takes.
 */
export function metricsAccess(token: string | undefined, authorization: string | undefined): MetricsAccess {
  if (!token) return 'not_configured';
  const digest = (text: string) => createHash('sha256').update(text).digest();
  const offered = authorization?.startsWith('Bearer ') ? authorization.slice('Bearer '.length).trim() : '';
  return timingSafeEqual(digest(offered), digest(token)) && offered !== '' ? 'allowed' : 'refused';
}

/** The 401 of GET /metrics with a missing or wrong token. */
export const METRICS_TOKEN_REFUSED = 'A valid metrics token is required.';
