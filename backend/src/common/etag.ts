import type { Request, Response } from 'express';

/**
 * Conditional GET: the tag comes from the read model's last applied position, so an unchanged
 * list costs one index lookup and a 304, without loading or serialising it.
 */
export async function withEtag<T>(
  request: Request,
  response: Response,
  tag: string,
  load: () => Promise<T>,
): Promise<T | undefined> {
  response.setHeader('ETag', tag);
  response.setHeader('Cache-Control', 'private, no-cache');
  const match = request.headers['if-none-match'];
  if (match && match.split(',').some((candidate) => candidate.trim() === tag)) {
    response.status(304);
    return undefined;
  }
  return load();
}
