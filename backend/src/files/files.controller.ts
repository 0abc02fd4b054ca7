import { Controller, Get, HttpCode, Param, Post, Req, Res } from '@nestjs/common';
import { FILE_TEXTS, type Actor, type CaseFile } from '@alignerflow/domain';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { AccessLogService } from '../access-log/access-log.service.js';
import { CurrentActor } from '../common/current-actor.js';
import { rejectWith } from '../common/domain-rejection.js';
import { MultipartBody } from '../common/request-body.js';
import { rm } from 'node:fs/promises';
import { FilesService } from './files.service.js';
import { UploadQuota } from './upload-quota.js';

@Controller()
export class FilesController {
  constructor(
    private readonly files: FilesService,
    private readonly accessLog: AccessLogService,
    private readonly quota: UploadQuota,
  ) {}

  /** multipart: file, optional caseId, optional type (STL, Photo or Document); read here, as it streams in. */
  @Post('upload')
  @HttpCode(201)
  @MultipartBody('One file, with the case it is for and its kind.', {
    type: 'object',
    required: ['file'],
    properties: {
      file: { type: 'string', format: 'binary' },
      caseId: { type: 'string', format: 'uuid' },
      type: { type: 'string', enum: ['STL', 'Photo', 'Document'] },
    },
  })
  async upload(
    @CurrentActor() actor: Actor,
    @Req() request: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<CaseFile> {
    await this.quota.check(actor.username);
    const { file, fields } = await this.files.receive(request, reply);
    if (!file) return rejectWith('invalid', FILE_TEXTS.noFile);
    try {
      await this.quota.take(actor.username, file.size);
    } catch (error) {
      await rm(file.path, { force: true });
      throw error;
    }
    try {
      return await this.files.store(actor, file, fields.type, fields.caseId);
    } catch (error) {
      // A refused file (wrong kind, unknown case) costs nothing of the day's volume.
      await this.quota.giveBack(actor.username, file.size);
      throw error;
    }
  }

  @Get('files/:id/:name')
  async download(
    @CurrentActor() actor: Actor,
    @Param('id') id: string,
    @Req() request: FastifyRequest,
    @Res() response: FastifyReply,
  ) {
    const { row, stream } = await this.files.openFor(actor, id);
    // A file not yet attached to a case is only its uploader's: no patient's record was read.
    if (row.case_id) this.accessLog.record(request, actor, 'download', row.name, row.case_id);
    response.header('Content-Type', row.mime);
    response.header('Content-Length', row.size_bytes);
    response.header('X-Content-Type-Options', 'nosniff');
    response.header('Cache-Control', 'no-store');
    const disposition = row.mime.startsWith('image/') ? 'inline' : 'attachment';
    response.header(
      'Content-Disposition',
      `${disposition}; filename*=UTF-8''${encodeURIComponent(row.name)}`,
    );
    await response.send(stream);
  }
}
