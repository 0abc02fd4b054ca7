/**
 * Whether a request's URL (or a route's pattern) is the API prefix or under it, as the router
 * matches paths: in any letter case, with or without a trailing slash, whatever its query. The
 * hooks that treat the API apart from the app's pages all ask this, so that none of them can
 * disagree with the router on which requests are API calls.
 */
export function isApiPath(url: string, apiPrefix: string): boolean {
  const path = url.split('?', 1)[0].toLowerCase();
  const prefix = apiPrefix.toLowerCase();
  return path === prefix || path.startsWith(`${prefix}/`);
}
