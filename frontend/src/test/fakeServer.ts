import { vi } from 'vitest';

export interface FakeRequest {
  method: string;
  path: string;
  body: unknown;
  headers: Record<string, string>;
}

export interface FakeAnswer {
  status?: number;
  statusText?: string;
  body?: unknown;
  /** Raw text instead of JSON. */
  text?: string;
  headers?: Record<string, string>;
}

/** 'network' makes the call fail as an unreachable server does. */
export type Route =
  | FakeAnswer
  | 'network'
  | ((request: FakeRequest) => FakeAnswer | 'network' | Promise<FakeAnswer | 'network'>);

/**
 * A tiny in-test HTTP server: `fetch` is answered from routes keyed 'METHOD /path' (the path
 * after /api). Unknown routes answer 404 like the real API.
 */
export function fakeServer(routes: Record<string, Route>) {
  const requests: FakeRequest[] = [];
  const fetchMock = vi.fn(async (input: RequestInfo | URL, init: RequestInit = {}) => {
    const url = new URL(String(input), 'http://localhost');
    const method = (init.method ?? 'GET').toUpperCase();
    const path = url.pathname.replace(/^\/api/, '');
    const headers = Object.fromEntries(Object.entries((init.headers as Record<string, string>) ?? {}));
    const body = typeof init.body === 'string' ? (JSON.parse(init.body) as unknown) : init.body;
    const request: FakeRequest = { method, path, body, headers };
    requests.push(request);
    const route = routes[`${method} ${path}`];
    const answer =
      typeof route === 'function'
        ? await route(request)
        : (route ?? { status: 404, body: { error: 'Not found' } });
    if (answer === 'network') throw new TypeError('Failed to fetch');
    const status = answer.status ?? 200;
    const empty = status === 204 || status === 304;
    const text = empty ? null : (answer.text ?? JSON.stringify(answer.body ?? null));
    return new Response(text, {
      status,
      statusText: answer.statusText ?? '',
      headers: { 'Content-Type': 'application/json', ...answer.headers },
    });
  });
  vi.stubGlobal('fetch', fetchMock);
  return {
    requests,
    fetch: fetchMock,
    calls: (method: string, path: string) => requests.filter((r) => r.method === method && r.path === path),
  };
}
