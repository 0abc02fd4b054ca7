import { Injectable } from '@nestjs/common';
import type { ServerResponse } from 'node:http';

/**
 * Whether this process is draining: from SIGTERM on, readiness answers 503 so a proxy or an
 * orchestrator stops sending traffic, and every answer carries `Connection: close` so no
 * keep-alive connection (a proxy's pool included) holds the shutdown open or gets a request
 * sent just as it is closed. Set by main.ts, read by health; the hooks are added in app.ts.
 */
@Injectable()
export class ProcessLifecycle {
  private drainingSince: number | undefined;

  get draining(): boolean {
    return this.drainingSince !== undefined;
  }

  beginDrain(): void {
    if (this.draining) return;
    this.drainingSince = Date.now();
  }

  /** An onRequest hook: `Connection: close` on every answer to a request that came while draining. */
  readonly closeConnectionsWhileDraining = (
    _request: unknown,
    reply: { raw: ServerResponse },
    done: () => void,
  ): void => {
    if (this.draining) reply.raw.setHeader('Connection', 'close');
    done();
  };

  /**
   * An onSend hook: the same for the answers of requests that were in progress when the drain
   * began. Asked at the answer, not tracked per request: a set of the responses in progress, each
   * taken out on its 'close', made every request's objects last into the old generation, most of
   * what a command left there (docs/performance.md, "The responses in progress, no longer kept").
   */
  readonly closeAnsweredConnectionsWhileDraining = (
    _request: unknown,
    reply: { raw: ServerResponse },
    payload: unknown,
    done: (error: null, payload: unknown) => void,
  ): void => {
    if (this.draining && !reply.raw.headersSent) reply.raw.setHeader('Connection', 'close');
    done(null, payload);
  };
}
