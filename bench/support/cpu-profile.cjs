// Preloaded into an API process by a bench (NODE_OPTIONS=--require …; Node 20 refuses --cpu-prof
// there): the first SIGUSR2 starts a CPU profile, the next writes it to CPU_PROFILE_FILE.
/* eslint-disable @typescript-eslint/no-require-imports -- preloaded by --require, hence CommonJS */
const { Session } = require('node:inspector');
const { writeFileSync } = require('node:fs');

const session = new Session();
session.connect();
let running = false;
process.on('SIGUSR2', () => {
  if (!running) {
    running = true;
    session.post('Profiler.enable', () => session.post('Profiler.start'));
    return;
  }
  running = false;
  session.post('Profiler.stop', (error, result) => {
    if (!error) writeFileSync(process.env.CPU_PROFILE_FILE, JSON.stringify(result.profile));
  });
});
