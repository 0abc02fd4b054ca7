// The HTTP stack's floor under the commands bench's clients: a server that answers POST /x with a
// small JSON and does nothing else, in a process of its own. `nest`: NestJS on its Fastify adapter
// as the API runs it (one controller, Fastify's JSON body parser); `node`: node:http alone;
// `node-pg`: node:http that commits each body as one row in PostgreSQL (DATABASE_URL) before it
// answers, the requests that arrive during a commit going out together in the next one (group
// commit on one connection, as the API's appends do): the least a durable command costs here. It
// prints its port on stdout once listening.
/* eslint-disable @typescript-eslint/no-require-imports -- plain JavaScript run by node as is, hence CommonJS */
const mode = process.argv[2];

const answer = (body) => ({ ok: true, id: 'CA-0000', notes: [body] });

/** One INSERT of every row waiting, then the next batch; `append` resolves once its row is committed. */
async function groupCommit() {
  const { Client } = require('pg');
  const client = new Client({ connectionString: process.env.DATABASE_URL });
  await client.connect();
  await client.query(
    'CREATE TABLE IF NOT EXISTS bench_floor_events (id bigserial PRIMARY KEY, data jsonb NOT NULL)',
  );
  let waiting = [];
  let flushing = false;
  async function flush() {
    flushing = true;
    while (waiting.length > 0) {
      const batch = waiting;
      waiting = [];
      try {
        await client.query('INSERT INTO bench_floor_events (data) SELECT unnest($1::jsonb[])', [
          batch.map((entry) => entry.text),
        ]);
        for (const entry of batch) entry.resolve();
      } catch (error) {
        for (const entry of batch) entry.reject(error);
      }
    }
    flushing = false;
  }
  return (text) =>
    new Promise((resolve, reject) => {
      waiting.push({ text, resolve, reject });
      if (!flushing) void flush();
    });
}

async function main() {
  if (mode === 'node' || mode === 'node-pg') {
    const http = require('node:http');
    const append = mode === 'node-pg' ? await groupCommit() : async () => {};
    const server = http.createServer((request, response) => {
      const chunks = [];
      request.on('data', (chunk) => chunks.push(chunk));
      request.on('end', () => {
        const body = Buffer.concat(chunks).toString() || 'null';
        append(body).then(
          () => {
            const text = JSON.stringify(answer(JSON.parse(body)));
            response.writeHead(200, {
              'content-type': 'application/json',
              'content-length': Buffer.byteLength(text),
            });
            response.end(text);
          },
          (error) => {
            response.writeHead(500);
            response.end(String(error));
          },
        );
      });
    });
    server.listen(0, '127.0.0.1', () => process.stdout.write(`${server.address().port}\n`));
    return;
  }
  require('reflect-metadata');
  const { NestFactory } = require('@nestjs/core');
  const { Body, Controller, Module, Post } = require('@nestjs/common');
  // Decorators applied by hand: this file runs as plain JavaScript.
  class FloorController {
    note(body) {
      return answer(body);
    }
  }
  Post('/x')(
    FloorController.prototype,
    'note',
    Object.getOwnPropertyDescriptor(FloorController.prototype, 'note'),
  );
  Body()(FloorController.prototype, 'note', 0);
  Controller()(FloorController);
  class FloorModule {}
  Module({ controllers: [FloorController] })(FloorModule);
  const { FastifyAdapter } = require('@nestjs/platform-fastify');
  const app = await NestFactory.create(FloorModule, new FastifyAdapter(), { logger: false });
  await app.listen(0, '127.0.0.1');
  process.stdout.write(`${app.getHttpServer().address().port}\n`);
}

main().catch((error) => {
  process.stderr.write(`${error.stack}\n`);
  process.exit(1);
});
