import { Controller, Get, Param } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { ACCESS_LOG_TEXTS, CASE_TEXTS, type Actor, type CaseAccessEntry } from '@alignerflow/domain';
import { AccessLogService } from '../access-log/access-log.service.js';
import { CurrentActor } from '../common/current-actor.js';
import { rejectWith } from '../common/domain-rejection.js';
import { requireCapability } from '../common/require-capability.js';
import { CasesQueries } from './cases.queries.js';

/**
 * api.md, "Patient data": one case's access log, for Managers. It lives with the cases, which
 * know who may see a case; the access log below knows nothing of cases. Its OpenAPI tag and
 * operationId stay those it had under the access log's controller, so the document is unchanged.
 */
@ApiTags('AccessLog')
@Controller()
export class CaseAccessLogController {
  constructor(
    private readonly log: AccessLogService,
    private readonly cases: CasesQueries,
  ) {}

  @Get('cases/:id/access-log')
  // No summary, as before (ApiOperation would add an empty one).
  @ApiOperation({ operationId: 'AccessLogController_ofCase', summary: undefined })
  async ofCase(@CurrentActor() actor: Actor, @Param('id') id: string): Promise<CaseAccessEntry[]> {
    requireCapability(actor, 'viewAccessLog', ACCESS_LOG_TEXTS.managersOnly);
    if (!(await this.cases.isVisible(actor, id))) rejectWith('not_found', CASE_TEXTS.notFound);
    // This process's own recent reads first, so the answer is never behind its own writes.
    await this.log.flush();
    return this.log.forCase(id);
  }
}
