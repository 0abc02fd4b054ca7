/**
 * Whether a request's URL (or a route's pattern) is the API prefix or under it, as the router
 * matches paths: in any letter case, with or without a trailing slash, whatever its query, its
 * escapes decoded (the router takes `/%61pi/cases` to the API's `/api/cases`). The hooks that
 * treat the API apart from the app's pages all ask this, so that none of them can disagree with
 * the router on which requests are API calls; one that can reach the API must get its no-store
 * and its content security policy.
 */
export function isApiPath(url: string, apiPrefix: string): boolean {
  return pathAfterApiPrefix(url, apiPrefix) !== null;
}

/**
 * The path a request's URL asks for under the API prefix, read as `isApiPath` reads it (query
 * dropped, escapes decoded, lower-cased): `''` for the prefix itself, `'/health'` for
 * `/api/%68ealth?x=1`; null when the URL is not under the prefix. A hook that tells API routes
 * apart reads the route from here, so that an escaped path gets what the plain one gets.
 */
export function pathAfterApiPrefix(url: string, apiPrefix: string): string | null {
  const path = decoded(url.split('?', 1)[0]).toLowerCase();
  const prefix = apiPrefix.toLowerCase();
  if (path === prefix || path.startsWith(`${prefix}/`)) return path.slice(prefix.length);
  return null;
}

/** `path` with its %XX escapes decoded; as it is when they do not decode (the router answers 400). */
function decoded(path: string): string {
  if (!path.includes('%')) return path;
  try {
    return decodeURIComponent(path);
  } catch {
    return path;
  }
}
