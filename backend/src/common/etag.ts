import type { Request, Response } from 'express';

/** A JSON answer serialised once, with its gzip made on first demand. */
export interface SerialisedBody {
  json: Buffer;
  gzipped(): Promise<Buffer>;
}

function conditionalHeaders(request: Request, response: Response, tag: string): boolean {
  response.setHeader('ETag', tag);
  // no-store (api.md): the app revalidates from its own copy, sending If-None-Match itself.
  response.setHeader('Cache-Control', 'no-store');
  const match = request.headers['if-none-match'];
  return !!match && match.split(',').some((candidate) => candidate.trim() === tag);
}

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
  if (conditionalHeaders(request, response, tag)) {
    response.status(304);
    return undefined;
  }
  return load();
}

/**
 * Conditional GET of an already serialised body, written by hand (the route takes `@Res()`):
 * no parse and re-serialise of a large list, and gzip when the client accepts it (browsers do).
 */
export async function sendWithEtag(
  request: Request,
  response: Response,
  tag: string,
  load: () => Promise<SerialisedBody>,
): Promise<void> {
  if (conditionalHeaders(request, response, tag)) {
    response.status(304).end();
    return;
  }
  const body = await load();
  response.setHeader('Vary', 'Accept-Encoding');
  response.type('application/json');
  if (request.acceptsEncodings('gzip', 'identity') === 'gzip') {
    const gzipped = await body.gzipped();
    response.setHeader('Content-Encoding', 'gzip');
    response.end(gzipped);
  } else {
    response.end(body.json);
  }
}
