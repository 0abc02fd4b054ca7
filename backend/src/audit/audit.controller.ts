import { Controller, Get, Header, Inject, Query } from '@nestjs/common';
import {
  CASE_TEXTS,
  type AccessLogVerification,
  type Actor,
  type CaseVerification,
} from '@alignerflow/domain';
import { DataSource } from 'typeorm';
import { CurrentActor, Public } from '../common/current-actor.js';
import { rejectWith } from '../common/domain-rejection.js';
import { requireCapability } from '../common/require-capability.js';
import type { Checkpoint, VerifyResult } from './audit-chain.js';
import { readCheckpoints } from './audit-checkpoints.js';
import { AUDIT_KEY, type SigningKey } from './signing-key.js';
import { verifyCase, verifyLog } from './audit-verifier.js';
import { verifyAccessLog } from '../access-log/access-log.chain.js';

const MANAGER_ONLY = 'Only a manager can verify the event log.';

/** Tamper evidence (api.md, Security): Manager only, like the log's export. */
@Controller('audit')
export class AuditController {
  constructor(
    private readonly dataSource: DataSource,
    @Inject(AUDIT_KEY) private readonly key: SigningKey,
  ) {}

  /** The key that checks the seals' and checkpoints' signatures: public, like any public key. */
  @Public()
  @Get('public-key')
  @Header('Content-Type', 'application/x-pem-file; charset=utf-8')
  publicKey(): string {
    return this.key.publicPem;
  }

  /** Signed heads of the chain after a global position, oldest first (README.md). */
  @Get('checkpoints')
  @Header('Cache-Control', 'no-store')
  checkpoints(@CurrentActor() actor: Actor, @Query('after') after?: unknown): Promise<Checkpoint[]> {
    requireCapability(actor, 'backup', MANAGER_ONLY);
    const from = after === undefined || after === '' ? '0' : after;
    if (typeof from !== 'string' || !/^\d{1,18}$/.test(from))
      rejectWith('invalid', 'after must be a global position (a whole number).');
    return readCheckpoints(this.dataSource, from);
  }

  /** The whole chain; with `caseId`, only that case's events and their seals (README.md). */
  @Get('verify')
  @Header('Cache-Control', 'no-store')
  async verify(
    @CurrentActor() actor: Actor,
    @Query('caseId') caseId?: unknown,
  ): Promise<(VerifyResult & { accessLog: AccessLogVerification }) | CaseVerification> {
    requireCapability(actor, 'backup', MANAGER_ONLY);
    if (caseId === undefined) {
      const [events, accessLog] = await Promise.all([
        verifyLog(this.dataSource),
        verifyAccessLog(this.dataSource),
      ]);
      return { ...events, accessLog };
    }
    if (typeof caseId !== 'string' || caseId === '') rejectWith('not_found', CASE_TEXTS.notFound);
    const result = await verifyCase(this.dataSource, caseId);
    if (result.events + result.unsealed === 0 && result.firstBroken === null)
      rejectWith('not_found', CASE_TEXTS.notFound);
    return result;
  }
}
