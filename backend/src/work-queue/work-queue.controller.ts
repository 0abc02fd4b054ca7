import { Controller, Get, Req, Res } from '@nestjs/common';
import { WORK_QUEUE_TEXTS, type Actor } from '@alignerflow/domain';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { CurrentActor } from '../common/current-actor.js';
import { sendWithEtag } from '../common/etag.js';
import { requireCapability } from '../common/require-capability.js';
import { WorkQueueQueries } from './work-queue.queries.js';

@Controller()
export class WorkQueueController {
  constructor(private readonly query: WorkQueueQueries) {}

  /** My Queue: the caller's case work, soonest due first (api.md, Case work); ETag as GET /cases. */
  @Get('work-queue')
  async list(@CurrentActor() actor: Actor, @Req() request: FastifyRequest, @Res() response: FastifyReply) {
    requireCapability(actor, 'viewWorkQueue', WORK_QUEUE_TEXTS.doctorsHaveNoQueue);
    const { tag, body } = await this.query.version(actor);
    await sendWithEtag(request, response, tag, body);
  }
}
