import { readdirSync, readFileSync } from 'node:fs';

/** Closed-loop load: `clients` callers each repeat `call` until `seconds` have passed. */
export async function load(seconds: number, clients: number, call: (client: number) => Promise<unknown>) {
  const latencies: number[] = [];
  const deadline = Date.now() + seconds * 1000;
  await Promise.all(
    Array.from({ length: clients }, async (_, client) => {
      while (Date.now() < deadline) {
        const started = performance.now();
        await call(client);
        latencies.push(performance.now() - started);
      }
    }),
  );
  return { perSecond: Math.round(latencies.length / seconds), ...summarise(latencies) };
}

export function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

/** p50 and p99 (ms, one decimal) of unsorted samples. */
export function summarise(samples: number[]): { count: number; p50: number; p99: number } {
  const sorted = [...samples].sort((a, b) => a - b);
  return {
    count: sorted.length,
    p50: +percentile(sorted, 50).toFixed(1),
    p99: +percentile(sorted, 99).toFixed(1),
  };
}

/** 12,345 */
export const thousands = (n: number) => Math.round(n).toLocaleString('en-US');

/** CPU seconds (user + system) a process has used so far, from /proc (Linux; USER_HZ = 100). */
export function cpuSeconds(pid: number): number {
  return statCpuSeconds(readFileSync(`/proc/${pid}/stat`, 'utf8'));
}

/**
 * The CPU seconds of the process's main thread alone (its JavaScript); the rest of cpuSeconds is
 * its other threads': V8's optimising compiler and GC helpers, libuv's pool.
 */
export function mainThreadCpuSeconds(pid: number): number {
  return statCpuSeconds(readFileSync(`/proc/${pid}/task/${pid}/stat`, 'utf8'));
}

/**
 * The user + system CPU seconds of a /proc/<pid>/stat line (fields after the command's name);
 * `ended`: with those of its children that have ended and been waited for.
 */
function statCpuSeconds(stat: string, ended = false): number {
  const fields = stat.slice(stat.lastIndexOf(') ') + 2).split(' ');
  const own = Number(fields[11]) + Number(fields[12]);
  return (ended ? own + Number(fields[13]) + Number(fields[14]) : own) / 100;
}

/**
 * CPU seconds used so far by every process whose command name is `name` (`postgres`,
 * `redis-server`), per process id: take two readings and subtract with `cpuSecondsSince`, so a
 * process that started or ended between them does not count its whole life. `ended`: each with
 * its ended children's (serverCpuSeconds).
 */
export function cpuSecondsByName(name: string, ended = false): Map<number, number> {
  const seconds = new Map<number, number>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      if (stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')')) !== name) continue;
      seconds.set(Number(entry), statCpuSeconds(stat, ended));
    } catch {
      // The process ended while /proc was read.
    }
  }
  return seconds;
}

/**
 * CPU seconds used so far by a server whose processes are named `name`, counting its children
 * that have ended: PostgreSQL's postmaster holds the CPU of the backends it has reaped. The
 * difference of two readings therefore includes the connections a client opened and closed in
 * between, which cpuSecondsSince cannot see.
 */
export function serverCpuSeconds(name: string): number {
  let sum = 0;
  for (const seconds of cpuSecondsByName(name, true).values()) sum += seconds;
  return sum;
}

/** The CPU seconds the processes of `before` that are still alive used since it was taken. */
export function cpuSecondsSince(before: Map<number, number>, name: string): number {
  let sum = 0;
  for (const [pid, seconds] of cpuSecondsByName(name)) {
    const earlier = before.get(pid);
    if (earlier !== undefined) sum += seconds - earlier;
  }
  return sum;
}
