import type { FastifyReply, FastifyRequest } from 'fastify';
import { clearCookie, parseCookies, setCookie } from './cookies';

/** A reply that keeps its headers as Fastify does: every Set-Cookie given, in order. */
function replyKeepingHeaders(): { reply: FastifyReply; setCookies: string[] } {
  const setCookies: string[] = [];
  const reply = {
    header(name: string, value: string) {
      if (name.toLowerCase() === 'set-cookie') setCookies.push(value);
      return reply;
    },
  } as unknown as FastifyReply;
  return { reply, setCookies };
}

describe('cookies', () => {
  it('parses the Cookie header once into request.cookies, and gives an empty map without one', () => {
    const request = { headers: { cookie: 'af_session=abc%20def; af_device=x' } } as unknown as FastifyRequest;
    const done = jest.fn();
    parseCookies.call(undefined as never, request, {} as FastifyReply, done);
    expect(request.cookies).toEqual({ af_session: 'abc def', af_device: 'x' });
    expect(done).toHaveBeenCalledTimes(1);
    const bare = { headers: {} } as unknown as FastifyRequest;
    parseCookies.call(undefined as never, bare, {} as FastifyReply, jest.fn());
    expect(bare.cookies).toEqual({});
  });

  it('sets each cookie as its own Set-Cookie, with the attributes given and Path / by default', () => {
    const { reply, setCookies } = replyKeepingHeaders();
    const expires = new Date('2027-01-01T00:00:00Z');
    setCookie(reply, 'af_session', 'tok', {
      httpOnly: true,
      sameSite: 'lax',
      secure: true,
      path: '/lab/',
      expires,
    });
    setCookie(reply, 'af_device', 'dev', { httpOnly: true });
    expect(setCookies).toEqual([
      'af_session=tok; Path=/lab/; Expires=Fri, 01 Jan 2027 00:00:00 GMT; HttpOnly; Secure; SameSite=Lax',
      'af_device=dev; Path=/; HttpOnly',
    ]);
  });

  it('clears a cookie on its path by an empty value expired at the epoch', () => {
    const { reply, setCookies } = replyKeepingHeaders();
    clearCookie(reply, 'af_session', { path: '/' });
    expect(setCookies).toEqual(['af_session=; Path=/; Expires=Thu, 01 Jan 1970 00:00:00 GMT']);
  });
});
