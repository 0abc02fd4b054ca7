// Preloaded into an API process by a bench (NODE_OPTIONS=--require …; Node 20 refuses --cpu-prof
// there). Each signal opens a window, and the same signal again closes it:
// - SIGUSR2: a CPU profile, written to CPU_PROFILE_FILE;
// - SIGWINCH: no profile (a profiler's own pauses would sit in the latencies being measured),
//   only the process's pauses, written as JSON to `${CPU_PROFILE_FILE}.pauses.json`: its garbage
//   collections by kind (count, total and longest ms), when each mark-compact began (epoch ms), and
//   its event loop's delay (p50, p99, max); and, on the same clock, when each POST arrived and when
//   its answer ended, and when the event loop stopped for more than STOP_MS and for how long.
// A SIGUSR2 window writes the pauses file too.
/* eslint-disable @typescript-eslint/no-require-imports -- preloaded by --require, hence CommonJS */
const { Session } = require('node:inspector');
const { writeFileSync } = require('node:fs');
const { PerformanceObserver, monitorEventLoopDelay, constants } = require('node:perf_hooks');
const http = require('node:http');

const GC_KINDS = {
  [constants.NODE_PERFORMANCE_GC_MINOR]: 'scavenge',
  [constants.NODE_PERFORMANCE_GC_MAJOR]: 'mark-compact',
  [constants.NODE_PERFORMANCE_GC_INCREMENTAL]: 'incremental marking',
  [constants.NODE_PERFORMANCE_GC_WEAKCB]: 'weak callbacks',
};

/** The event loop delay monitor's timer; what it records includes this interval, taken off below. */
const LOOP_DELAY_RESOLUTION_MS = 10;
/** A turn of the timer more than this much later than due is a stop of the event loop. */
const STOP_MS = 10;
const STOP_TIMER_MS = 10;

/** Now on the wall clock, as a fraction of a millisecond: what the benches' processes share. */
const wallNow = () => performance.timeOrigin + performance.now();

const session = new Session();
session.connect();

/** The pauses of the open window; undefined while none is open. */
let pauses;
function countCollections(entries) {
  for (const entry of entries) {
    const kind = GC_KINDS[entry.detail?.kind] ?? 'other';
    const sum = (pauses.gc[kind] ??= { count: 0, totalMs: 0, maxMs: 0 });
    sum.count++;
    sum.totalMs += entry.duration;
    sum.maxMs = Math.max(sum.maxMs, entry.duration);
    // When, on the wall clock the benches' own processes share, so their slow answers can be set beside it.
    if (kind === 'mark-compact') pauses.markCompacts.push(performance.timeOrigin + entry.startTime);
  }
}

const gcObserver = new PerformanceObserver((list) => {
  // Entries are delivered later than the collections: those still queued are taken at the close.
  if (pauses) countCollections(list.getEntries());
});

// Each request the server emits while a window is open: its arrival, then its answer's end.
const emit = http.Server.prototype.emit;
http.Server.prototype.emit = function (type, request, response) {
  if (type === 'request' && pauses && request.method === 'POST') {
    const times = [wallNow(), null];
    pauses.requests.push(times);
    response.once('finish', () => (times[1] = wallNow()));
  }
  return emit.apply(this, arguments);
};

function openPauses() {
  const loopDelay = monitorEventLoopDelay({ resolution: LOOP_DELAY_RESOLUTION_MS });
  loopDelay.enable();
  let last = wallNow();
  const stops = [];
  const stopTimer = setInterval(() => {
    const now = wallNow();
    if (now - last > STOP_TIMER_MS + STOP_MS) stops.push([last, now - last - STOP_TIMER_MS]);
    last = now;
  }, STOP_TIMER_MS);
  pauses = {
    gc: {},
    markCompacts: [],
    requests: [],
    stops,
    stopTimer,
    loopDelay,
    openedAt: performance.now(),
  };
  gcObserver.observe({ entryTypes: ['gc'] });
}

function closePauses() {
  countCollections(gcObserver.takeRecords());
  gcObserver.disconnect();
  const { gc, markCompacts, requests, stops, stopTimer, loopDelay, openedAt } = pauses;
  clearInterval(stopTimer);
  loopDelay.disable();
  pauses = undefined;
  const ms = (ns) => Math.max(0, Math.round(ns / 1e4) / 100 - LOOP_DELAY_RESOLUTION_MS);
  writeFileSync(
    `${process.env.CPU_PROFILE_FILE}.pauses.json`,
    JSON.stringify({
      seconds: (performance.now() - openedAt) / 1000,
      gc,
      markCompacts,
      requests,
      stops,
      loopDelay: {
        p50: ms(loopDelay.percentile(50)),
        p99: ms(loopDelay.percentile(99)),
        max: ms(loopDelay.max),
      },
    }),
  );
}

let profiling = false;
process.on('SIGUSR2', () => {
  if (!profiling) {
    profiling = true;
    openPauses();
    session.post('Profiler.enable', () => session.post('Profiler.start'));
    return;
  }
  profiling = false;
  closePauses();
  session.post('Profiler.stop', (error, result) => {
    if (!error) writeFileSync(process.env.CPU_PROFILE_FILE, JSON.stringify(result.profile));
  });
});
process.on('SIGWINCH', () => (pauses ? closePauses() : openPauses()));
