/** The event store's vocabulary: what goes in, what comes out, where a reader stopped. */
import type { QueryRunner } from 'typeorm';
import type { ReadModelRows } from './read-model.js';

export interface NewEvent {
  type: string;
  data: unknown;
  schemaVersion?: number;
  /** `data` as JSON, when the caller has it already: the append stores this text. */
  json?: string;
}

export interface EventMetadata {
  actor: { username: string; role: string } | null;
  correlationId: string;
  causationId?: string;
}

export interface RecordedEvent {
  /** global_position; bigint, hence a string. */
  position: string;
  /** The xid8 of the writing transaction; with `position` it orders the log for readers. */
  transactionId: string;
  streamId: string;
  version: number;
  type: string;
  schemaVersion: number;
  // The shape depends on `type` and `schemaVersion`; upcasters and handlers narrow it.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  data: any;
  metadata: EventMetadata;
  /** ISO 8601. */
  recordedAt: string;
}

/**
 * How event data changes shape over time (libs/domain's upcasters). Without a codec every event is
 * written as schema version 1 and read back exactly as stored.
 */
export interface EventCodec {
  /** The schema version new events of this type are written with. */
  schemaVersionOf(type: string): number;
  /** Turns data stored under an older schema version into today's shape. */
  upcast(type: string, schemaVersion: number, data: unknown): unknown;
}

/** Where a reader of the whole log stopped: the last event it has seen. */
export interface Checkpoint {
  transactionId: string;
  position: string;
}

/** The stream moved on since the caller read it: reload, decide again, retry. */
export class WrongExpectedVersionError extends Error {
  override name = 'WrongExpectedVersionError';

  constructor(
    readonly streamId: string,
    readonly expectedVersion: number,
    readonly actualVersion?: number,
  ) {
    super(
      `Stream ${streamId} was expected at version ${expectedVersion}` +
        (actualVersion === undefined
          ? ', but another writer got there first'
          : `, but is at ${actualVersion}`),
    );
  }
}

/** One stream's part of an appendStreams statement. */
export interface StreamAppend {
  streamId: string;
  /** The stream version the events were decided on (0: the stream must not exist yet). */
  expectedVersion: number;
  events: NewEvent[];
  metadata: EventMetadata;
  /** When the events happened (ISO 8601); by default the transaction's start, now(). */
  recordedAt?: string;
  /**
   * Read-model rows that commit with the events, in the same statement, written only if this
   * stream's events were (read-model.ts); a column marked `position` gets the last event's.
   */
  rows?: ReadModelRows[];
}

/**
 * The events a transaction will append to a stream, as known before it opens: enough to make the
 * keys they will be sealed with (EventStore.withTransactionFor), whatever version they go at.
 */
export type StreamEvents = Pick<StreamAppend, 'streamId' | 'events'>;

/**
 * Encryption of event data at rest (backend/src/patient-data): `seal` turns appends into what is
 * stored, `open` turns stored data back, in place, before upcasting. Without one, data is
 * stored as given.
 */
export interface EventCipher {
  seal(appends: StreamAppend[]): Promise<StreamAppend[]>;
  /**
   * Makes or loads now the keys that `seal` will need for `appends`, and keeps them at hand until
   * the function it answers is called.
   */
  prepare(appends: StreamEvents[]): Promise<() => void>;
  /** Opens `events` in place; `queryRunner`: the transaction they were read in, to read keys in. */
  open(events: RecordedEvent[], queryRunner?: QueryRunner): Promise<void>;
}
