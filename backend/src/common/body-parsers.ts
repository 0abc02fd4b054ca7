import type { FastifyInstance, FastifyReply, FastifyRequest, preHandlerHookHandler } from 'fastify';
import typeIs from 'type-is';

/**
 * Far deeper than any form or backup of ours. A deeper body, cheap to send within the size limit,
 * would only exhaust the stack of the recursive transformers and validators behind this parser.
 */
const MAX_DEPTH = 32;

const UNITS: Record<string, number> = { b: 1, kb: 1024, mb: 1024 ** 2, gb: 1024 ** 3 };

/** '1mb' → 1,048,576: the limits are written as body-parser wrote them. */
export function bytesOf(limit: string): number {
  const match = /^(\d+)\s*(b|kb|mb|gb)$/i.exec(limit.trim());
  if (!match) throw new Error(`Not a size: ${limit}`);
  return Number(match[1]) * UNITS[match[2].toLowerCase()];
}

/** Whether the request carries a body at all (a POST without one, e.g. advance, is a plain call). */
export function hasBody(request: FastifyRequest): boolean {
  return request.headers['transfer-encoding'] !== undefined || Number(request.headers['content-length']) > 0;
}

/** Walks the parsed body without recursion, so the check itself cannot overflow. */
function nestedDeeperThan(body: unknown, limit: number): boolean {
  const pending: [unknown, number][] = [[body, 0]];
  while (pending.length) {
    const [value, depth] = pending.pop()!;
    if (!value || typeof value !== 'object') continue;
    if (depth > limit) return true;
    for (const member of Object.values(value)) pending.push([member, depth + 1]);
  }
  return false;
}

/**
 * Leaves every body unread at Fastify's parsing step. The JSON body is read afterwards by
 * `jsonBodyLimitedBy` (its limit depends on who the caller is, known only after the session gate),
 * and an upload's multipart body is streamed by the files module from the raw request.
 */
export function leaveBodiesUnread(instance: FastifyInstance): void {
  instance.removeAllContentTypeParsers();
  instance.addContentTypeParser('*', (_request, _payload, done) => done(null, undefined));
}

class BodyError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

/** The whole body as text, at most `limit` bytes (a larger one stops being read at once). */
function readText(request: FastifyRequest, limit: number, limitText: string): Promise<string> {
  const raw = request.raw;
  const tooLarge = () => new BodyError(413, `The request is too large (limit ${limitText}).`);
  const declared = raw.headers['content-length'];
  if (declared !== undefined && Number(declared) > limit) return Promise.reject(tooLarge());
  const encoding = (raw.headers['content-encoding'] ?? 'identity').toLowerCase();
  if (encoding !== 'identity')
    return Promise.reject(new BodyError(415, `The request's content encoding ${encoding} is not supported.`));
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let received = 0;
    const finish = (error?: Error) => {
      raw.off('data', onData);
      raw.off('end', onEnd);
      raw.off('error', onError);
      raw.off('aborted', onAborted);
      if (error) reject(error);
      else {
        if (declared !== undefined && received !== Number(declared))
          return reject(new BodyError(400, 'The request body could not be read.'));
        resolve(
          chunks.length === 1 ? chunks[0].toString('utf8') : Buffer.concat(chunks, received).toString('utf8'),
        );
      }
    };
    const onData = (chunk: Buffer) => {
      received += chunk.length;
      if (received > limit) {
        raw.pause();
        finish(tooLarge());
        return;
      }
      chunks.push(chunk);
    };
    const onEnd = () => finish();
    const onError = () => finish(new BodyError(400, 'The request body could not be read.'));
    const onAborted = () => finish(new BodyError(400, 'The request body could not be read.'));
    raw.on('data', onData);
    raw.once('end', onEnd);
    raw.once('error', onError);
    raw.once('aborted', onAborted);
  });
}

function answer(reply: FastifyReply, status: number, error: string): void {
  // The rest of a refused body is not read: the connection ends with the answer.
  if (status === 413 || status === 415) reply.header('Connection', 'close');
  void reply.code(status).send({ error });
}

/**
 * JSON bodies, their limit chosen per request once its caller is known (the session gate runs
 * first), with a depth limit; a malformed or oversized body gets a JSON error, never HTML.
 * `undefined` leaves the body unread: the route then answers without it (e.g. a restore by
 * someone who may not restore gets the route's own 403), and the connection is closed after the
 * answer rather than kept reading. A body that is not JSON is left unread as well (the route's
 * validation then answers), as is an upload's multipart body.
 */
export function jsonBodyLimitedBy(
  limitOf: (request: FastifyRequest) => string | undefined,
): preHandlerHookHandler {
  const sizes = new Map<string, number>();
  return (request, reply, done) => {
    const raw = request.raw;
    if (!hasBody(request) || !typeIs(raw, ['application/json', 'application/*+json'])) return done();
    // JSON is UTF-8 (RFC 8259); a body declared in another charset is refused, not guessed.
    const charset = /;\s*charset\s*=\s*"?([^";\s]+)/i.exec(raw.headers['content-type'] ?? '')?.[1];
    if (charset !== undefined && !/^utf-?8$/i.test(charset))
      return answer(reply, 415, 'The request body could not be read.');
    const limit = limitOf(request);
    if (limit === undefined) {
      reply.header('Connection', 'close');
      return done();
    }
    let size = sizes.get(limit);
    if (size === undefined) sizes.set(limit, (size = bytesOf(limit)));
    readText(request, size, limit).then(
      (text) => {
        let body: unknown;
        try {
          // Strict, as body-parser was: only an object or an array is a JSON body.
          if (text.length > 0 && !/^[\s]*[{[]/.test(text)) throw new SyntaxError('not an object or array');
          body = text.length === 0 ? {} : JSON.parse(text);
        } catch {
          return answer(reply, 400, 'The request body is not valid JSON.');
        }
        if (nestedDeeperThan(body, MAX_DEPTH))
          return answer(reply, 400, 'The request body is nested too deeply.');
        request.body = body;
        done();
      },
      (error: unknown) =>
        error instanceof BodyError
          ? answer(reply, error.status, error.message)
          : answer(reply, 400, 'The request body could not be read.'),
    );
  };
}
