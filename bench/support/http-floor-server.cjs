// The HTTP stack's floor under the commands bench's clients: a server that answers POST /x with a
// small JSON and does nothing else, in a process of its own. `nest`: NestJS on its Express adapter
// as the API runs it (one controller, Nest's JSON body parser); `node`: node:http alone. It prints
// its port on stdout once listening.
/* eslint-disable @typescript-eslint/no-require-imports -- plain JavaScript run by node as is, hence CommonJS */
const mode = process.argv[2];

const answer = (body) => ({ ok: true, id: 'CA-0000', notes: [body] });

async function main() {
  if (mode === 'node') {
    const http = require('node:http');
    const server = http.createServer((request, response) => {
      const chunks = [];
      request.on('data', (chunk) => chunks.push(chunk));
      request.on('end', () => {
        const text = JSON.stringify(answer(JSON.parse(Buffer.concat(chunks).toString() || 'null')));
        response.writeHead(200, {
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(text),
        });
        response.end(text);
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
  const app = await NestFactory.create(FloorModule, { logger: false });
  await app.listen(0, '127.0.0.1');
  process.stdout.write(`${app.getHttpServer().address().port}\n`);
}

main().catch((error) => {
  process.stderr.write(`${error.stack}\n`);
  process.exit(1);
});
