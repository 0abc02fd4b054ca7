import { json, type NextFunction, type Request, type RequestHandler, type Response } from 'express';

/**
 * Far deeper than any form or backup of ours. A deeper body, cheap to send within the size limit,
 * would only exhaust the stack of the recursive transformers and validators behind this parser.
 */
const MAX_DEPTH = 32;

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

/** JSON bodies with size and depth limits; a malformed or oversized body gets a JSON error, never HTML. */
export function jsonBody(limit: string): RequestHandler {
  const parse = json({ limit });
  return (req: Request, res: Response, next: NextFunction) =>
    parse(req, res, (error?: { status?: number; type?: string }) => {
      if (!error && nestedDeeperThan(req.body, MAX_DEPTH)) {
        res.status(400).json({ error: 'The request body is nested too deeply.' });
        return;
      }
      if (!error) return next();
      const status = error.status ?? 400;
      const message =
        error.type === 'entity.too.large'
          ? `The request is too large (limit ${limit}).`
          : error.type === 'entity.parse.failed'
            ? 'The request body is not valid JSON.'
            : 'The request body could not be read.';
      res.status(status).json({ error: message });
    });
}

/**
 * One JSON body parser per limit, the limit chosen per request once its caller is known (the
 * session gate runs first). `undefined` leaves the body unread: the route then answers without it
 * (e.g. a restore by someone who may not restore gets the route's own 403), and the connection is
 * closed after the answer rather than kept reading.
 */
export function jsonBodyLimitedBy(limitOf: (req: Request) => string | undefined): RequestHandler {
  const parsers = new Map<string, RequestHandler>();
  return (req: Request, res: Response, next: NextFunction) => {
    const limit = limitOf(req);
    if (limit === undefined) {
      res.setHeader('Connection', 'close');
      return next();
    }
    let parse = parsers.get(limit);
    if (!parse) parsers.set(limit, (parse = jsonBody(limit)));
    parse(req, res, next);
  };
}
