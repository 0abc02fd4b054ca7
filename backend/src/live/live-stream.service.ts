import { Inject, Injectable, Logger, type OnModuleDestroy, type OnModuleInit } from '@nestjs/common';
import type { Actor } from '@alignerflow/domain';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { ServerResponse } from 'node:http';
import { SessionsService } from '../sessions/sessions.service.js';
import { drained } from '../common/drained.js';
import type { Checkpoint } from '../event-store/event-store.js';
import { LiveLog, type LiveMessage } from './live-log.js';
import { LIVE_OPTIONS, type LiveOptions } from '../config/live-options.js';
import { LogTailer, type TailConsumer } from './log-tailer.service.js';
import { compareKeys, HEARTBEAT_FRAME, idFrame, parseLastEventId, retryFrame } from './sse-frames.js';

interface LiveClient {
  actor: Actor;
  tokenHash: string | undefined;
  /** The session the stream counts against (its token), for the per-session cap. */
  session: string;
  response: ServerResponse;
  /** replaying: catching up from Last-Event-ID while live messages wait in `buffer`. */
  mode: 'replaying' | 'live' | 'closed';
  buffer: { key: Checkpoint; frame: Buffer; state?: LiveMessage['state'] }[];
  /** During a replay: the newest version of each case it sent. */
  replayed: Map<string, number>;
  /** Right after a replay: what the tailer may still deliver that the replay already sent. */
  handover: Handover | undefined;
  bufferedBytes: number;
  /** Every message up to this log key that the client may see has been written to it. */
  upTo: Checkpoint | null;
  /** The last `id:` the client was given. */
  lastId: Checkpoint | null;
  checkingSession: boolean;
}

/**
 * After a replay the tailer may still be behind it, or have read the read models before the
 * replay did. So its messages up to the replay's end are not sent again (until the tailer has
 * passed that end), nor, from builds started before the hand-over, a case state no newer than
 * the replay sent (a build started later reads newer state than the replay did).
 */
interface Handover {
  end: Checkpoint | null;
  replayed: Map<string, number> | undefined;
  lastBuild: number;
}

function admits(handover: Handover, key: Checkpoint, state: LiveMessage['state']): boolean {
  if (compareKeys(key, handover.end) <= 0) return false;
  return !state || !handover.replayed || (handover.replayed.get(state.caseId) ?? 0) < state.version;
}

const SHUTDOWN_GRACE_MS = 1_000;

/**
 * The open `GET /api/events` streams of this process, fed by the log tailer. A client that
 * reconnects with Last-Event-ID is registered first, its live messages buffered while the missed
 * part of the log is replayed to it, and then switched over: buffered messages at or before the
 * replay's end are dropped, so nothing is missed and nothing comes twice.
 */
@Injectable()
export class LiveStreamService implements TailConsumer, OnModuleInit, OnModuleDestroy {
  private readonly logger = new Logger('LiveStream');
  private readonly clients = new Set<LiveClient>();
  /** Each session's open streams, oldest first. */
  private readonly bySession = new Map<string, LiveClient[]>();
  private heartbeat: NodeJS.Timeout | undefined;
  private unsubscribe: (() => void) | undefined;
  private closing = false;

  constructor(
    private readonly tailer: LogTailer,
    private readonly log: LiveLog,
    private readonly sessions: SessionsService,
    @Inject(LIVE_OPTIONS) private readonly options: LiveOptions,
  ) {}

  get clientCount(): number {
    return this.clients.size;
  }

  onModuleInit(): void {
    this.unsubscribe = this.tailer.subscribe(this);
    this.heartbeat = setInterval(() => this.beat(), this.options.heartbeatMs);
    this.heartbeat.unref();
  }

  /** Shutdown: every stream gets a last `retry:` hint and ends, so the server can close. */
  async onModuleDestroy(): Promise<void> {
    this.closing = true;
    clearInterval(this.heartbeat);
    this.unsubscribe?.();
    const open = [...this.clients];
    const closed = open.map(
      (client) => new Promise<void>((resolve) => client.response.once('close', () => resolve())),
    );
    for (const client of open) this.end(client, this.spreadRetryFrame());
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([
      Promise.all(closed),
      new Promise((resolve) => (timer = setTimeout(resolve, SHUTDOWN_GRACE_MS))),
    ]);
    clearTimeout(timer);
    for (const client of open) client.response.destroy();
  }

  active(): boolean {
    return this.clients.size > 0;
  }

