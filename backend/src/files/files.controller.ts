import {
  Body,
  Controller,
  Get,
  HttpCode,
  Param,
  Post,
  Res,
  UploadedFile,
  UseInterceptors,
} from '@nestjs/common';
import { FileInterceptor } from '@nestjs/platform-express';
import type { Actor } from '@alignerflow/domain';
import { IsIn, IsOptional, IsString, MaxLength } from 'class-validator';
import type { Response } from 'express';
import { CurrentActor } from '../common/current-actor.js';
import { rejectWith } from '../common/domain-rejection.js';
import { FilesService } from './files.service.js';
import { FILE_TEXTS } from './upload-claims.js';
import { UPLOAD_LIMITS } from './file-types.js';

export class UploadDto {
  @IsOptional() @IsString() @MaxLength(40) caseId?: string;
  @IsOptional() @IsIn(['STL', 'Photo'], { message: FILE_TEXTS.unknownKind }) type?: 'STL' | 'Photo';
}

@Controller()
export class FilesController {
  constructor(private readonly files: FilesService) {}

  /** multipart: file, optional caseId, optional type (STL or Photo). */
  @Post('upload')
  @HttpCode(201)
  @UseInterceptors(FileInterceptor('file', { limits: { fileSize: UPLOAD_LIMITS.STL, files: 1, fields: 4 } }))
  async upload(
    @CurrentActor() actor: Actor,
    @UploadedFile() file: Express.Multer.File | undefined,
    @Body() body: UploadDto,
  ) {
    if (!file) return rejectWith('invalid', FILE_TEXTS.noFile);
    return this.files.store(actor, file, body.type, body.caseId);
  }

  @Get('files/:id/:name')
  async download(@CurrentActor() actor: Actor, @Param('id') id: string, @Res() response: Response) {
    const { row, stream } = await this.files.openFor(actor, id);
    response.setHeader('Content-Type', row.mime);
    response.setHeader('Content-Length', row.size_bytes);
    response.setHeader('X-Content-Type-Options', 'nosniff');
    response.setHeader('Cache-Control', 'private, max-age=3600');
    const disposition = row.mime.startsWith('image/') ? 'inline' : 'attachment';
    response.setHeader(
      'Content-Disposition',
      `${disposition}; filename*=UTF-8''${encodeURIComponent(row.name)}`,
    );
    stream.on('error', () => response.destroy()).pipe(response);
  }
}
