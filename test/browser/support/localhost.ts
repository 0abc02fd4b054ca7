import { createServer, connect, type Server, type Socket } from 'node:net';

/**
 * A port on this machine that forwards to another: the app listens on 127.0.0.1 at a port known
 * only once it started, while WebAuthn needs a domain name (http://localhost:PORT) fixed in
 * PUBLIC_URL before the start. The forwarder takes its port first; `target` is set after.
 */
export async function localhostForwarder(): Promise<{
  port: number;
  url: string;
  forwardTo: (port: number) => void;
  close: () => Promise<void>;
}> {
  let target = 0;
  const open = new Set<Socket>();
  const server: Server = createServer((socket) => {
    const upstream = connect(target, '127.0.0.1');
    for (const end of [socket, upstream]) {
      open.add(end);
      end.on('close', () => open.delete(end));
    }
    socket.pipe(upstream).pipe(socket);
    const end = () => {
      socket.destroy();
      upstream.destroy();
    };
    socket.on('error', end);
    upstream.on('error', end);
  });
  // Every loopback address: Chromium may resolve localhost to ::1 or to 127.0.0.1.
  await new Promise<void>((resolve) => server.listen(0, resolve));
  const address = server.address();
  if (!address || typeof address === 'string') throw new Error('The forwarder has no port.');
  return {
    port: address.port,
    url: `http://localhost:${address.port}/`,
    forwardTo: (port) => {
      target = port;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        // Keep-alive connections of the browser would hold the close open.
        for (const socket of open) socket.destroy();
      }),
  };
}