  deliver(messages: LiveMessage[], checkpoint: Checkpoint, build: number): void {
    const usersChanged = messages.some((message) => message.event === 'users_refresh');
    for (const client of this.clients) {
      const handover = client.handover;
      const laterBuild = handover !== undefined && build > handover.lastBuild;
      if (laterBuild) handover.replayed = undefined;
      for (const message of messages) {
        if (isClosed(client)) break;
        if (handover && !admits(handover, message.key, message.state)) continue;
        const frame = message.frameFor(client.actor);
        if (!frame) continue;
        if (client.mode === 'live') {
          this.write(client, frame, message.key);
        } else {
          client.buffer.push({ key: message.key, frame, state: message.state });
          client.bufferedBytes += frame.length;
          if (client.bufferedBytes > this.options.maxQueueBytes) this.drop(client, 'replay buffer full');
        }
      }
      if (laterBuild && compareKeys(checkpoint, handover.end) >= 0) client.handover = undefined;
      if (client.mode === 'live') client.upTo = checkpoint;
      // A role change or a deletion takes effect on the open stream too.
      if (usersChanged) void this.checkSession(client);
    }
  }

  /** Serves one stream until the client goes away or the app shuts down. */
  async open(
    request: FastifyRequest,
    reply: FastifyReply,
    actor: Actor,
    tokenHash: string | undefined,
  ): Promise<void> {
    const header = request.headers['last-event-id'];
    const query = (request.query as Record<string, unknown> | undefined)?.lastEventId;
    const lastEventId =
      typeof header === 'string' && header.trim() !== ''
        ? header
        : typeof query === 'string' && query.trim() !== ''
          ? query
          : undefined;

    // A tailer that read nothing while no stream was open moves to the log's end first; from
    // here to the registration below nothing waits, so a client that has the headers is registered.
    await this.tailer.catchUp();
    // From here the stream is written on the raw answer, frame by frame, for as long as it is open.
    reply.hijack();
    const response = reply.raw;
    if (request.socket.destroyed) return;
    request.socket.setTimeout(0);
    request.socket.setNoDelay(true);
    request.socket.setKeepAlive(true);
    response.statusCode = 200;
    response.setHeader('Content-Type', 'text/event-stream; charset=utf-8');
    response.setHeader('Cache-Control', 'no-store');
    response.setHeader('X-Accel-Buffering', 'no');
    response.setHeader('Connection', 'keep-alive');
    response.flushHeaders();
    if (this.closing) {
      response.end(retryFrame(this.options.retryMs));
      return;
    }
    response.write(retryFrame(this.options.retryMs));

    const client: LiveClient = {
      actor,
      tokenHash,
      session: tokenHash ?? `user:${actor.username.toLowerCase()}`,
      response,
      mode: lastEventId === undefined ? 'live' : 'replaying',
      buffer: [],
      bufferedBytes: 0,
      replayed: new Map(),
      handover: undefined,
      upTo: null,
      lastId: null,
      checkingSession: false,
    };
    // Registered and placed in one synchronous step: the tailer delivers everything after `start`.
    this.clients.add(client);
    const start = this.tailer.position;
    this.tailer.resume();
    response.on('close', () => this.remove(client));
    response.on('error', () => this.remove(client));
    this.capSessionStreams(client);

    if (client.mode === 'live') {
      client.upTo = start;
      // Without it a browser that reconnects before any message would not say where it was.
      this.write(client, idFrame(start?.position ?? '0'), start);
      return;
    }
    try {
      await this.replay(client, lastEventId!, start);
    } catch (error) {
      this.logger.warn(`Replay for ${actor.username} failed: ${(error as Error).message}`);
      this.drop(client, 'replay failed');
    }
  }

