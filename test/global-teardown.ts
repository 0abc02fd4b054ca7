import { rm } from 'node:fs/promises';
// No `.js`: see global-setup.ts.
import { EMBEDDED_SERVER_KEY, EmbeddedTestServer } from './global-setup';

/** Stops the embedded PostgreSQL that global-setup started when no server was reachable. */
export default async function globalTeardown(): Promise<void> {
  const globals = globalThis as Record<string, unknown>;
  const server = globals[EMBEDDED_SERVER_KEY] as EmbeddedTestServer | undefined;
  if (!server) return;
  delete globals[EMBEDDED_SERVER_KEY];
  // Otherwise a watch-mode rerun would take the stopped server for one the user configured.
  delete process.env.TEST_DATABASE_URL;
  await server.stop();
  await rm(server.dataDir, { recursive: true, force: true });
}
