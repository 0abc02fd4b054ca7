import { request as httpRequest } from 'node:http';
import type { HttpAnswer } from './http';

/**
 * One HTTP request from a chosen loopback address (127.0.0.2, 127.0.0.3…: the socket's local
 * bind address), so that a test can be several clients at once without a proxy.
 */
export function requestFrom<T = any>(
  localAddress: string,
  url: string,
  method: string,
  body?: unknown,
  headers: Record<string, string> = {},
): Promise<HttpAnswer<T>> {
  const payload = body === undefined ? undefined : JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const outgoing = httpRequest(
      url,
      {
        method,
        localAddress,
        headers: {
          ...(payload !== undefined
            ? { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(payload)) }
            : {}),
          ...headers,
        },
      },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('error', reject);
        response.on('end', () => {
          const text = Buffer.concat(chunks).toString();
          let parsed: unknown = text;
          try {
            parsed = text ? JSON.parse(text) : undefined;
          } catch {
            // Not JSON: the text itself.
          }
          const answerHeaders = new Headers();
          for (const [name, value] of Object.entries(response.headers))
            for (const one of Array.isArray(value) ? value : value === undefined ? [] : [value])
              answerHeaders.append(name, one);
          resolve({ status: response.statusCode ?? 0, body: parsed as T, headers: answerHeaders });
        });
      },
    );
    outgoing.on('error', reject);
    outgoing.end(payload);
  });
}
