import {
  Injectable,
  Logger,
  Optional,
  type OnApplicationBootstrap,
  type OnModuleDestroy,
} from '@nestjs/common';
import {
  draftInvoice,
  evolve,
  INVOICE_PREFIX,
  mayTriggerInvoice,
  numberYear,
  SYSTEM_ACTOR,
  triggersInvoice,
  type Case,
} from '@alignerflow/domain';
import { DataSource } from 'typeorm';
import { toCaseEvent } from '../cases/case-events.js';
import { DomainRejection } from '../common/domain-rejection.js';
import { loadCheckpoint, saveCheckpoint } from '../event-store/checkpoints.js';
import { EventStore, WrongExpectedVersionError, type RecordedEvent } from '../event-store/event-store.js';
import { LeaderLoop, type LeaderLoopTimings } from '../event-store/leader-loop.js';
import { LogListener } from '../event-store/log-listener.js';
import { BillingStore } from './billing-store.js';
import { InvoiceCommandService } from './invoice-command.service.js';

export const BILLING_CHECKPOINT = 'billing';
/** Arbitrary but fixed: every process of one database contends for the same lock. */
const ISSUER_LOCK_ID = '7240913350164081030';
const BATCH = 500;
const CASE_STREAM = 'case-';

/**
 * Issues the invoice of each case that ships (libs/domain billing/issue.ts says when), following
 * the log from its checkpoint 'billing' like the notification dispatcher: one process at a time
 * (LeaderLoop), woken by every commit. Exactly once per case whatever happens twice (a batch
 * read again after a crash, two leaders for a moment, a replay or a restore): the invoice is the
 * first event of the stream invoice-{caseId}, appended with expected version 0, and its number is
 * drawn in that same transaction, so a lost race rolls the number back too.
 */
@Injectable()
export class InvoiceIssuer implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger('InvoiceIssuer');
  private readonly loop: LeaderLoop;

  constructor(
    dataSource: DataSource,
    private readonly store: EventStore,
    private readonly billing: BillingStore,
    private readonly commands: InvoiceCommandService,
    @Optional() listener?: LogListener,
  ) {
    this.loop = new LeaderLoop(
      dataSource,
      listener,
      {
        lockId: ISSUER_LOCK_ID,
        idlePollMs: 500,
        followerPollMs: 2000,
        logger: this.logger,
        texts: {
          leading: 'This process now issues invoices.',
          failed: (failures, message) => `Invoice issuing failed (${failures}x), will retry: ${message}`,
          recovered: (failures) => `Invoice issuing works again after ${failures} failure(s).`,
        },
      },
      async () => {
        const moved = await this.issueOnce();
        return moved === null ? 'follower' : moved === 0 ? 'caught-up' : 'more';
      },
    );
  }

  onApplicationBootstrap(): void {
    this.loop.start();
  }

  onModuleDestroy(): Promise<void> {
    return this.loop.stop();
  }

  start(timings: Partial<LeaderLoopTimings> = {}): void {
    this.loop.start(timings);
  }

  stop(): Promise<void> {
    return this.loop.stop();
  }

  /**
   * One step as leader: the next batch of the log. Answers how many events it covered, or null
   * when another process leads. Public for tests; the loop calls it.
   */
  async issueOnce(): Promise<number | null> {
    const client = await this.loop.lead();
    if (!client) return null;
    const checkpoint = await loadCheckpoint(client, BILLING_CHECKPOINT);
    const events = await this.store.readAll(checkpoint, BATCH);
    if (events.length === 0) return 0;
    for (const event of events) {
      if (event.streamId.startsWith(CASE_STREAM) && mayTriggerInvoice(event.type, event.data))
        await this.consider(event);
    }
    const last = events[events.length - 1];
    await saveCheckpoint(
      client,
      BILLING_CHECKPOINT,
      { transactionId: last.transactionId, position: last.position },
      { onlyForward: true },
    );
    return events.length;
  }

  /** The case right before and after the event, folded from its stream; an invoice if it is due. */
  private async consider(event: RecordedEvent): Promise<void> {
    let before: Case | null = null;
    let after: Case | null = null;
    for (const recorded of await this.store.readStream(event.streamId)) {
      if (recorded.version > event.version) break;
      before = after;
      after = evolve(after, toCaseEvent(recorded));
    }
    if (!after || !triggersInvoice(toCaseEvent(event), after, before?.assignedDoctorUsername ?? null)) return;
    const shipped = after;
    const issuedAt = event.recordedAt;
    try {
      await this.commands.onStream(
        shipped.id,
        SYSTEM_ACTOR,
        { actor: SYSTEM_ACTOR, correlationId: `invoice-${shipped.id}`, causationId: event.position },
        async (runner) => {
          const settings = await this.billing.settings(runner);
          const { details } = await this.billing.doctorDetails(shipped.assignedDoctorUsername ?? '', runner);
          const number = await this.billing.nextNumber(runner, INVOICE_PREFIX, numberYear(issuedAt));
          return {
            type: 'IssueInvoice',
            invoice: draftInvoice(shipped, number, issuedAt, settings, details),
          };
        },
      );
    } catch (error) {
      // Already invoiced (this event seen before, or another leader got there): nothing to do.
      if (error instanceof DomainRejection || error instanceof WrongExpectedVersionError) return;
      throw error;
    }
  }
}
