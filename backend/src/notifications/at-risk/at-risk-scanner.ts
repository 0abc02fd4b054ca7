import { Inject, Injectable, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import { casesAtRisk, isOverdue, localDay, SYSTEM_ACTOR, type Case } from '@alignerflow/domain';
import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { BillingReminders } from '../../billing/billing-reminders.js';
import { CaseCommandService } from '../../cases/case-command.service.js';
import { DomainRejection } from '../../common/domain-rejection.js';
import { MaterialsStore } from '../../materials-store/materials.store.js';
import { ScheduledJob } from '../../scheduling/scheduled-job.js';
import { NOTIFICATIONS_CONFIG, type NotificationsConfig } from '../../config/notifications.config.js';

/** Arbitrary but fixed: the processes of one database take turns scanning. */
const SCAN_LOCK_ID = '7240913350164081005';

/**
 * Every RISK_SCAN_INTERVAL_MS, the cases at risk (the one rule of libs/domain, at-risk.ts) get a
 * CaseAtRisk event through the case's own command path, which the notification policy turns into
 * a manager_alert, push and email to the Managers. The domain refuses a second alert of one kind
 * on one day for a case, so a restart, an overlapping scan or a second process never repeats one;
 * the advisory lock only spares the other processes the same work. Runs in `worker` and `all`.
 */
@Injectable()
export class AtRiskScanner implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly job: ScheduledJob<string[]>;

  constructor(
    private readonly dataSource: DataSource,
    private readonly commands: CaseCommandService,
    private readonly materials: MaterialsStore,
    @Inject(NOTIFICATIONS_CONFIG) private readonly config: NotificationsConfig,
    private readonly reminders: BillingReminders,
  ) {
    this.job = new ScheduledJob(
      {
        name: 'AtRiskScan',
        what: 'at-risk scan',
        intervalMs: config.riskScanIntervalMs,
        lock: { dataSource, key: SCAN_LOCK_ID },
        report: (alerted) =>
          alerted.length ? `alerted the managers of ${alerted.length} case(s) at risk` : undefined,
      },
      (now) => this.scanOnce(now),
    );
  }

  onApplicationBootstrap(): Promise<void> {
    // The API process answers requests and nothing else: the workers scan (PROCESS_ROLE).
    return this.config.processRole === 'api' ? Promise.resolve() : this.job.start();
  }

  onModuleDestroy(): Promise<void> {
    return this.job.stop();
  }

  /**
   * One scan as of `now`: the ids of the cases alerted, or null when another process is scanning.
   * Public for tests, which move the clock.
   */
  scan(now?: Date): Promise<string[] | null> {
    return this.job.run(now);
  }

  private async scanOnce(now?: Date): Promise<string[]> {
    const alerted = await this.alertAll(now ?? new Date());
    // Overdue invoices' reminders go out with the scan, under its lock (billing/billing-reminders.ts).
    await this.reminders.scan(now);
    return alerted;
  }

  private async alertAll(now: Date): Promise<string[]> {
    const days = this.config.atRiskDays;
    // A case not yet shipped is due by its ship-by date: the due date minus the transit days.
    const { transitDays } = await this.materials.settings();
    const today = localDay(now);
    // A coarse cut in SQL (due by the end of the window), then the one rule on each case.
    const cutoff = localDay(
      new Date(now.getFullYear(), now.getMonth(), now.getDate() + days + transitDays + 1),
    );
    const rows: { data: Omit<Case, 'version' | 'notes'> }[] = await this.dataSource.query(
      `SELECT data FROM case_view
        WHERE NOT deleted AND NOT on_hold AND delivery_date IS NOT NULL AND delivery_date < $1::date`,
      [cutoff],
    );
    const atRisk = casesAtRisk(
      rows.map((row) => row.data),
      now,
      days,
      transitDays,
    ).filter(
      (item) => item.riskAlerts?.[isOverdue(item, now, transitDays) ? 'overdue' : 'at_risk'] !== today,
    );
    const alerted: string[] = [];
    for (const item of atRisk) {
      try {
        await this.commands.execute(
          item.id,
          { type: 'FlagAtRisk', atRiskDays: days, transitDays },
          SYSTEM_ACTOR,
          {
            correlationId: `risk-scan-${randomUUID()}`,
            at: now.toISOString(),
          },
        );
        alerted.push(item.id);
      } catch (error) {
        // Changed meanwhile (resumed, advanced, alerted by another process): the domain said no.
        if (!(error instanceof DomainRejection)) throw error;
      }
    }
    return alerted;
  }
}
