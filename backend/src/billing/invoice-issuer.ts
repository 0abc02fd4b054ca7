import {
  Inject,
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
import { APP_CONFIG, type AppConfig } from '../config/config.js';
import { loadCheckpoint, saveCheckpoint, type Queryable } from '../event-store/checkpoints.js';
import {
  EventStore,
  WrongExpectedVersionError,
  type Checkpoint,
  type RecordedEvent,
} from '../event-store/event-store.js';
import { LeaderLoop, type LeaderLoopTimings, type TermCheckpoint } from '../event-store/leader-loop.js';
import { LogListener } from '../event-store/log-listener.js';
import { BillingStore } from './billing-store.js';
import { InvoiceCommandService } from './invoice-command.service.js';

export const BILLING_CHECKPOINT = 'billing';
/** Arbitrary but fixed: every process of one database contends for the same lock. */
const ISSUER_LOCK_ID = '7240913350164081030';
const BATCH = 500;
const CASE_STREAM = 'case-';
/** How long, or how many events, the checkpoint may move in memory before it is saved. */
const SAVE_EVERY_MS = 1000;
const SAVE_EVERY_EVENTS = 1000;

/**
 * Issues the invoice of each case that ships (libs/domain billing/issue.ts says when), following
 * the log from its checkpoint 'billing' like the notification dispatcher: one process at a time
 * (LeaderLoop), woken by every commit. Exactly once per case whatever happens twice (a batch
 * read again after a crash, two leaders for a moment, a replay or a restore): the invoice is the
 * first event of the stream invoice-{caseId}, appended with expected version 0, and its number is
 * drawn in that same transaction, so a lost race rolls the number back too.
 *
 * It runs in the worker processes (and `all`), never in `PROCESS_ROLE=api`: the API answers
 * requests and leaves the followers of the log to the workers. While it holds the lock it keeps
 * its checkpoint in memory and saves it once the log is read to its end, or after SAVE_EVERY_MS
 * / SAVE_EVERY_EVENTS; a leader that dies first leaves an older checkpoint behind, and its
 * successor reads those events again and issues nothing twice (the expected version above).
 */
@Injectable()
export class InvoiceIssuer implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger('InvoiceIssuer');
  private readonly loop: LeaderLoop;
  private readonly runs: boolean;
  /** The checkpoint as of the lock's term, and how many events it moved past the stored one. */
  private position: TermCheckpoint | undefined;

  constructor(
    dataSource: DataSource,
    private readonly store: EventStore,
    private readonly billing: BillingStore,
    private readonly commands: InvoiceCommandService,
    @Optional() listener?: LogListener,
    @Optional() @Inject(APP_CONFIG) config?: Pick<AppConfig, 'processRole'>,
  ) {
    this.runs = config?.processRole !== 'api';
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

  get isLeader(): boolean {
    return this.loop.isLeader;
  }

  /** The server process id of the lock's connection while this process leads (for fault tests). */
  get leaderPid(): number | undefined {
    return this.loop.pid;
  }

  onApplicationBootstrap(): void {
    if (this.runs) this.loop.start();
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
    const term = this.loop.term;
    if (this.position?.term !== term) {
      // Another leader may have moved it while this process did not hold the lock.
      const checkpoint = await loadCheckpoint(client, BILLING_CHECKPOINT);
      this.position = { term, checkpoint, unsaved: 0, since: Date.now() };
    }
    const position = this.position;
    const events = await this.store.readAll(position.checkpoint, BATCH);
    if (events.length === 0) {
      // Caught up: what the batches since the last save moved is saved now, in one commit.
      if (position.unsaved) await this.save(client, position, position.checkpoint!);
      return 0;
    }
    for (const event of events) {
      if (event.streamId.startsWith(CASE_STREAM) && mayTriggerInvoice(event.type, event.data))
        await this.consider(event);
    }
    const last = events[events.length - 1];
    const checkpoint = { transactionId: last.transactionId, position: last.position };
    const unsaved = position.unsaved + events.length;
    if (unsaved >= SAVE_EVERY_EVENTS || Date.now() - position.since >= SAVE_EVERY_MS)
      await this.save(client, position, checkpoint);
    else if (this.position === position) Object.assign(position, { checkpoint, unsaved });
    return events.length;
  }

  private async save(client: Queryable, position: TermCheckpoint, checkpoint: Checkpoint): Promise<void> {
    await saveCheckpoint(client, BILLING_CHECKPOINT, checkpoint, { onlyForward: true });
    // Moved only once stored: a failed save leaves the events to be read again.
    if (this.position === position) Object.assign(position, { checkpoint, unsaved: 0, since: Date.now() });
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
