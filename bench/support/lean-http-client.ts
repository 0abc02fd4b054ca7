import net from 'node:net';

/**
 * The benches' HTTP/1.1 client: keep-alive sockets, each request written as one buffer, each
 * answer framed by its Content-Length (or its chunks) and checked for its status, no more.
 * node:http's client spent a large share of what the API spent per request (docs/performance.md,
 * "The half-load tail, traced"); on a 2-core machine shared by the API, PostgreSQL and the
 * clients, that CPU is taken from what is being measured. This one leaves the cores to the server,
 * as a load generator such as wrk does. Answers are not parsed, and a successful answer's body is
 * not kept: the benches count what was written in the database instead.
 */
export interface LeanAnswer {
  status: number;
  /** The body of an answer of 300 or more (its error text); empty for any other. */
  body: Buffer;
}

interface Pending {
  head: Buffer;
  resolve: (answer: LeanAnswer) => void;
  reject: (error: Error) => void;
}

/** An answer whose head has been read. */
interface Reading {
  status: number;
  close: boolean;
  /** Body bytes still to come (Content-Length), or undefined for chunks. */
  remaining: number | undefined;
  /** The body bytes kept: all of a chunked body (to find its end), an error's for its text. */
  kept: Buffer[];
}

const HEADER_END = Buffer.from('\r\n\r\n');
const EMPTY = Buffer.alloc(0);
/** Below the API's keep-alive timeout (5 s). */
const IDLE_MS = 4000;
/**
 * Every connection's reads land in this one buffer (net's `onread`), each framed before the next
 * read: a body the benches do not look at is counted and dropped, never allocated. A command's
 * answer carries the whole case, tens of kilobytes on a case with hundreds of notes, and a socket
 * buffer allocated per read made this process collect its garbage, mark-compacts included,
 * several times a second, and send late (docs/performance.md, "The half-load tail and the notes
 * each command kept").
 */
const READS = Buffer.allocUnsafe(64 * 1024);

/** One keep-alive connection: one request at a time, answers framed as they arrive. */
class Connection {
  readonly socket: net.Socket;
  current?: Pending;
  /** The current answer's head so far, copied out of READS, until its end arrives. */
  private head: Buffer = EMPTY;
  private answer?: Reading;
  closed = false;
  /** performance.now() when it last became idle. */
  idleSince = 0;

  constructor(
    host: string,
    port: number,
    private readonly onIdle: (connection: Connection) => void,
  ) {
    this.socket = net.connect({
      host,
      port,
      noDelay: true,
      onread: {
        buffer: READS,
        callback: (size: number, buffer: Buffer) => {
          try {
            this.read(buffer.subarray(0, size));
          } catch (error) {
            this.fail(error as Error);
            this.socket.destroy();
          }
          return true;
        },
      },
    });
    // The server's end of the connection (its keep-alive timeout) comes before the socket closes:
    // from then on nothing is sent on it.
    this.socket.on('end', () => (this.closed = true));
    this.socket.on('error', (error) => this.fail(error));
    this.socket.on('close', () => this.fail(new Error('the server closed the connection')));
  }

  send(pending: Pending): void {
    this.current = pending;
    this.socket.write(pending.head);
  }

  private fail(error: Error): void {
    this.closed = true;
    this.current?.reject(error);
    this.current = undefined;
  }

  /** Frames `bytes` (a view of READS, valid until this returns) into the current answer. */
  private read(bytes: Buffer): void {
    let at = 0;
    while (at < bytes.length && this.current) {
      if (!this.answer) {
        const data = this.head.length ? Buffer.concat([this.head, bytes.subarray(at)]) : bytes.subarray(at);
        const headerEnd = data.indexOf(HEADER_END);
        if (headerEnd < 0) {
          this.head = Buffer.from(data);
          return;
        }
        at += headerEnd + 4 - this.head.length;
        this.head = EMPTY;
        this.answer = reading(data.toString('latin1', 0, headerEnd));
      }
      const answer = this.answer;
      const rest = bytes.subarray(at);
      if (answer.remaining === undefined) {
        answer.kept.push(Buffer.from(rest));
        const body = Buffer.concat(answer.kept);
        const chunked = unchunked(body);
        if (!chunked) {
          answer.kept = [body];
          return;
        }
        // What came after the last chunk (nothing, one request being in flight) starts the next head.
        at = bytes.length - (body.length - chunked.length);
        this.finish(chunked.body);
        continue;
      }
      const taken = Math.min(answer.remaining, rest.length);
      if (answer.status >= 300) answer.kept.push(Buffer.from(rest.subarray(0, taken)));
      answer.remaining -= taken;
      at += taken;
      if (answer.remaining === 0) this.finish(Buffer.concat(answer.kept));
    }
  }

  private finish(body: Buffer): void {
    const { status, close } = this.answer!;
    const { resolve } = this.current!;
    this.answer = undefined;
    this.current = undefined;
    this.idleSince = performance.now();
    if (close) this.socket.end();
    else this.onIdle(this);
    resolve({ status, body });
  }
}

/** An answer's head (its text up to the blank line): status, framing, whether the server closes. */
function reading(head: string): Reading {
  const status = Number(head.slice(9, 12));
  const close = /\r\nconnection: *close/i.test(head);
  const length = /\r\ncontent-length: *(\d+)/i.exec(head);
  const chunked = !length && /\r\ntransfer-encoding: *chunked/i.test(head);
  return { status, close, remaining: chunked ? undefined : Number(length?.[1] ?? 0), kept: [] };
}

/** A chunked body's content and how many bytes it took, once its last chunk is in `data`. */
function unchunked(data: Buffer): { body: Buffer; length: number } | undefined {
  const chunks: Buffer[] = [];
  for (let at = 0; ;) {
    const lineEnd = data.indexOf('\r\n', at);
    if (lineEnd < 0) return undefined;
    const size = parseInt(data.toString('latin1', at, lineEnd), 16);
    if (!Number.isFinite(size)) throw new Error(`not a chunk size: ${data.toString('latin1', at, lineEnd)}`);
    const end = lineEnd + 2 + size + 2;
    if (data.length < end) return undefined;
    if (size === 0) return { body: Buffer.concat(chunks), length: end };
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
