/**
 * Whether a request's URL (or a route's pattern) is the API prefix or under it, as the router
 * matches paths: in any letter case, with or without a trailing slash, whatever its query, its
 * escapes decoded (the router takes `/%61pi/cases` to the API's `/api/cases`). The hooks that
 * treat the API apart from the app's pages all ask this, so that none of them can disagree with
 * the router on which requests are API calls; one that can reach the API must get its no-store
 * and its content security policy.
 */
export function isApiPath(url: string, apiPrefix: string): boolean {
  const path = decoded(url.split('?', 1)[0]).toLowerCase();
  const prefix = apiPrefix.toLowerCase();
  return path === prefix || path.startsWith(`${prefix}/`);
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
