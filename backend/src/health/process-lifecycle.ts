import { Injectable } from '@nestjs/common';
import type { ServerResponse } from 'node:http';

/**
 * Whether this process is draining: from SIGTERM on, readiness answers 503 so a proxy or an
 * orchestrator stops sending traffic, and every answer carries `Connection: close` so no
 * keep-alive connection (a proxy's pool included) holds the shutdown open or gets a request
 * sent just as it is closed. Set by main.ts, read by health; the hook is added in app.ts.
 */
@Injectable()
export class ProcessLifecycle {
  private drainingSince: number | undefined;
  /** Requests in progress: their answers, still to come, must close the connection too. */
  private readonly inProgress = new Set<ServerResponse>();

  get draining(): boolean {
    return this.drainingSince !== undefined;
  }

  beginDrain(): void {
    if (this.draining) return;
    this.drainingSince = Date.now();
    for (const response of this.inProgress)
      if (!response.headersSent) response.setHeader('Connection', 'close');
  }

  /** An onRequest hook: `Connection: close` on every answer given while draining. */
  readonly closeConnectionsWhileDraining = (
    _request: unknown,
    reply: { raw: ServerResponse },
    done: () => void,
  ): void => {
    const response = reply.raw;
    if (this.draining) {
      response.setHeader('Connection', 'close');
    } else {
      this.inProgress.add(response);
      response.once('close', () => this.inProgress.delete(response));
    }
    done();
  };
}