  private async replay(client: LiveClient, lastEventId: string, start: Checkpoint | null): Promise<void> {
    const resume = this.resumePoint(lastEventId);
    let after: Checkpoint | null;

    if (resume === undefined) {
      // Older than the recent window, not a position at all, or not of this log: a full refresh
      // from the read models (shared by every client reconnecting at the same position), never
      // a replay of the log.
      if (start) await this.replayFrame(client, await this.log.refresh(client.actor, start), start);
      after = start;
    } else {
      after = resume.key;
      for (;;) {
        const segment = await this.log.read(after, this.options.batchSize);
        if (isClosed(client)) return;
        const messages = segment.events.length ? await this.log.build(segment) : [];
        for (const message of messages) {
          if (isClosed(client)) return;
          await this.replayWrite(client, message);
        }
        after = segment.end;
        if (segment.more) continue;
        // The replay must reach the tailer's position at registration, or messages between the
        // two would be lost; a later snapshot never sees less, so this is a safety net only.
        if (compareKeys(after, start) >= 0) break;
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    }
    if (isClosed(client)) return;

    // Hand-over, in one synchronous step so no delivery comes in between.
    const end = after;
    const handover: Handover = { end, replayed: client.replayed, lastBuild: this.tailer.buildsStarted };
    if (end && compareKeys(end, client.lastId) > 0) this.write(client, idFrame(end.position), end);
    for (const { key, frame, state } of client.buffer) {
      if (isClosed(client)) return;
      if (admits(handover, key, state)) this.write(client, frame, key);
    }
    client.buffer = [];
    client.bufferedBytes = 0;
    client.replayed = new Map();
    if (isClosed(client)) return;
    client.mode = 'live';
    client.handover = handover;
    const tailed = this.tailer.position;
    client.upTo = compareKeys(tailed, end) > 0 ? tailed : end;
  }

  /**
   * Where a resuming client's replay starts: a position in the tailer's recent window. Anything
   * else — older than the window, ahead of this process's tailer (rare: another instance served
   * it a moment ago; the refresh is still complete), garbage — gets a full refresh, found out
   * without a query.
   */
  private resumePoint(lastEventId: string): { key: Checkpoint | null } | undefined {
    const position = parseLastEventId(lastEventId);
    return position === undefined ? undefined : this.tailer.recentKey(position);
  }

  /** Replay output waits for a slow client instead of dropping it. */
  private async replayWrite(client: LiveClient, message: LiveMessage): Promise<void> {
    const frame = message.frameFor(client.actor);
    if (!frame) return;
    if (message.state) client.replayed.set(message.state.caseId, message.state.version);
    await this.replayFrame(client, frame, message.key);
  }

  private async replayFrame(client: LiveClient, frame: Buffer, key: Checkpoint): Promise<void> {
    if (isClosed(client)) return;
    const response = client.response;
    client.lastId = key;
    if (response.write(frame) || client.mode === 'closed') return;
    await drained(response);
  }

  private write(client: LiveClient, frame: string | Buffer, key: Checkpoint | null): void {
    if (isClosed(client)) return;
    // Whatever the client has not read yet sits in this process: past the cap, let it go; it
    // reconnects with its Last-Event-ID and is replayed at the pace it can read.
    if (client.response.writableLength > this.options.maxQueueBytes) {
      this.drop(client, 'too slow');
      return;
    }
    client.response.write(frame);
    if (key) client.lastId = key;
  }

  private beat(): void {
    for (const client of this.clients) {
      void this.checkSession(client);
      // Output still waiting to go out keeps the connection busy already: no heartbeat needed.
      if (client.response.writableLength > 0) continue;
      if (client.mode === 'live' && compareKeys(client.upTo, client.lastId) > 0) {
        // A client that saw nothing for a while still resumes from here, not from long ago.
        this.write(client, HEARTBEAT_FRAME + idFrame(client.upTo!.position), client.upTo);
      } else {
        this.write(client, HEARTBEAT_FRAME, null);
      }
    }
  }

  /** Logout, expiry or deletion ends the stream too; a changed role applies from now on. */
  private async checkSession(client: LiveClient): Promise<void> {
    if (client.checkingSession || !client.tokenHash || client.mode === 'closed') return;
    client.checkingSession = true;
    try {
      const session = await this.sessions.resolve(client.tokenHash);
      if (!session || session.setupOnly) this.end(client);
      else client.actor = session.actor;
    } catch {
      // The database is unavailable: keep the stream, check again at the next heartbeat.
    } finally {
      client.checkingSession = false;
    }
  }

  private end(client: LiveClient, lastFrame?: string): void {
    if (isClosed(client)) return;
    this.remove(client);
    client.response.end(lastFrame);
  }

  private drop(client: LiveClient, reason: string): void {
    if (isClosed(client)) return;
    this.logger.debug(`Dropping the stream of ${client.actor.username}: ${reason}`);
    this.remove(client);
    client.response.destroy();
  }

  /**
   * A session keeps at most `streamsPerSession` streams here: a new one ends its oldest, with a
   * retry hint like the shutdown's, so one stolen or scripted session cannot hold thousands.
   */
  private capSessionStreams(client: LiveClient): void {
    const streams = this.bySession.get(client.session) ?? [];
    streams.push(client);
    this.bySession.set(client.session, streams);
    while (streams.length > this.options.streamsPerSession) {
      const oldest = streams.shift()!;
      this.logger.debug(`Closing the oldest stream of ${oldest.actor.username}: too many for one session`);
      this.end(oldest, this.spreadRetryFrame());
    }
  }

  /** Spreads the reconnects of many browsers over a few seconds. */
  private spreadRetryFrame(): string {
    return retryFrame(this.options.retryMs + Math.floor(Math.random() * 3 * this.options.retryMs));
  }

  private remove(client: LiveClient): void {
    const streams = this.bySession.get(client.session);
    const index = streams?.indexOf(client) ?? -1;
    if (index >= 0) streams!.splice(index, 1);
    if (streams?.length === 0) this.bySession.delete(client.session);
    client.mode = 'closed';
    client.buffer = [];
    client.replayed = new Map();
    client.handover = undefined;
    this.clients.delete(client);
  }
}

/** A function, not an inline test: the mode changes while awaits run, which narrowing ignores. */
function isClosed(client: LiveClient): boolean {
  return client.mode === 'closed';
}
