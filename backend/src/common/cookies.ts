import { parse, serialize, type CookieSerializeOptions } from 'cookie';
import type { FastifyReply, onRequestHookHandler } from 'fastify';

declare module 'fastify' {
  interface FastifyRequest {
    /** The request's cookies by name (the first of a repeated name). */
    cookies: Record<string, string | undefined>;
  }
}

/** An onRequest hook: the Cookie header, parsed once, as `request.cookies`. */
export const parseCookies: onRequestHookHandler = (request, _reply, done) => {
  const header = request.headers.cookie;
  request.cookies = header ? parse(header) : {};
  done();
};

/** Adds a Set-Cookie to the answer (Fastify sends every Set-Cookie given, in order). */
export function setCookie(
  reply: FastifyReply,
  name: string,
  value: string,
  options: CookieSerializeOptions,
): void {
  reply.header('Set-Cookie', serialize(name, value, { path: '/', ...options }));
}

/** Tells the browser to drop the cookie: empty, expired at the epoch, on the same path. */
export function clearCookie(reply: FastifyReply, name: string, options: { path: string }): void {
  setCookie(reply, name, '', { ...options, expires: new Date(0) });
}
