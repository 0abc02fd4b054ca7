import { describe, expect, it, vi } from 'vitest';
import { fakeServer } from '../test/fakeServer';
import { ApiError, NetworkError, api, failureMessage, onEnrolmentRequired, onStepUpRequired } from './client';

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

describe('api: step-up and enrolment answers', () => {
  const REAUTH = { status: 403, body: { error: 'Confirm it is you to continue.', reauth: true } };

  it('repeats a step-up call once the registered dialog resolves, and only then', async () => {
    let proved = false;
    const server = fakeServer({ 'DELETE /users/rep': () => (proved ? { status: 204 } : REAUTH) });
    const stepUp = vi.fn(async () => {
      proved = true;
    });
    const unregister = onStepUpRequired(stepUp);
    try {
      await expect(api.deleteUser('rep')).resolves.toBeUndefined();
      expect(stepUp).toHaveBeenCalledTimes(1);
      expect(server.calls('DELETE', '/users/rep')).toHaveLength(2);
    } finally {
      unregister();
    }
  });

  it('without a dialog a step-up answer is the ApiError with its text', async () => {
    fakeServer({ 'GET /backup': REAUTH });
    await expect(api.backup()).rejects.toMatchObject({
      name: 'ApiError',
      status: 403,
      message: 'Confirm it is you to continue.',
    });
  });

  it("tells the app when a call answers 'Set up two-step sign-in first.', and still fails the call", async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    fakeServer({
      'GET /dashboard': { status: 403, body: { error: 'Set up two-step sign-in first.' } },
      'DELETE /users/x': { status: 403, body: { error: 'Only a manager can manage users.' } },
    });
    const enrol = vi.fn();
    const unregister = onEnrolmentRequired(enrol);
    try {
      await expect(api.dashboard()).rejects.toBeInstanceOf(ApiError);
      expect(enrol).toHaveBeenCalledTimes(1);
      await expect(api.deleteUser('x')).rejects.toBeInstanceOf(ApiError);
      expect(enrol).toHaveBeenCalledTimes(1);
    } finally {
      unregister();
    }
  });
});
