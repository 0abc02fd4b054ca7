import { describe, expect, it, vi } from 'vitest';
import { fakeServer } from '../test/fakeServer';
import { ApiError, NetworkError, api, failureMessage } from './client';

describe('failureMessage (spec section 8, API failure)', () => {
  it('takes the error field, then the message field', () => {
    expect(failureMessage(409, 'Conflict', '{"error":"Username \\"x\\" is already taken."}')).toBe(
      'Username "x" is already taken.',
    );
    expect(failureMessage(400, 'Bad Request', '{"message":"Bad input"}')).toBe('Bad input');
  });

  it('falls back to the status line with the first 300 characters of the body', () => {
    const body = 'x'.repeat(400);
    expect(failureMessage(502, 'Bad Gateway', body)).toBe(`HTTP 502 Bad Gateway: ${'x'.repeat(300)}`);
  });

  it('uses the bare status line without a body', () => {
    expect(failureMessage(500, 'Internal Server Error', '')).toBe('HTTP 500 Internal Server Error');
  });
});

describe('api', () => {
  it('sends JSON with same-origin credentials and throws ApiError with the server text', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const server = fakeServer({
      'POST /users': { status: 409, body: { error: 'Username "rep" is already taken.' } },
    });
    await expect(api.createUser('rep', 'pw', 'Technician')).rejects.toMatchObject({
      name: 'ApiError',
      status: 409,
      message: 'Username "rep" is already taken.',
    });
    const [, init] = server.fetch.mock.calls[0];
    expect(init?.credentials).toBe('same-origin');
    expect(server.requests[0].body).toEqual({ username: 'rep', password: 'pw', role: 'Technician' });
  });

  it('answers a 304 as not modified and passes the ETag', async () => {
    const server = fakeServer({
      'GET /cases': (request) =>
        request.headers['If-None-Match'] === '"v1"'
          ? { status: 304 }
          : { body: [], headers: { ETag: '"v1"' } },
    });
    expect(await api.cases()).toEqual({ notModified: false, data: [], etag: '"v1"' });
    expect(await api.cases('"v1"')).toEqual({ notModified: true });
    expect(server.requests).toHaveLength(2);
  });

  it('turns an unreachable server into a NetworkError', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    fakeServer({ 'GET /auth/me': 'network' });
    await expect(api.me()).rejects.toBeInstanceOf(NetworkError);
    await expect(api.me()).rejects.not.toBeInstanceOf(ApiError);
  });
});
