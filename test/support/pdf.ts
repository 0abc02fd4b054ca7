import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { ApiClient } from './http';

const run = promisify(execFile);

/** A PDF read back with poppler's pdftotext and pdfinfo (Debian poppler-utils). */
export interface ReadPdf {
  text: string;
  pages: number;
  /** pdfinfo's "Page size", e.g. "595.28 x 841.89 pts (A4)". */
  pageSize: string;
}

export async function readPdf(bytes: Buffer): Promise<ReadPdf> {
  const dir = await mkdtemp(join(tmpdir(), 'af-pdf-'));
  try {
    const file = join(dir, 'document.pdf');
    await writeFile(file, bytes);
    const { stdout: text } = await run('pdftotext', ['-layout', file, '-']);
    const { stdout: info } = await run('pdfinfo', [file]);
    const pages = Number(/^Pages:\s+(\d+)/m.exec(info)?.[1]);
    const pageSize = /^Page size:\s+(.+)$/m.exec(info)?.[1] ?? '';
    return { text, pages, pageSize };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** GET of a binary answer (ApiClient reads text), with the client's token. */
export async function getBytes(
  client: ApiClient,
  path: string,
): Promise<{ status: number; type: string | null; bytes: Buffer }> {
  const response = await fetch(`${client.apiUrl}${path}`, {
    headers: client.token ? { authorization: `Bearer ${client.token}` } : {},
  });
  return {
    status: response.status,
    type: response.headers.get('content-type'),
    bytes: Buffer.from(await response.arrayBuffer()),
  };
}
