import { readFileSync } from 'node:fs';

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
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
}
