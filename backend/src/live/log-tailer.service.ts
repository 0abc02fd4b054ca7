import {
  Inject,
  Injectable,
  Logger,
  type OnApplicationBootstrap,
  type OnModuleDestroy,
} from '@nestjs/common';
import type { Checkpoint } from '../event-store/event-store.js';
import { LogListener } from '../event-store/log-listener.js';
import { LiveLog, type LiveMessage, type LogSegment } from './live-log.js';
import { compareKeys } from './sse-frames.js';
import { LIVE_OPTIONS, type LiveOptions } from '../config/live-options.js';

/** Who the tailer feeds: the stream hub, or a test. */
export interface TailConsumer {
  /** Whether anyone wants messages; when nobody does, batches are skipped unbuilt. */
  active(): boolean;
  /**
   * Called synchronously with the tailer's position moving to `checkpoint`. `build` numbers the
   * read of the read models behind the messages (see `buildsStarted`).
   */
  deliver(messages: LiveMessage[], checkpoint: Checkpoint, build: number): void;
}

const FIRST_RETRY_MS = 20;

/**
 * The one reader of the event log in this process. It starts at the log's end (history is only
 * read for a client that asks for it with Last-Event-ID), follows the log in commit-safe order,
 * and is woken once per batch of commits by the LogListener (NOTIFY from any instance's insert,
 * this process's own included) and by a slow poll, so a lost notification only delays.
 *
 * It reads only while a stream is open: with nobody to deliver to, a wake-up just marks it
 * behind, and the next stream to open first moves it to the log's end (one indexed lookup, no
 * read of the rows in between; see catchUp).
 */
