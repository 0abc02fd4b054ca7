import net from 'node:net';

/**
 * The benches' HTTP/1.1 client: keep-alive sockets, each request written as one buffer, each
 * answer framed by its Content-Length (or its chunks) and checked for its status, no more.
 * node:http's client spent a large share of what the API spent per request (docs/performance.md,
 * "The half-load tail, traced"); on a 2-core machine shared by the API, PostgreSQL and the
 * clients, that CPU is taken from what is being measured. This one leaves the cores to the server,
 * as a load generator such as wrk does. Answers are not parsed as JSON: the benches count what
 * was written in the database instead.
 */
export interface LeanAnswer {
  status: number;
  body: Buffer;
}

interface Pending {
  head: Buffer;
  resolve: (answer: LeanAnswer) => void;
  reject: (error: Error) => void;
}

const HEADER_END = Buffer.from('\r\n\r\n');
/** Below the API's keep-alive timeout (5 s). */
const IDLE_MS = 4000;

/** One keep-alive connection: one request at a time, answers framed as they arrive. */
class Connection {
  readonly socket: net.Socket;
  current?: Pending;
  private buffered: Buffer = Buffer.alloc(0);
  closed = false;
  /** performance.now() when it last became idle. */
  idleSince = 0;

  constructor(host: string, port: number, onIdle: (connection: Connection) => void) {
    this.socket = net.connect({ host, port, noDelay: true });
    this.socket.on('data', (chunk: Buffer) => {
      this.buffered = this.buffered.length ? Buffer.concat([this.buffered, chunk]) : chunk;
      let answer: ReturnType<typeof frame>;
      try {
        answer = this.current && frame(this.buffered);
      } catch (error) {
        fail(error as Error);
        this.socket.destroy();
        return;
      }
      if (!answer) return;
      this.buffered = this.buffered.subarray(answer.length);
      const { resolve } = this.current!;
      this.current = undefined;
      this.idleSince = performance.now();
      if (answer.close) this.socket.end();
      else onIdle(this);
      resolve({ status: answer.status, body: answer.body });
    });
    const fail = (error: Error) => {
      this.closed = true;
      this.current?.reject(error);
      this.current = undefined;
    };
    // The server's end of the connection (its keep-alive timeout) comes before the socket closes:
    // from then on nothing is sent on it.
    this.socket.on('end', () => (this.closed = true));
    this.socket.on('error', fail);
    this.socket.on('close', () => fail(new Error('the server closed the connection')));
  }

  send(pending: Pending): void {
    this.current = pending;
    this.socket.write(pending.head);
  }
}

/** The first whole answer in `data`, or undefined while it is still arriving. */
function frame(data: Buffer): { status: number; body: Buffer; length: number; close: boolean } | undefined {
  const headerEnd = data.indexOf(HEADER_END);
  if (headerEnd < 0) return undefined;
  const head = data.toString('latin1', 0, headerEnd);
  const status = Number(head.slice(9, 12));
  const close = /\r\nconnection: *close/i.test(head);
  const bodyStart = headerEnd + 4;
  const length = /\r\ncontent-length: *(\d+)/i.exec(head);
  if (length) {
    const end = bodyStart + Number(length[1]);
    return data.length < end
      ? undefined
      : { status, body: data.subarray(bodyStart, end), length: end, close };
  }
  if (!/\r\ntransfer-encoding: *chunked/i.test(head))
    return { status, body: Buffer.alloc(0), length: bodyStart, close };
  const chunks: Buffer[] = [];
  for (let at = bodyStart; ;) {
    const lineEnd = data.indexOf('\r\n', at);
    if (lineEnd < 0) return undefined;
    const size = parseInt(data.toString('latin1', at, lineEnd), 16);
    if (!Number.isFinite(size)) throw new Error(`not a chunk size: ${data.toString('latin1', at, lineEnd)}`);
    const end = lineEnd + 2 + size + 2;
    if (data.length < end) return undefined;
    if (size === 0) return { status, body: Buffer.concat(chunks), length: end, close };
    chunks.push(data.subarray(lineEnd + 2, lineEnd + 2 + size));
    at = end;
  }
}

/**
 * A client of `base` (e.g. http://127.0.0.1:4321/api) with at most `sockets` connections; a
 * request beyond them waits for one to be free. Rejects an answer of 300 or more with its text.
 */
export function leanClient(base: string, token: string, sockets: number) {
  const { hostname, port, pathname } = new URL(base);
  const prefix = pathname.replace(/\/$/, '');
  const idle: Connection[] = [];
  const waiting: Pending[] = [];
  let open = 0;
  const onIdle = (connection: Connection) => {
    const next = waiting.shift();
    if (next) connection.send(next);
    else idle.push(connection);
  };
  const dispatch = (pending: Pending) => {
    let connection = idle.pop();
    // The server ends a connection idle for its keep-alive timeout (5 s), and a request sent as it
    // does fails: one idle for 4 s is ended here first, as node:http's agent would with `timeout`.
    while (connection && (connection.closed || performance.now() - connection.idleSince > IDLE_MS)) {
      connection.socket.end();
      connection = idle.pop();
    }
    if (connection) return connection.send(pending);
    if (open >= sockets) return void waiting.push(pending);
    open++;
    const fresh = new Connection(hostname, Number(port), onIdle);
    fresh.socket.once('close', () => {
      open--;
      // A request waiting for a free connection gets a new one instead.
      const next = waiting.shift();
      if (next) dispatch(next);
    });
    fresh.send(pending);
  };
  const request = (method: 'GET' | 'POST', path: string, body?: unknown) =>
    new Promise<LeanAnswer>((resolve, reject) => {
      const payload = body === undefined ? '' : JSON.stringify(body);
      const head = Buffer.from(
        `${method} ${prefix}/${path.replace(/^\//, '')} HTTP/1.1\r\nhost: ${hostname}:${port}\r\n` +
          `authorization: Bearer ${token}\r\n` +
          (body === undefined
            ? '\r\n'
            : `content-type: application/json\r\ncontent-length: ${Buffer.byteLength(payload)}\r\n\r\n${payload}`),
      );
      dispatch({
        head,
        reject,
        resolve: (answer) =>
          answer.status >= 300
            ? reject(new Error(`${method} ${path}: ${answer.status} ${answer.body.toString()}`))
            : resolve(answer),
      });
    });
  return {
    post: (path: string, body: unknown) => request('POST', path, body),
    get: (path: string) => request('GET', path),
  };
}
