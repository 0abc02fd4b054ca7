import { fail } from './env-values.js';

/** Tuning of the live stream, read once at start from the environment. */
export interface LiveOptions {
  /** LIVE_HEARTBEAT_MS: how often every stream gets a `: heartbeat` comment. */
  heartbeatMs: number;
  /** LIVE_POLL_MS: the fallback poll of the log, for a notification that got lost. */
  pollMs: number;
  /** LIVE_BATCH_SIZE: events read from the log per query. */
  batchSize: number;
  /** LIVE_MAX_QUEUE_BYTES: output a client may leave unread before it is dropped. */
  maxQueueBytes: number;
  /**
   * LIVE_REPLAY_WINDOW: how many of the most recent log entries the tailer remembers. A client
   * resuming from one of them is replayed what it missed; from anything older it gets a full
   * refresh instead, so a reconnect never reads more of the log than this.
   */
  replayWindow: number;
  /** LIVE_STREAMS_PER_SESSION: open streams per session in this process; a new one closes the oldest. */
  streamsPerSession: number;
  /** The `retry:` the browser waits before reconnecting. */
  retryMs: number;
}

export const LIVE_OPTIONS = Symbol('LIVE_OPTIONS');

const DEFAULTS: LiveOptions = {
  heartbeatMs: 20_000,
  pollMs: 1_000,
  batchSize: 500,
  maxQueueBytes: 8 * 1024 * 1024,
  replayWindow: 10_000,
  streamsPerSession: 5,
  retryMs: 2_000,
};

const VARIABLES: Record<Exclude<keyof LiveOptions, 'retryMs'>, [name: string, min: number, max: number]> = {
  heartbeatMs: ['LIVE_HEARTBEAT_MS', 10, 25_000],
  pollMs: ['LIVE_POLL_MS', 10, 3_600_000],
  batchSize: ['LIVE_BATCH_SIZE', 1, 10_000],
  maxQueueBytes: ['LIVE_MAX_QUEUE_BYTES', 1024, 1024 * 1024 * 1024],
  replayWindow: ['LIVE_REPLAY_WINDOW', 1, 1_000_000],
  streamsPerSession: ['LIVE_STREAMS_PER_SESSION', 1, 100_000],
};

/** Read by loadConfig, once at start: a wrong value stops the boot naming its variable. */
export function liveOptionsFromEnv(env: NodeJS.ProcessEnv): LiveOptions {
  const options = { ...DEFAULTS };
  for (const [key, [name, min, max]] of Object.entries(VARIABLES) as [
    keyof typeof VARIABLES,
    [string, number, number],
  ][]) {
    const raw = env[name]?.trim();
    if (!raw) continue;
    const value = Number(raw);
    if (!Number.isInteger(value) || value < min || value > max)
      fail(name, `must be an integer from ${min} to ${max}, got "${raw}"`);
    options[key] = value;
  }
  return options;
}
