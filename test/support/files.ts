/** Files for the API tests: real contents (the server judges an upload by its bytes), sent and read back. */
import type { ApiClient } from './http';

/** A 1×1 PNG. */
export const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
);

/** POST /upload: the file as `name`, then the form fields; answers the status and the JSON body. */
export async function upload(
  client: ApiClient,
  bytes: Buffer,
  name: string,
  fields: Record<string, string> = {},
): Promise<{ status: number; body: any }> {
  const form = new FormData();
  form.append('file', new Blob([new Uint8Array(bytes)]), name);
  for (const [key, value] of Object.entries(fields)) form.append(key, value);
  const response = await fetch(`${client.apiUrl}/upload`, {
    method: 'POST',
    headers: { authorization: `Bearer ${client.token}` },
    body: form,
  });
  return { status: response.status, body: await response.json() };
}

/** GET a stored file's URL as `client`: its status, bytes and content type. */
export async function download(client: ApiClient, url: string) {
  const response = await fetch(new URL(url, client.apiUrl), {
    headers: { authorization: `Bearer ${client.token}` },
  });
  return {
    status: response.status,
    bytes: Buffer.from(await response.arrayBuffer()),
    type: response.headers.get('content-type'),
  };
}
