import type { INestApplication } from '@nestjs/common';
import express, { type NextFunction, type Request, type Response } from 'express';
import { existsSync } from 'node:fs';
import { join } from 'node:path';

/**
 * The API process also serves the built PWA under the base path; any other GET under it that is
 * not an API call or a file gets index.html (the app has no router paths, but a reload must work).
 */
export function serveSpa(app: INestApplication, basePath: string, distDir: string): void {
  const index = join(distDir, 'index.html');
  if (!existsSync(index)) return;
  const apiPrefix = `${basePath}api`;
  const assets = express.static(distDir, {
    index: false,
    setHeaders: (response, path) => {
      // The service worker and the page must always be revalidated; hashed assets never change.
      const fresh = path.endsWith('sw.js') || path.endsWith('.html') || path.endsWith('.webmanifest');
      response.setHeader('Cache-Control', fresh ? 'no-cache' : 'public, max-age=31536000, immutable');
    },
  });
  // An API call never names a file: skip the file-system look-up it would cost on every request.
  app.use(basePath, (request: Request, response: Response, next: NextFunction) =>
    request.originalUrl.startsWith(apiPrefix) ? next() : assets(request, response, next),
  );
  app.use((request: Request, response: Response, next: NextFunction) => {
    const wantsPage =
      request.method === 'GET' && request.path.startsWith(basePath) && !request.path.startsWith(apiPrefix);
    if (!wantsPage) return next();
    response.setHeader('Cache-Control', 'no-cache');
    response.sendFile(index);
  });
}
