import { Inject, Injectable, PayloadTooLargeException } from '@nestjs/common';
import { FILE_TEXTS, formatFileSize, type Actor, type CaseFile } from '@alignerflow/domain';
import { randomUUID } from 'node:crypto';
import { rm } from 'node:fs/promises';
import type { ReadStream } from 'node:fs';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { DataSource } from 'typeorm';
import { APP_CONFIG, type AppConfig } from '../config/config.js';
import { rejectWith } from '../common/domain-rejection.js';
import { FILE_URL } from '../common/file-url.js';
import { CasesQueries } from '../cases/cases.queries.js';
import { FILE_STORAGE, type FileStorage } from './file-storage.js';
import {
  isPdfName,
  isStlName,
  isUploadKind,
  sniffFile,
  UPLOAD_LIMITS,
  type UploadKind,
} from './file-types.js';
import { receiveUpload, type ReceivedForm } from './upload-receiver.js';

export interface UploadRow {
  id: string;
  uploader: string;
  case_id: string | null;
  kind: UploadKind;
  name: string;
  size_bytes: string;
  mime: string;
  storage_key: string;
}

/** Uploads: checked by content, stored as is, readable only by whoever may see their case. */
@Injectable()
export class FilesService {
  constructor(
    private readonly dataSource: DataSource,
    @Inject(FILE_STORAGE) private readonly storage: FileStorage,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly cases: CasesQueries,
  ) {}

  /** An upload's form, its file in a temporary file of the store (see receiveUpload). */
  receive(request: FastifyRequest, reply: FastifyReply): Promise<ReceivedForm> {
    return receiveUpload(request, reply, this.storage.tempDir);
  }

  async store(
    actor: Actor,
    upload: { path: string; originalname: string; size: number },
    requestedKind: string | undefined,
    caseId: string | undefined,
  ): Promise<CaseFile> {
    try {
      const name = safeName(upload.originalname);
      const kind: unknown =
        requestedKind ?? (isStlName(name) ? 'STL' : isPdfName(name) ? 'Document' : 'Photo');
      if (!isUploadKind(kind)) return rejectWith('invalid', FILE_TEXTS.unknownKind);
      if (caseId && (caseId.length > 40 || !(await this.cases.findVisible(actor, caseId))))
        rejectWith('not_found', 'Case not found.');
      if (upload.size > UPLOAD_LIMITS[kind])
        throw new PayloadTooLargeException({ error: FILE_TEXTS.tooLarge(kind) });
      const { mime, isStl } = await sniffFile(upload.path, upload.size);
      if (kind === 'STL' && (!isStl || !isStlName(name))) rejectWith('invalid', FILE_TEXTS.notStl);
      if (kind === 'Photo' && !mime.startsWith('image/')) rejectWith('invalid', FILE_TEXTS.notImage);
      if (kind === 'Document' && mime !== 'application/pdf') rejectWith('invalid', FILE_TEXTS.notPdf);
      const id = randomUUID();
      const key = `${id.slice(0, 2)}/${id}`;
      await this.storage.adopt(upload.path, key);
      try {
        await this.dataSource.query(
          `INSERT INTO uploads (id, uploader, case_id, kind, name, size_bytes, mime, storage_key)
           VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
          [id, actor.username.toLowerCase(), caseId ?? null, kind, name, upload.size, mime, key],
        );
      } catch (error) {
        // Bytes without their row would be nobody's, and no sweep would ever find them.
        await this.storage.remove(key);
        throw error;
      }
      return { url: this.urlOf(id, name), name, size: formatFileSize(upload.size), type: kind };
    } finally {
      await rm(upload.path, { force: true });
    }
  }

  urlOf(id: string, name: string): string {
    return `${this.config.basePath}api/files/${id}/${encodeURIComponent(name)}`;
  }

  /** The file, to its uploader before it belongs to a case, then to whoever may see that case. */
  async openFor(actor: Actor, id: string): Promise<{ row: UploadRow; stream: ReadStream }> {
    const row = await this.find(id);
    const allowed = row?.case_id
      ? !!(await this.cases.findVisible(actor, row.case_id))
      : row?.uploader === actor.username.toLowerCase();
    if (!row || !allowed) return rejectWith('not_found', FILE_TEXTS.notFound);
    return { row, stream: this.storage.open(row.storage_key) };
  }

  async find(id: string): Promise<UploadRow | undefined> {
    if (!/^[0-9a-f-]{36}$/.test(id)) return undefined;
    const rows: UploadRow[] = await this.dataSource.query('SELECT * FROM uploads WHERE id = $1', [id]);
    return rows[0];
  }

  /** The upload behind a url of a case's file list, when it really is that case's stored file. */
  async findCaseFile(caseId: string, url: string): Promise<UploadRow | undefined> {
    const id = FILE_URL.exec(url)?.[1];
    const row = id ? await this.find(id) : undefined;
    return row?.case_id === caseId ? row : undefined;
  }

  readBytes(row: UploadRow): Promise<Buffer> {
    return new Promise((resolve, reject) => {
      const chunks: Buffer[] = [];
      this.storage
        .open(row.storage_key)
        .on('data', (chunk) => chunks.push(chunk as Buffer))
        .on('end', () => resolve(Buffer.concat(chunks)))
        .on('error', reject);
    });
  }
}

function safeName(name: string): string {
  // Browsers send latin1-decoded UTF-8 names through multer; keep the real characters.
  const decoded = Buffer.from(name, 'latin1').toString('utf8');
  const cleaned = decoded
    // eslint-disable-next-line no-control-regex -- control characters are exactly what must go
    .replace(/[/\\\u0000-\u001f\u007f]/g, '_')
    .trim()
    .slice(0, 200);
  return cleaned || 'file';
}
