/** What a rebuild reports while it runs and when it ends, and how it is started. */

export type RebuildState = 'idle' | 'running' | 'done' | 'failed';

export interface RebuildProgress {
  state: RebuildState;
  /** Events of the log replayed so far, including those a crashed run had done. */
  eventsDone: number;
  /** Events in the log when the rebuild started (more may arrive; the swap catches up on them). */
  eventsTotal: number;
  /** Replay rate of this run. */
  eventsPerSecond: number;
  /** Events a crashed earlier run had already replayed, when this run resumed it; else 0. */
  resumedFrom: number;
  startedAt: string | null;
  finishedAt: string | null;
  /** How long the swap's transaction held new commands back. */
  swapMs?: number;
  /**
   * How long this process's event loop sat idle during the run, with nothing to do but wait for
   * PostgreSQL: the rest of the run it was busy (in the API process, serving requests too).
   */
  idleMs?: number;
  error?: string;
}

export const IDLE_PROGRESS: RebuildProgress = {
  state: 'idle',
  eventsDone: 0,
  eventsTotal: 0,
  eventsPerSecond: 0,
  resumedFrom: 0,
  startedAt: null,
  finishedAt: null,
};

export interface RebuildOptions {
  /** Events per read. */
  batchSize?: number;
  /** At least this often the replayed rows are written with a checkpoint (0: after every read). */
  flushIntervalMs?: number;
  onProgress?: (progress: RebuildProgress) => void;
  /** States kept in memory at most (see DEFAULT_CACHE_LIMIT). */
  cacheLimit?: number;
  /** Wait for a rebuild running elsewhere to end, instead of failing at once. */
  wait?: boolean;
  /** Test hook: stop like a crash right after this many checkpointed bulk writes. */
  crashAfterWrites?: number;
}

export class RebuildAlreadyRunningError extends Error {
  override name = 'RebuildAlreadyRunningError';
  constructor() {
    super('Another rebuild of the read models is running.');
  }
}
