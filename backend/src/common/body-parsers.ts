import { json, type NextFunction, type Request, type RequestHandler, type Response } from 'express';

/** JSON bodies with a size limit; a malformed or oversized body gets a JSON error, never HTML. */
export function jsonBody(limit: string): RequestHandler {
  const parse = json({ limit });
  return (req: Request, res: Response, next: NextFunction) =>
    parse(req, res, (error?: { status?: number; type?: string }) => {
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