@Injectable()
export class LogTailer implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger('LiveTailer');
  private readonly consumers = new Set<TailConsumer>();
  private checkpoint: Checkpoint | null = null;
  private builds = 0;
  private started = false;
  private stopped = false;
  private running: Promise<void> | undefined;
  private wakeAgain = false;
  /** Woken while nobody listened: the log may have moved past `checkpoint` unread. */
  private behind = false;
  private catchingUp: Promise<void> | undefined;
  private pollTimer: NodeJS.Timeout | undefined;
  private unsubscribe: (() => void) | undefined;
  private retryTimer: NodeJS.Timeout | undefined;
  private retryDelayMs = FIRST_RETRY_MS;
  private lastErrorLog = 0;
  /**
   * The recent window: the log key of each of the last `replayWindow` entries this tailer read
   * (and of where it started), by position, oldest first. Every `id:` a stream sends is one of
   * them, so a resuming client is found here without a query; "0" stands for an empty log's start.
   */
  private readonly recent = new Map<string, Checkpoint | null>();

  constructor(
    private readonly log: LiveLog,
    private readonly listener: LogListener,
    @Inject(LIVE_OPTIONS) private readonly options: LiveOptions,
  ) {}

  /** Where the tailer stands: every message up to here has been delivered. */
  get position(): Checkpoint | null {
    return this.checkpoint;
  }

  /**
   * How many batches have started loading their read-model state: a delivery numbered higher
   * than this count read that state later than now.
   */
  get buildsStarted(): number {
    return this.builds;
  }

  /**
   * The server process id of the LISTEN connection while it is up (else only the poll and this
   * process's commits wake the tailer).
   */
  get listenerPid(): number | undefined {
    return this.listener.pid;
  }

  /**
   * The log key of a position in the recent window (null: the start of the log), or undefined
   * when the position is older than the window, not yet read here, or no position at all.
   */
  recentKey(position: string): { key: Checkpoint | null } | undefined {
    const key = this.recent.get(position);
    return key === undefined ? undefined : { key };
  }

  subscribe(consumer: TailConsumer): () => void {
    this.consumers.add(consumer);
    return () => this.consumers.delete(consumer);
  }

  async onApplicationBootstrap(): Promise<void> {
    this.checkpoint = await this.log.end();
    this.remember(this.checkpoint);
    this.started = true;
    // This process's commits are kept for the read only while a stream is open to deliver them.
    this.log.keepOwnCommitsWhile(() => [...this.consumers].some((consumer) => consumer.active()));
    this.pollTimer = setInterval(() => this.wake(), this.options.pollMs);
    this.pollTimer.unref();
    // On (re)connecting: whatever was appended while nobody listened.
    const subscription = this.listener.subscribe({
      appended: () => this.wake(),
      connected: () => this.wake(),
    });
    this.unsubscribe = subscription.unsubscribe;
    await subscription.ready;
  }

  async onModuleDestroy(): Promise<void> {
    this.stopped = true;
    this.unsubscribe?.();
    clearInterval(this.pollTimer);
    clearTimeout(this.retryTimer);
    await this.running;
  }

  /**
   * Before a stream registers: if the tailer skipped reads while nobody listened, move it to the
   * log's end, so the stream starts there. Registering right after it resolves, in the same
   * synchronous step as reading `position`, then `resume()`, misses nothing: whatever commits
   * after the end looked up here is read by that wake-up.
   */
  catchUp(): Promise<void> {
    // Every stream opening meanwhile waits for the same move: none may start behind it.
    if (this.catchingUp) return this.catchingUp;
    if (!this.behind || !this.started || this.stopped) return Promise.resolve();
    return (this.catchingUp = this.fastForward().finally(() => (this.catchingUp = undefined)));
  }

  /** After a stream registered: read what came while nobody listened. */
  resume(): void {
    if (this.behind) this.wake();
  }

  private async fastForward(): Promise<void> {
    await this.running;
    this.behind = false;
    // Wake-ups from here on, with no stream yet, set `behind` again for resume() to read.
    const end = await this.log.end();
    if (this.running || compareKeys(end, this.checkpoint) <= 0) return;
    this.checkpoint = end;
    this.remember(end);
  }

  /** Reads what is new; calls made while a read runs fold into one more read after it. */
  wake(): void {
    if (!this.started || this.stopped) return;
    if (![...this.consumers].some((consumer) => consumer.active())) {
      // Nobody to deliver to: no read. The next stream catches up first.
      this.behind = true;
      return;
    }
    this.behind = false;
    if (this.running) {
      this.wakeAgain = true;
      return;
    }
    this.running = this.drain().finally(() => {
      this.running = undefined;
      if (this.wakeAgain) {
        this.wakeAgain = false;
        this.wake();
      }
    });
  }

  private async drain(): Promise<void> {
    try {
      for (;;) {
        this.wakeAgain = false;
        const segment = await this.log.read(this.checkpoint, this.options.batchSize);
        if (this.stopped) return;
        if (segment.events.length) {
          this.retryDelayMs = FIRST_RETRY_MS;
          await this.advance(segment);
        }
        if (this.stopped) return;
        // A wake-up that found nothing may have come for an event held back; one that found
        // events came for them (a later one wakes again).
        if (!segment.more) return segment.events.length ? undefined : await this.retryIfHeldBack();
      }
    } catch (error) {
      // The database may be down: the next poll tries again. Say so at most every 30 s.
      if (Date.now() - this.lastErrorLog > 30_000) {
        this.lastErrorLog = Date.now();
        this.logger.warn(`Reading the event log failed: ${(error as Error).message}`);
      }
    }
  }

  /**
   * A notification comes at commit, but the event is only safe to read once every older
   * transaction on the server has ended, usually a few milliseconds later: look again soon,
   * backing off towards the poll interval, rather than wait for the next poll.
   */
  private async retryIfHeldBack(): Promise<void> {
    if (!(await this.log.hasUnread(this.checkpoint))) {
      this.retryDelayMs = FIRST_RETRY_MS;
      return;
    }
    if (this.retryTimer || this.stopped) return;
    this.retryTimer = setTimeout(() => {
      this.retryTimer = undefined;
      this.wake();
    }, this.retryDelayMs);
    this.retryTimer.unref();
    this.retryDelayMs = Math.min(this.retryDelayMs * 2, this.options.pollMs);
  }

  private async advance(segment: LogSegment): Promise<void> {
    for (const event of segment.events)
      this.remember({ transactionId: event.transactionId, position: event.position });
    // A restore's segment ends past the events it returns (the rest of its transaction).
    this.remember(segment.end);
    const consumers = [...this.consumers];
    if (!consumers.some((consumer) => consumer.active())) {
      // Checked and moved in one synchronous step: a client registering later starts after it.
      this.checkpoint = segment.end;
      return;
    }
    const build = ++this.builds;
    const messages = await this.log.build(segment);
    if (this.stopped) return;
    this.checkpoint = segment.end;
    for (const consumer of this.consumers) consumer.deliver(messages, segment.end!, build);
  }

  private remember(key: Checkpoint | null): void {
    const position = key?.position ?? '0';
    if (this.recent.has(position)) return;
    this.recent.set(position, key);
    while (this.recent.size > this.options.replayWindow) this.recent.delete(this.recent.keys().next().value!);
  }
}
