import { Controller, Get, Req, Res } from '@nestjs/common';
import type { Actor } from '@alignerflow/domain';
import type { FastifyReply } from 'fastify';
import { CurrentActor, type AuthenticatedRequest } from '../common/current-actor.js';
import { LiveStreamService } from './live-stream.service.js';

@Controller('events')
export class LiveController {
  constructor(private readonly live: LiveStreamService) {}

  /**
   * The live stream (text/event-stream). Resumes after `Last-Event-ID`, or after the
   * `lastEventId` query parameter for EventSource polyfills that cannot set the header.
   */
  @Get()
  async stream(
    @CurrentActor() actor: Actor,
    @Req() request: AuthenticatedRequest,
    @Res() response: FastifyReply,
  ): Promise<void> {
    await this.live.open(request, response, actor, request.sessionTokenHash);
  }
}
