import { BadRequestException, HttpException, PayloadTooLargeException } from '@nestjs/common';
import busboy from 'busboy';
import { FILE_TEXTS } from '@alignerflow/domain';
import { randomUUID } from 'node:crypto';
import { once } from 'node:events';
import { createWriteStream } from 'node:fs';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { SNIFF_BYTES, uploadCap, type UploadKind } from './file-types.js';

export interface ReceivedFile {
  /** The temporary file in the store's incoming folder; the caller adopts or removes it. */
  path: string;
  originalname: string;
  size: number;
}

export interface ReceivedForm {
  file?: ReceivedFile;
  fields: Record<string, string>;
}

/** The form of POST /upload: one file and a few short fields (type, caseId). */
const FORM_LIMITS = { files: 1, fields: 4, parts: 5, fieldSize: 1024, fieldNameSize: 100, headerPairs: 20 };

/**
 * Reads an upload's multipart body into a temporary file, never writing more than the limit its
 * first bytes allow (see uploadCap). A refused or interrupted upload leaves no file behind, and a
 * refusal stops reading the request: the rest of the body is neither stored nor drained, and the
 * answer asks for the connection to be closed, so the client stops sending.
 */
export async function receiveUpload(
  request: FastifyRequest,
  reply: FastifyReply,
  tempDir: string,
): Promise<ReceivedForm> {
  const req = request.raw;
  let parser: busboy.Busboy;
  try {
    parser = busboy({ headers: req.headers, limits: FORM_LIMITS });
  } catch {
    // Not multipart at all (the front refuses those earlier; this is the route's own answer).
    throw new BadRequestException({ error: FILE_TEXTS.noFile });
  }
  const fields: Record<string, string> = Object.create(null) as Record<string, string>;
  let writing: Promise<ReceivedFile> | undefined;
  let fileStream: Readable | undefined;
  let stopped = false;

  const outcome = new Promise<ReceivedForm>((resolve, reject) => {
    const stop = (error: unknown) => {
      if (stopped) return;
      stopped = true;
      req.unpipe(parser);
      req.pause();
      // Reading stops here; a kept-alive connection would have to read the rest of the body first.
      if (!reply.raw.headersSent) reply.raw.setHeader('Connection', 'close');
      fileStream?.destroy();
      // Whatever the parser still says after this is of no interest.
      parser.removeAllListeners().on('error', () => {});
      reject(error);
    };
    parser.on('field', (name, value, info) => {
      if (info.valueTruncated || info.nameTruncated)
        stop(new BadRequestException({ error: FILE_TEXTS.badForm }));
      else fields[name] = value;
    });
    parser.on('file', (name, stream, info) => {
      if (name !== 'file' || writing) {
        stream.resume();
        return stop(new BadRequestException({ error: FILE_TEXTS.badForm }));
      }
      if (!info.filename) {
        // A file input left empty: no file part, as far as the route is concerned.
        stream.resume();
        return;
      }
      fileStream = stream;
      writing = writeCapped(stream, join(tempDir, randomUUID()), info.filename, fields.type, stop);
      writing.catch(stop);
    });
    for (const limit of ['filesLimit', 'fieldsLimit', 'partsLimit'] as const)
      parser.on(limit, () => stop(new BadRequestException({ error: FILE_TEXTS.badForm })));
    parser.on('error', () => stop(new BadRequestException({ error: FILE_TEXTS.badForm })));
    parser.on('close', () => {
      if (!writing) return resolve({ fields });
      writing.then((file) => {
        if (!stopped) resolve({ file, fields });
      }, stop);
    });
    // A client that goes away mid-upload: the partial file is removed by writeCapped's failure.
    req.on('close', () => {
      if (!req.readableEnded) stop(new BadRequestException({ error: FILE_TEXTS.interrupted }));
    });
    req.pipe(parser);
  });

  try {
    return await outcome;
  } catch (error) {
    // A file still being written fails with the request (stop destroyed its stream): wait for its
    // clean-up, and remove one already written, so nothing of a refused upload outlives the answer.
    if (writing)
      await writing.then(
        (file) => rm(file.path, { force: true }),
        () => undefined,
      );
    throw error;
  }
}

/** Writes one file part, applying the limit decided from its first bytes. */
async function writeCapped(
  stream: Readable,
  path: string,
  originalname: string,
  declaredType: string | undefined,
  stopReading: (error: unknown) => void,
): Promise<ReceivedFile> {
  const out = createWriteStream(path, { flags: 'wx' });
  let size = 0;
  let cap: { limit: number; kind: UploadKind } | undefined;
  let head: Buffer[] = [];
  const write = async (bytes: Buffer) => {
    if (size > cap!.limit) throw new PayloadTooLargeException({ error: FILE_TEXTS.tooLarge(cap!.kind) });
    if (!out.write(bytes)) await once(out, 'drain');
  };
  try {
    for await (const chunk of stream as AsyncIterable<Buffer>) {
      size += chunk.length;
      if (cap) {
        await write(chunk);
        continue;
      }
      head.push(chunk);
      if (size < SNIFF_BYTES) continue;
      cap = capOf(Buffer.concat(head), originalname, declaredType);
      await write(Buffer.concat(head));
      head = [];
    }
    if (!cap) {
      cap = capOf(Buffer.concat(head), originalname, declaredType);
      await write(Buffer.concat(head));
    }
    out.end();
    await once(out, 'close');
    return { path, originalname, size };
  } catch (caught) {
    const error =
      caught instanceof HttpException ? caught : new BadRequestException({ error: FILE_TEXTS.interrupted });
    stopReading(error);
    stream.destroy();
    if (!out.closed) {
      const closed = once(out, 'close').catch(() => undefined);
      out.destroy();
      await closed;
    }
    await rm(path, { force: true });
    throw error;
  }
}

function capOf(head: Buffer, name: string, declaredType: string | undefined) {
  const cap = uploadCap(head, name, declaredType);
  if ('limit' in cap) return cap;
  throw new BadRequestException({
    error:
      cap.reason === 'unknownKind'
        ? FILE_TEXTS.unknownKind
        : cap.kind === 'STL'
          ? FILE_TEXTS.notStl
          : cap.kind === 'Document'
            ? FILE_TEXTS.notPdf
            : FILE_TEXTS.notImage,
  });
}
