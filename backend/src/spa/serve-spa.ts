import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import { existsSync, readdirSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { isApiPath } from '../common/api-path.js';

/**
 * The API process also serves the built PWA under the base path; any other GET under it that is
 * not an API call or a file gets index.html (the app has no router paths, but a reload must work).
 * The build's files are listed once at the start: a request names one of them or gets the page,
 * so no request reaches the file system with a path of its own making.
 */
export async function serveSpa(instance: FastifyInstance, basePath: string, distDir: string): Promise<void> {
  const index = join(distDir, 'index.html');
  if (!existsSync(index)) return;
  const apiPrefix = `${basePath}api`;
  const files = new Set(
    readdirSync(distDir, { recursive: true, withFileTypes: true })
      .filter((entry) => entry.isFile())
      .map((entry) => relative(distDir, join(entry.parentPath, entry.name)).split(sep).join('/')),
  );
  await instance.register(fastifyStatic, { root: distDir, serve: false, cacheControl: false });
  instance.get(`${basePath}*`, (request, reply) => {
    // An API path that names no endpoint: Nest's 404.
    if (isApiPath(request.url, apiPrefix)) return reply.callNotFound();
    let name: string;
    try {
      name = decodeURIComponent(request.url.split('?', 1)[0].slice(basePath.length));
    } catch {
      name = '';
    }
    if (files.has(name) && name !== 'index.html') {
      // The service worker and the manifest must always be revalidated; hashed assets never change.
      const fresh = name.endsWith('sw.js') || name.endsWith('.html') || name.endsWith('.webmanifest');
      reply.header('Cache-Control', fresh ? 'no-cache' : 'public, max-age=31536000, immutable');
      return reply.sendFile(name);
    }
    reply.header('Cache-Control', 'no-cache');
    return reply.sendFile('index.html');
  });
}
