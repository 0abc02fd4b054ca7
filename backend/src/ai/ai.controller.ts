import {
  Body,
  Controller,
  HttpCode,
  HttpException,
  Post,
  Res,
  ServiceUnavailableException,
} from '@nestjs/common';
import {
  CASE_TEXTS,
  PHOTO_ANALYSIS_LIMIT,
  PHOTO_ANALYSIS_WINDOW_MS,
  tooManyPhotoAnalysesText,
  type Actor,
  type AnalyzePhotoBody,
  type PhotoAnalysisAnswer,
} from '@alignerflow/domain';
import { IsString, MaxLength } from 'class-validator';
import type { FastifyReply } from 'fastify';
import { CurrentActor } from '../common/current-actor.js';
import { rejectWith } from '../common/domain-rejection.js';
import { requireCapability } from '../common/require-capability.js';
import { CasesQueries } from '../cases/cases.queries.js';
import { FilesService } from '../files/files.service.js';
import { AttemptLimiter } from '../security/attempt-limiter.js';
import { AI_TEXTS, PhotoAnalysisModel } from './photo-analysis.model.js';

export class AnalyzePhotoDto implements AnalyzePhotoBody {
  @IsString() @MaxLength(40) caseId!: string;
  @IsString() @MaxLength(2048) fileUrl!: string;
}

@Controller('ai')
export class AiController {
  constructor(
    private readonly cases: CasesQueries,
    private readonly files: FilesService,
    private readonly model: PhotoAnalysisModel,
    private readonly limiter: AttemptLimiter,
  ) {}

  /** The browser never holds the model key: it names a stored photo of a case, the server does the rest. */
  @Post('analyze-photo')
  @HttpCode(200)
  async analyze(
    @CurrentActor() actor: Actor,
    @Body() body: AnalyzePhotoDto,
    @Res({ passthrough: true }) response: FastifyReply,
  ): Promise<PhotoAnalysisAnswer> {
    requireCapability(actor, 'analyzePhoto', 'AI photo analysis is for lab staff.');
    const theCase = await this.cases.findVisible(actor, body.caseId);
    if (!theCase) return rejectWith('not_found', CASE_TEXTS.notFound);
    const listed = theCase.files.some((file) => file.url === body.fileUrl && file.type === 'Photo');
    const stored = listed ? await this.files.findCaseFile(theCase.id, body.fileUrl) : undefined;
    if (!stored) return rejectWith('invalid', AI_TEXTS.notAPhotoOfTheCase);
    if (!this.model.configured) throw new ServiceUnavailableException({ error: AI_TEXTS.notConfigured });
    if (!stored.mime.startsWith('image/')) return rejectWith('invalid', AI_TEXTS.notAnImage(stored.mime));
    // Counted before the model is called: a call that fails has cost as much as one that works.
    const verdict = await this.limiter.consume(
      `photo-analysis:${actor.username.toLowerCase()}`,
      PHOTO_ANALYSIS_LIMIT,
      PHOTO_ANALYSIS_WINDOW_MS,
    );
    if (!verdict.allowed) {
      response.header('Retry-After', String(verdict.retryAfterSeconds));
      throw new HttpException({ error: tooManyPhotoAnalysesText(verdict.retryAfterSeconds) }, 429);
    }
    try {
      return { text: await this.model.analyze(await this.files.readBytes(stored), stored.mime) };
    } catch (error) {
      if (error instanceof HttpException) throw error;
      throw new HttpException({ error: AI_TEXTS.modelFailed }, 502);
    }
  }
}
