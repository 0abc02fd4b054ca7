import type { ChildProcess } from 'node:child_process';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { Session } from 'node:inspector';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { Client } from 'pg';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string };
  hitCount?: number;
}

/** Where a profile's samples fall: "pg (node_modules)", "app: cases/…", "(garbage collector)", … */
function placeOf({ functionName, url }: ProfileNode['callFrame']): string {
  if (!url) return functionName.startsWith('(') ? functionName : '(native)';
  const module = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url)?.[1];
  if (module) return module;
  if (url.startsWith('node:')) return url.split('/')[0];
  const own = /(backend\/dist|libs\/domain\/dist)\/(.*)$/.exec(url);
  return own ? `app: ${own[2]}` : url;
}

/** A frame of a CPU profile: the function and the script (or node: module) it runs in. */
export type ProfileFrame = ProfileNode['callFrame'];

/** How `cpuProfileSummary` sums a profile and writes each sum; each part defaults to the usual. */
export interface ProfileSummaryOptions {
  /** The place a frame's samples count for (default: its package, node: module or our file). */
  classify?: (frame: ProfileFrame) => string;
  /** What follows a place's or function's name: by default its share of the busy samples. */
  label?: (hits: number, busy: number) => string;
}

const shareOfBusy = (hits: number, busy: number) => `${((100 * hits) / busy).toFixed(0)}%`;

/**
 * A CPU profile (.cpuprofile JSON) summed by place (package, node: module or our file, unless
 * `classify` says otherwise) and by function, as shares of the busy samples ((idle) left out);
 * the top `top` of each.
 */
export function cpuProfileSummary(
  file: string,
  top = 8,
  { classify = placeOf, label = shareOfBusy }: ProfileSummaryOptions = {},
): { places: string; functions: string } {
  const { nodes }: { nodes: ProfileNode[] } = JSON.parse(readFileSync(file, 'utf8'));
  const places = new Map<string, number>();
  const functions = new Map<string, number>();
  let busy = 0;
  for (const node of nodes) {
    const hits = node.hitCount ?? 0;
    if (!hits || node.callFrame.functionName === '(idle)') continue;
    busy += hits;
    const place = classify(node.callFrame);
    places.set(place, (places.get(place) ?? 0) + hits);
    const name = `${node.callFrame.functionName || '(anonymous)'} [${place}]`;
    functions.set(name, (functions.get(name) ?? 0) + hits);
  }
  const share = (counts: Map<string, number>) =>
    [...counts]
      .sort((a, b) => b[1] - a[1])
      .slice(0, top)
      .map(([name, hits]) => `${name} ${label(hits, busy)}`)
      .join(', ');
  return { places: share(places), functions: share(functions) };
}

/**
 * Closes the CPU profile window of an API process (SIGUSR2 to bench/support/cpu-profile.cjs) and
 * sums up the profile once the process has written it whole.
 */
export function closeProfileWindow(
  child: ChildProcess,
  profileFile: string,
): Promise<{ places: string; functions: string }> {
  return signalAndRead(child, 'SIGUSR2', profileFile, () => cpuProfileSummary(profileFile));
}

/** What an API process saw in a pauses window, on the wall clock (epoch ms) its benches share. */
export interface PausesTimeline {
  /** When each mark-compact began. */
  markCompacts: number[];
  /** Each POST's arrival and its answer's end (null: not ended when the window closed). */
  requests: [number, number | null][];
  /** When the event loop stopped, and for how many ms. */
  stops: [number, number][];
}

/**
 * Closes the pauses-only window of an API process (SIGWINCH to bench/support/cpu-profile.cjs) and
 * sums up what it counted, once written to `${profileFile}.pauses.json`: its garbage collections by
 * kind and its event loop's delay; and its timeline.
 */
export function closePausesWindow(
  child: ChildProcess,
  profileFile: string,
): Promise<{ text: string } & PausesTimeline> {
  const file = `${profileFile}.pauses.json`;
  return signalAndRead(child, 'SIGWINCH', file, () => {
    const pauses = JSON.parse(readFileSync(file, 'utf8'));
    return {
      text: pausesSummary(pauses),
      markCompacts: pauses.markCompacts,
      requests: pauses.requests,
      stops: pauses.stops,
    };
  });
}

