import type { FastifyReply, FastifyRequest } from 'fastify';
import Negotiator from 'negotiator';

/** A JSON answer serialised once, with its gzip made on first demand. */
export interface SerialisedBody {
  json: Buffer;
  gzipped(): Promise<Buffer>;
}

function conditionalHeaders(request: FastifyRequest, reply: FastifyReply, tag: string): boolean {
  reply.header('ETag', tag);
  // no-store (api.md): the app revalidates from its own copy, sending If-None-Match itself.
  reply.header('Cache-Control', 'no-store');
  const match = request.headers['if-none-match'];
  return !!match && match.split(',').some((candidate) => candidate.trim() === tag);
}

/**
 * Conditional GET: the tag comes from the read model's last applied position, so an unchanged
 * list costs one index lookup and a 304, without loading or serialising it.
 */
export async function withEtag<T>(
  request: FastifyRequest,
  reply: FastifyReply,
  tag: string,
  load: () => Promise<T>,
): Promise<T | undefined> {
  if (conditionalHeaders(request, reply, tag)) {
    reply.code(304);
    return undefined;
  }
  return load();
}

/**
 * Conditional GET of an already serialised body, written by hand (the route takes `@Res()`):
 * no parse and re-serialise of a large list, and gzip when the client accepts it (browsers do).
 */
export async function sendWithEtag(
  request: FastifyRequest,
  reply: FastifyReply,
  tag: string,
  load: () => Promise<SerialisedBody>,
): Promise<void> {
  if (conditionalHeaders(request, reply, tag)) {
    await reply.code(304).send();
    return;
  }
  const body = await load();
  reply.header('Vary', 'Accept-Encoding');
  reply.type('application/json; charset=utf-8');
  if (acceptsGzip(request)) {
    const gzipped = await body.gzipped();
    reply.header('Content-Encoding', 'gzip');
    await reply.send(gzipped);
  } else {
    await reply.send(body.json);
  }
}

/** Whether the client prefers gzip to the identity encoding (browsers do). */
function acceptsGzip(request: FastifyRequest): boolean {
  const header = request.headers['accept-encoding'];
  if (!header) return false;
  return new Negotiator({ headers: { 'accept-encoding': header } }).encoding(['gzip', 'identity']) === 'gzip';
}
