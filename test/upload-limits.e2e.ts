import { existsSync, readdirSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import { join } from 'node:path';
import { Client } from 'pg';
import { UnattachedUploadsSweeper } from '../backend/src/files/unattached-uploads.sweeper';
import { eventually, sql } from './support/helpers';
import { PNG } from './support/files';
import type { ApiClient } from './support/http';
import { startTestApp, type TestApp } from './support/test-app';

const MB = 1024 * 1024;
const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
const PHOTO_TOO_LARGE = { error: 'The file is too large: photos up to 25 MB.' };

/** Bytes the server judges an image by their signature, `size` long. */
function photoOf(size: number): Buffer {
  const bytes = Buffer.alloc(size);
  PNG_SIGNATURE.copy(bytes);
  return bytes;
}

/** A binary STL (80-byte header, facet count, 50 bytes per facet) of at least `size` bytes. */
function binaryStlOf(size: number): Buffer {
  const facets = Math.ceil((size - 84) / 50);
  const bytes = Buffer.alloc(84 + facets * 50);
  bytes.write('binary arch', 0, 'latin1');
  bytes.writeUInt32LE(facets, 80);
  return bytes;
}

async function upload(
  client: ApiClient,
  bytes: Buffer,
  name: string,
  fields: [string, string][],
  fieldsFirst = false,
) {
  const form = new FormData();
  if (fieldsFirst) for (const [key, value] of fields) form.append(key, value);
  form.append('file', new Blob([new Uint8Array(bytes)]), name);
  if (!fieldsFirst) for (const [key, value] of fields) form.append(key, value);
  const response = await fetch(`${client.apiUrl}/upload`, {
    method: 'POST',
    headers: { authorization: `Bearer ${client.token}` },
    body: form,
  });
  return {
    status: response.status,
    body: await response.json(),
    connection: response.headers.get('connection'),
  };
}

interface StreamedAnswer {
  status?: number;
  body?: unknown;
  headers?: IncomingHttpHeaders;
  /** Body bytes the client managed to hand to its socket before the exchange ended. */
  sent: number;
}

interface StreamedUpload {
  /** Body bytes of the file part in all. */
  total: number;
  /** The file's bytes, repeated: a photo's unless said otherwise. */
  chunk?: Buffer;
  /** The `type` field before the file part rather than after it. */
  typeFirst?: string;
  /** The client goes away once this holds. */
  abortWhen?: (sent: number) => Promise<boolean>;
}

/**
 * An upload sent as a stream, 1 MB at a time as the connection takes them, like a client with a
 * large file: it stops sending when the server answers or closes the connection.
 */
function streamUpload(client: ApiClient, options: StreamedUpload): Promise<StreamedAnswer> {
  const { total, chunk = photoOf(MB), typeFirst, abortWhen } = options;
  const boundary = 'limits-boundary';
  return new Promise((resolve) => {
    const url = new URL(`${client.apiUrl}/upload`);
    const req = httpRequest(url, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${client.token}`,
        'content-type': `multipart/form-data; boundary=${boundary}`,
      },
    });
    const answer: StreamedAnswer = { sent: 0 };
    let ended = false;
    const end = () => {
      if (ended) return;
      ended = true;
      resolve(answer);
    };
    req.on('response', (res) => {
      answer.status = res.statusCode;
      answer.headers = res.headers;
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => {
        answer.body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
        end();
      });
      res.on('error', end);
    });
    req.on('error', () => {
      if (answer.status === undefined) end();
    });
    req.on('close', () => {
      if (answer.status === undefined) end();
    });
    const writable = () =>
      new Promise<void>((next) => {
        const go = () => {
          for (const event of ['drain', 'close', 'response']) req.off(event, go);
          next();
        };
        for (const event of ['drain', 'close', 'response']) req.on(event, go);
      });
    void (async () => {
      if (typeFirst)
        req.write(`--${boundary}\r\nContent-Disposition: form-data; name="type"\r\n\r\n${typeFirst}\r\n`);
      req.write(
        `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="huge.png"\r\n` +
          'Content-Type: image/png\r\n\r\n',
      );
      while (answer.sent < total && !ended && answer.status === undefined && !req.destroyed) {
        if (abortWhen && (await abortWhen(answer.sent))) {
          req.destroy();
          return end();
        }
        answer.sent += chunk.length;
        if (!req.write(chunk)) await writable();
      }
      if (!ended && answer.status === undefined && !req.destroyed)
        req.end(
          typeFirst
            ? `\r\n--${boundary}--\r\n`
            : `\r\n--${boundary}\r\nContent-Disposition: form-data; name="type"\r\n\r\nPhoto\r\n--${boundary}--\r\n`,
        );
    })();
  });
}

describe('upload limits while streaming, and the sweep of unattached uploads', () => {
  let lab: TestApp;
  let rep: ApiClient;
  let uploadsDir: string;
  const storedFiles = () =>
    (readdirSync(uploadsDir, { recursive: true }) as string[]).filter((path) =>
      statSync(join(uploadsDir, path)).isFile(),
    );
  const incomingFiles = () => readdirSync(join(uploadsDir, '.incoming'));
  const uploadRows = async () =>
    Number((await sql(lab.databaseUrl, 'SELECT count(*) AS n FROM uploads'))[0].n);

  beforeAll(async () => {
    lab = await startTestApp();
    rep = await lab.login('rep');
    uploadsDir = join(lab.dataDir, 'uploads');
  });
  afterAll(() => lab.close());

  it('stops a 30 MB photo at 25 MB with 413, leaving no file and no row, whichever way round the form is', async () => {
    const rowsBefore = await uploadRows();
    const filesBefore = storedFiles();
    const huge = photoOf(30 * MB);
    const typeAfter = await upload(rep, huge, 'huge.png', [['type', 'Photo']]);
    expect(typeAfter).toMatchObject({ status: 413, body: PHOTO_TOO_LARGE, connection: 'close' });
    const typeFirst = await upload(rep, huge, 'huge.png', [['type', 'Photo']], true);
    expect(typeFirst).toMatchObject({ status: 413, body: PHOTO_TOO_LARGE });
    // Without any type the bytes alone make it a photo (an image never passes as an STL).
    const untyped = await upload(rep, huge, 'huge.stl', []);
    expect(untyped).toMatchObject({ status: 413, body: PHOTO_TOO_LARGE });
    expect(storedFiles()).toEqual(filesBefore);
    expect(await uploadRows()).toBe(rowsBefore);
  });

  it('stops reading an oversized photo instead of taking the rest of its body', async () => {
    const answer = await streamUpload(rep, { total: 150 * MB });
    expect(answer).toMatchObject({ status: 413, body: PHOTO_TOO_LARGE });
    // The 25 MB written plus what the connection's buffers held when reading stopped: far from the 150 MB.
    expect(answer.sent).toBeLessThan(60 * MB);
    expect(answer.headers?.connection).toBe('close');
    expect(incomingFiles()).toEqual([]);
  });

  it('refuses at once a file whose first bytes contradict the type sent before it', async () => {
    const text = Buffer.alloc(MB, 'x');
    const answer = await streamUpload(rep, { total: 150 * MB, chunk: text, typeFirst: 'Photo' });
    expect(answer).toMatchObject({ status: 400, body: { error: 'The photo slots accept only images.' } });
    expect(answer.sent).toBeLessThan(40 * MB);
    expect(incomingFiles()).toEqual([]);
    const small = await upload(rep, Buffer.alloc(3 * MB, 'x'), 'notes.txt', [['type', 'Photo']], true);
    expect(small).toMatchObject({ status: 400, body: { error: 'The photo slots accept only images.' } });
  });

  it('takes a 24 MB photo and a 26 MB STL', async () => {
    const rowsBefore = await uploadRows();
    const photo = await upload(rep, photoOf(24 * MB), 'close-up.png', [['type', 'Photo']]);
    expect(photo).toMatchObject({ status: 201, body: { type: 'Photo', name: 'close-up.png' } });
    const stlBytes = binaryStlOf(26 * MB);
    const stl = await upload(rep, stlBytes, 'upper.stl', [['type', 'STL']]);
    expect(stl).toMatchObject({ status: 201, body: { type: 'STL', name: 'upper.stl' } });
    expect(await uploadRows()).toBe(rowsBefore + 2);
    const sizes = await sql(lab.databaseUrl, 'SELECT size_bytes FROM uploads ORDER BY size_bytes');
    expect(sizes.slice(-2).map((row) => Number(row.size_bytes))).toEqual([24 * MB, stlBytes.length]);
  });

  it('leaves nothing of an upload whose client goes away midway', async () => {
    const rowsBefore = await uploadRows();
    const answer = await streamUpload(rep, {
      total: 20 * MB,
      abortWhen: async (sent) => sent >= 5 * MB && incomingFiles().length > 0,
    });
    expect(answer.status).toBeUndefined();
    await eventually(() => incomingFiles().length === 0, 15000, 'the partial upload to be removed');
    expect(await uploadRows()).toBe(rowsBefore);
    expect((await upload(rep, PNG, 'after.png', [['type', 'Photo']])).status).toBe(201);
  });

  it('sweeps uploads never attached to a case once old enough, and keeps attached and fresh ones', async () => {
    const [stale, attached, fresh] = await Promise.all(
      ['stale.png', 'attached.png', 'fresh.png'].map(
        async (name) => (await upload(rep, PNG, name, [['type', 'Photo']])).body,
      ),
    );
    const created = await rep.post('/cases', {
      patientName: 'Ada Lovelace',
      doctorName: 'Dr. Sarah Lee',
      clinicName: 'Bright Smiles',
      files: [attached],
    });
    expect(created.status).toBe(201);
    const idOf = (file: { url: string }) => /\/api\/files\/([0-9a-f-]{36})\//.exec(file.url)![1];
    await sql(
      lab.databaseUrl,
      `UPDATE uploads SET created_at = now() - interval '25 hours' WHERE id = ANY($1::uuid[])`,
      [[idOf(stale), idOf(attached)]],
    );
    const keyOf = async (file: { url: string }) =>
      (await sql(lab.databaseUrl, 'SELECT storage_key FROM uploads WHERE id = $1', [idOf(file)]))[0]
        .storage_key;
    const staleBytes = join(uploadsDir, await keyOf(stale));
    expect(existsSync(staleBytes)).toBe(true);
    // A temporary file a crash left behind a day ago goes too; one being written now stays.
    const leftOver = join(uploadsDir, '.incoming', 'left-over');
    const inFlight = join(uploadsDir, '.incoming', 'in-flight');
    writeFileSync(leftOver, 'x');
    writeFileSync(inFlight, 'x');
    const dayAgo = new Date(Date.now() - 25 * 60 * 60 * 1000);
    utimesSync(leftOver, dayAgo, dayAgo);

    expect(await lab.app.get(UnattachedUploadsSweeper).sweep()).toBe(1);

    expect(existsSync(staleBytes)).toBe(false);
    expect(await sql(lab.databaseUrl, 'SELECT id FROM uploads WHERE id = $1', [idOf(stale)])).toEqual([]);
    const statusOf = async (file: { url: string }) =>
      (await fetch(new URL(file.url, rep.apiUrl), { headers: { authorization: `Bearer ${rep.token}` } }))
        .status;
    expect([await statusOf(stale), await statusOf(attached), await statusOf(fresh)]).toEqual([404, 200, 200]);
    expect(incomingFiles()).toEqual(['in-flight']);
    expect(await lab.app.get(UnattachedUploadsSweeper).sweep()).toBe(0);
  });

  it('never takes an upload that a case is claiming while the sweep runs', async () => {
    const photo = (await upload(rep, PNG, 'claimed.png', [['type', 'Photo']])).body;
    const id = /\/api\/files\/([0-9a-f-]{36})\//.exec(photo.url)![1];
    await sql(lab.databaseUrl, `UPDATE uploads SET created_at = now() - interval '25 hours' WHERE id = $1`, [
      id,
    ]);
    // Another process attaching it to a case, its transaction not yet committed.
    const claimer = new Client({ connectionString: lab.databaseUrl });
    await claimer.connect();
    try {
      await claimer.query('BEGIN');
      await claimer.query(`UPDATE uploads SET case_id = 'CA-2024-001' WHERE id = $1 AND case_id IS NULL`, [
        id,
      ]);
      expect(await lab.app.get(UnattachedUploadsSweeper).sweep()).toBe(0);
      await claimer.query('COMMIT');
    } finally {
      await claimer.end();
    }
    expect(await lab.app.get(UnattachedUploadsSweeper).sweep()).toBe(0);
    expect(await sql(lab.databaseUrl, 'SELECT case_id FROM uploads WHERE id = $1', [id])).toEqual([
      { case_id: 'CA-2024-001' },
    ]);
  });
});
