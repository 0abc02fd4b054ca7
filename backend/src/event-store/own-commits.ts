import type { Checkpoint } from './event-types.js';
import type { EventRow } from './stored-rows.js';

/** Events kept at most, and characters of their JSON at most: the oldest go first. */
export const OWN_COMMITS_MAX_EVENTS = 10_000;
export const OWN_COMMITS_MAX_CHARS = 16 * 1024 * 1024;

/**
 * One committed event of this process as it is stored: its keys, and its data and metadata as the
 * JSON the append wrote (plaintext: before sealing). JSON rather than the caller's objects, which
 * the caller may change after the append; parsed again it is what a read of the row gives.
 */
export interface OwnCommit {
  position: string;
  transactionId: string;
  /** transactionId as a number, to compare keys without parsing on every read. */
  transaction: bigint;
  streamId: string;
  version: number;
  type: string;
  /** The schema version stored (a reader upcasts from it). */
  schemaVersion: number;
  data: string;
  metadata: string;
  recordedAt: string;
}

/**
 * The recent committed events this process appended, by position: what a reader of the whole log
 * in this process need not read back from the database (EventStore.readAll with `ownFromMemory`).
 * Only events whose statement committed go in: an append in a caller's transaction, which may
 * still roll back, never does. Bounded; the oldest are evicted first.
 */
export class OwnCommits {
  private readonly byPosition = new Map<string, OwnCommit>();
  private chars = 0;
  private wants: () => boolean = () => false;

  constructor(
    private readonly maxEvents = OWN_COMMITS_MAX_EVENTS,
    private readonly maxChars = OWN_COMMITS_MAX_CHARS,
  ) {}

  get size(): number {
    return this.byPosition.size;
  }

  /**
   * Keeps commits only while `predicate` says a reader wants them (the live tailer: while a stream
   * is open). Until a reader says so, nothing is kept; what was kept goes once it stops wanting.
   */
  keepWhile(predicate: () => boolean): void {
    this.wants = predicate;
  }

  /** Whether commits are kept now; if not, what was kept is forgotten. */
  wanted(): boolean {
    if (this.wants()) return true;
    if (this.byPosition.size) {
      this.byPosition.clear();
      this.chars = 0;
    }
    return false;
  }

  /** After the commit of the statement that wrote them. */
  add(commits: OwnCommit[]): void {
    for (const commit of commits) {
      this.byPosition.set(commit.position, commit);
      this.chars += commit.data.length + commit.metadata.length;
    }
    while (this.byPosition.size > this.maxEvents || (this.chars > this.maxChars && this.byPosition.size)) {
      const [position, oldest] = this.byPosition.entries().next().value!;
      this.remove(position, oldest);
    }
  }

  /** Forgets a stream's events (an erased case: its plaintext must not outlive its key here). */
  forgetStream(streamId: string): void {
    for (const [position, commit] of this.byPosition)
      if (commit.streamId === streamId) this.remove(position, commit);
  }

  private remove(position: string, commit: OwnCommit): void {
    this.byPosition.delete(position);
    this.chars -= commit.data.length + commit.metadata.length;
  }

  /**
   * Forgets the events at or before `through` in commit-safe order: the one reader reads forward,
   * so it never asks for them again, and what it reads next is found without going past them.
   */
  forgetThrough(through: Checkpoint | null): void {
    if (!through || !this.byPosition.size) return;
    const key = keyOf(through);
    for (const [position, commit] of this.byPosition)
      if (!isAfter(commit, key)) this.remove(position, commit);
  }

  /**
   * The first `limit` events after `after` in commit-safe order (transaction id, position), by
   * position: no more can be among the next `limit` events a commit-safe read returns.
   */
  after(after: Checkpoint | null, limit: number): Map<string, OwnCommit> {
    const key = keyOf(after);
    const later: OwnCommit[] = [];
    for (const commit of this.byPosition.values()) if (isAfter(commit, key)) later.push(commit);
    if (later.length > limit) {
      later.sort((x, y) =>
        x.transaction !== y.transaction
          ? x.transaction < y.transaction
            ? -1
            : 1
          : BigInt(x.position) < BigInt(y.position)
            ? -1
            : 1,
      );
      later.length = limit;
    }
    return new Map(later.map((commit) => [commit.position, commit]));
  }
}

/** A checkpoint's key, as a commit's is compared (null: before the first event). */
function keyOf(checkpoint: Checkpoint | null): { transaction: bigint; position: bigint } {
  return {
    transaction: BigInt(checkpoint?.transactionId ?? '0'),
    position: BigInt(checkpoint?.position ?? '0'),
  };
}

/** Whether `commit` comes after `key` in commit-safe order (transaction id, position). */
function isAfter(commit: OwnCommit, key: { transaction: bigint; position: bigint }): boolean {
  return (
    commit.transaction > key.transaction ||
    (commit.transaction === key.transaction && BigInt(commit.position) > key.position)
  );
}

/** A stored row as it was written, rebuilt from memory (data and metadata parsed anew). */
export function ownRow(commit: OwnCommit): EventRow {
  return {
    position: commit.position,
    transaction_id: commit.transactionId,
    stream_id: commit.streamId,
    stream_version: commit.version,
    type: commit.type,
    schema_version: commit.schemaVersion,
    data: JSON.parse(commit.data),
    metadata: JSON.parse(commit.metadata),
    recorded_at: commit.recordedAt,
  };
}
