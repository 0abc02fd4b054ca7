import type { Writable } from 'node:stream';

/** Waits until a response that refused a write can take more, or is closed (then nothing will). */
export function drained(response: Writable): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      response.off('drain', done);
      response.off('close', done);
      resolve();
    };
    response.on('drain', done);
    response.on('close', done);
  });
}
