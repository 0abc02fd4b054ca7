import {
  WrongExpectedVersionError,
  type EventStore,
  type RecordedEvent,
  type StreamAppend,
} from './event-store.js';

/** Emitted (EventEmitter2) with each flush's AppendFlush. */
export const APPEND_FLUSHED = 'event-store.append-flushed';

/**
 * One flush as it went: what an answer slower than its neighbours spent waiting, either for the
 * flush in flight before its own to return, or for its own statement.
 */
export interface AppendFlush {
  /** Appends the statement carried. */
  appends: number;
  /**
   * The whole of EventStore.appendStreams: the events sealed and put in parameters, a pooled
   * connection, the statement and its commit, the answer decoded.
   */
  seconds: number;
  /** Each append's wait, from its arrival to its flush's start. */
  waitedSeconds: number[];
}

/** Events per flush at most: EventStore.appendStreams takes this many in one statement. */
const MAX_EVENTS_PER_FLUSH = 1000;

type Waiting = {
  append: StreamAppend;
  /** performance.now() at its arrival. */
  arrived: number;
  resolve: (events: RecordedEvent[]) => void;
  reject: (error: unknown) => void;
};

/**
 * Group commit: appends that arrive while a flush is in flight wait for it to return, then go out
 * together, whatever their streams, in one statement (EventStore.appendStreams): one commit, one
 * WAL flush. Each keeps its own version check and its own answer: its events, or its own
 * WrongExpectedVersionError. No timer: the next flush starts as soon as the previous one returns,
 * so a lone append waits for nothing. An append resolves after its commit (with synchronous_commit
 * on, its events are on disk). A stream at most once per flush: the caller's appends to one stream
 * come one after another.
 */
export class GroupCommit {
  private readonly queue: Waiting[] = [];
  private flushing = false;

  /**
   * `committed` hears each flush's events before any of their appends' callers resume; `flushed`
   * hears how each statement went.
   */
  constructor(
    private readonly store: EventStore,
    private readonly committed: (events: RecordedEvent[]) => void,
    private readonly flushed: (flush: AppendFlush) => void = () => undefined,
  ) {}

  append(append: StreamAppend): Promise<RecordedEvent[]> {
    return new Promise((resolve, reject) => {
      this.queue.push({ append, arrived: performance.now(), resolve, reject });
      if (!this.flushing) void this.flushAll();
    });
  }

  private async flushAll(): Promise<void> {
    this.flushing = true;
    while (this.queue.length) {
      let [count, events] = [0, 0];
      while (
        count < this.queue.length &&
        (events += this.queue[count].append.events.length) <= MAX_EVENTS_PER_FLUSH
      )
        count++;
      await this.flush(this.queue.splice(0, Math.max(count, 1)));
    }
    this.flushing = false;
  }

  /** One statement for `batch` (batch.length: this flush's batch size). */
  private async flush(batch: Waiting[]): Promise<void> {
    const started = performance.now();
    let results: (RecordedEvent[] | WrongExpectedVersionError)[];
    try {
      results = await this.store.appendStreams(batch.map(({ append }) => append));
    } catch (error) {
      // Nothing of the batch was written: one append's failure must not be the others' answer.
      if (batch.length === 1) batch[0].reject(error);
      else for (const one of batch) await this.flush([one]);
      return;
    }
    const seconds = (performance.now() - started) / 1000;
    // Settled first: their callers resume only after this synchronous code, the listeners' included.
    results.forEach((result, i) =>
      result instanceof WrongExpectedVersionError ? batch[i].reject(result) : batch[i].resolve(result),
    );
    const events = results.flatMap((result) => (result instanceof WrongExpectedVersionError ? [] : result));
    try {
      if (events.length) this.committed(events);
      this.flushed({
        appends: batch.length,
        seconds,
        waitedSeconds: batch.map(({ arrived }) => (started - arrived) / 1000),
      });
    } catch (error) {
      // The appends are committed and answered whatever a listener does: its failure is its own.
      process.emitWarning(error as Error);
    }
  }
}
