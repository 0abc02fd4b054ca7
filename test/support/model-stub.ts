import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ModelRequest {
  path: string;
  apiKey: string | undefined;
  body: any;
}

/** A local stand-in for the generative model's generateContent API that records what it was sent. */
export class ModelStub {
  readonly requests: ModelRequest[] = [];
  answer: { status: number; text: string } = {
    status: 200,
    text: 'No defects found. The aligner edges are smooth.',
  };
  private server?: Server;
  url = '';

  async start(): Promise<this> {
    this.server = createServer(async (request, response) => {
      const body = JSON.parse(await readBody(request));
      this.requests.push({
        path: request.url ?? '',
        apiKey: request.headers['x-goog-api-key'] as string,
        body,
      });
      response.writeHead(this.answer.status, { 'content-type': 'application/json' });
      response.end(
        this.answer.status === 200
          ? JSON.stringify({ candidates: [{ content: { parts: [{ text: this.answer.text }] } }] })
          : JSON.stringify({ error: { message: 'model unavailable' } }),
      );
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server!.address() as AddressInfo).port}`;
    return this;
  }

  stop(): Promise<void> {
    return new Promise((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }
}

function readBody(request: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    request.on('error', reject);
  });
}