/**
 * The process writes `file` when `signal` reaches it, so the old file goes first and `read` is
 * tried until the new one is whole.
 */
async function signalAndRead<T>(
  child: ChildProcess,
  signal: NodeJS.Signals,
  file: string,
  read: () => T,
): Promise<T> {
  rmSync(file, { force: true });
  child.kill(signal);
  const deadline = Date.now() + 30_000;
  for (;;) {
    try {
      return read();
    } catch (error) {
      if (Date.now() > deadline) throw error;
      await sleep(50);
    }
  }
}

function pausesSummary({
  seconds,
  gc,
  loopDelay,
}: {
  seconds: number;
  gc: Record<string, { count: number; totalMs: number; maxMs: number }>;
  loopDelay: { p50: number; p99: number; max: number };
}): string {
  const collections = Object.entries(gc)
    .sort((a, b) => b[1].totalMs - a[1].totalMs)
    .map(
      ([kind, { count, totalMs, maxMs }]) =>
        `${count} ${kind} (${Math.round(totalMs)} ms in all, longest ${maxMs.toFixed(1)} ms)`,
    );
  return (
    `in ${seconds.toFixed(1)} s: ${collections.join(', ') || 'no garbage collection'}; ` +
    `event loop delay p50 ${loopDelay.p50.toFixed(1)} ms, p99 ${loopDelay.p99.toFixed(1)} ms, ` +
    `max ${loopDelay.max.toFixed(1)} ms`
  );
}

/**
 * Samples what the database's sessions are doing every `everyMs` until stopped: the share of
 * samples of active sessions per wait event ("CPU" when running, no wait), from pg_stat_activity.
 */
export function sampleWaitEvents(databaseUrl: string, everyMs = 10) {
  const counts = new Map<string, number>();
  let stopping = false;
  let total = 0;
  const client = new Client({ connectionString: databaseUrl });
  const running = (async () => {
    await client.connect();
    while (!stopping) {
      const { rows } = await client.query(
        `SELECT coalesce(wait_event_type || ':' || wait_event, 'CPU') AS what, count(*)::int AS n
           FROM pg_stat_activity
          WHERE (datname = current_database() AND state = 'active' AND pid <> pg_backend_pid())
             OR backend_type IN ('walwriter', 'checkpointer', 'background writer')
                AND wait_event_type IS DISTINCT FROM 'Activity'
          GROUP BY 1`,
      );
      for (const { what, n } of rows) counts.set(what, (counts.get(what) ?? 0) + n);
      total++;
      await new Promise((resolve) => setTimeout(resolve, everyMs));
    }
    await client.end();
  })();
  return async (top = 6): Promise<string> => {
    stopping = true;
    await running;
    return [...counts]
      .sort((a, b) => b[1] - a[1])
      .slice(0, top)
      .map(([what, n]) => `${what} ${(n / total).toFixed(1)}`)
      .join(', ');
  };
}

/** A CPU profile of this process while `work` runs, summed as cpuProfileSummary does. */
export async function profileThisProcess<T>(
  work: () => Promise<T>,
): Promise<{ result: T; profile: { places: string; functions: string } }> {
  const session = new Session();
  session.connect();
  const post = (method: string) =>
    new Promise<{ profile?: unknown }>((resolve, reject) =>
      session.post(method, (error, answer) =>
        error ? reject(error) : resolve(answer as { profile?: unknown }),
      ),
    );
  await post('Profiler.enable');
  await post('Profiler.start');
  const result = await work().finally(() => undefined);
  const { profile } = await post('Profiler.stop');
  session.disconnect();
  const file = join(tmpdir(), `af-bench-profile-${process.pid}-${Date.now()}.cpuprofile`);
  writeFileSync(file, JSON.stringify(profile));
  try {
    return { result, profile: cpuProfileSummary(file) };
  } finally {
    rmSync(file, { force: true });
  }
}
