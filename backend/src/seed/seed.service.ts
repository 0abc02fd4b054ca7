import { Inject, Injectable, Logger } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { APP_CONFIG, ConfigError, type AppConfig } from '../config/config.js';
import {
  CREDIT_NOTE_PREFIX,
  numberYear,
  type Actor,
  type CaseCommand,
  type InvoiceCommand,
} from '@alignerflow/domain';
import { randomUUID } from 'node:crypto';
import { BillingStore } from '../billing/billing-store.js';
import { InvoiceCommandService } from '../billing/invoice-command.service.js';
import { InvoiceIssuer } from '../billing/invoice-issuer.js';
import { CaseCommandService } from '../cases/case-command.service.js';
import { caseIdRows } from '../rebuild/read-model-rows.js';
import { hashPassword, verifyPassword } from '../users/passwords.js';
import { UserCommandService } from '../users/user-command.service.js';
import { UsersQueries } from '../users/users.queries.js';
import { MaterialsStore } from '../materials-store/materials.store.js';
import {
  DEMO_MATERIAL_SETTINGS,
  DEMO_PASSWORD,
  DEMO_USERS,
  demoLots,
  sampleStory,
  type SampleStep,
} from './sample-data.js';
import { BILLING_SAMPLES, billingStory, type BillingStep } from './billing-sample-data.js';

/** How long the seed waits for another process's issuer to invoice the sample cases. */
const ISSUER_WAIT_MS = 60_000;

/**
 * First start of an empty store: the admin Manager from ADMIN_PASSWORD and, in demo mode, the
 * sample users and cases. The cases are made by the demo users' commands on the one command path
 * the API uses (sampleStory), back-dated, so each History tab tells how its case got where it is. Outside
 * demo mode every start also refuses a store where any user can still sign in with the demo
 * password (or an empty one), as a store seeded in demo mode and then deployed would have.
 */
@Injectable()
export class SeedService {
  private readonly logger = new Logger('Seed');

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly dataSource: DataSource,
    private readonly users: UsersQueries,
    private readonly userCommands: UserCommandService,
    private readonly cases: CaseCommandService,
    private readonly materials: MaterialsStore,
    private readonly issuer: InvoiceIssuer,
    private readonly invoices: InvoiceCommandService,
    private readonly billing: BillingStore,
  ) {}

  async seedEmptyStore(): Promise<void> {
    await this.seedIfEmpty();
    if (!this.config.demoData) await this.refuseGuessableUsers();
  }

  private async seedIfEmpty(): Promise<void> {
    const [{ n: eventCount }] = await this.dataSource.query(
      'SELECT count(*)::int AS n FROM (SELECT 1 FROM events LIMIT 1) e',
    );
    if (eventCount > 0) return;
    const correlationId = 'seed';
    await this.createUser('admin', 'Manager', this.config.adminPassword, correlationId);
    this.logger.log('Created the admin user.');
    if (!this.config.demoData) return;
    for (const user of DEMO_USERS)
      await this.createUser(user.username, user.role, DEMO_PASSWORD, correlationId);
    await this.seedMaterials(correlationId);
    const now = new Date();
    for (const step of sampleStory(now, BILLING_SAMPLES)) await this.run(step, correlationId);
    await this.issueInvoices();
    for (const step of billingStory(now)) await this.settle(step, correlationId);
    this.logger.log('Seeded the demo users and sample cases.');
  }

  /** One step of the story, as its user's request would run it, at the step's time. */
  private async run({ caseId, username, at, command }: SampleStep, correlationId: string): Promise<void> {
    const user = await this.users.find(username);
    if (!user) throw new Error(`Seed: no user ${username}`);
    const actor: Actor = { username: user.username, role: user.role };
    let domainCommand: CaseCommand;
    if (command.type === 'ApproveCase') {
      const doctor = await this.users.find(command.doctorUsername);
      domainCommand = {
        ...command,
        doctor: doctor ? { username: doctor.username, role: doctor.role } : null,
      };
    } else if (command.type === 'AdvanceStage') {
      const { lotNumbers = [], ...advance } = command;
      domainCommand = { ...advance, lots: await this.materials.resolve(lotNumbers) };
    } else domainCommand = command;
    await this.cases.execute(caseId, domainCommand, actor, {
      correlationId,
      at,
      // The sample ids are fixed, not drawn: reserved as a creation reserves its drawn id.
      beforeAppend:
        command.type === 'CreateCase'
          ? async (runner) => {
              for (const row of caseIdRows(caseId))
                await runner.query('INSERT INTO case_ids (id, year, suffix) VALUES ($1, $2, $3)', row);
            }
          : undefined,
    });
  }

  /** The shipped sample cases' invoices, by the issuer that invoices every shipped case. */
  private async issueInvoices(): Promise<void> {
    const deadline = Date.now() + ISSUER_WAIT_MS;
    for (;;) {
      const moved = await this.issuer.issueOnce();
      if (moved === 0) return;
      if (moved !== null) continue;
      // Another process leads: its issuer follows the same log.
      if (Date.now() > deadline) throw new Error('Seed: the sample cases were not invoiced in time');
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }

  /** One billing step, as its user's request would run it. */
  private async settle({ caseId, username, at, command }: BillingStep, correlationId: string): Promise<void> {
    const user = await this.users.find(username);
    if (!user) throw new Error(`Seed: no user ${username}`);
    const actor: Actor = { username: user.username, role: user.role };
    let [invoice] = await this.billing.list({ caseId });
    for (const deadline = Date.now() + ISSUER_WAIT_MS; !invoice && Date.now() < deadline;) {
      // The issuer reads only events below every open transaction of the cluster (another
      // database's included), so its pass above may have stopped short of this case: drive it
      // again. The app does not listen yet, so its own loop is not running to do so.
      const moved = await this.issuer.issueOnce();
      if (!moved) await new Promise((resolve) => setTimeout(resolve, moved === 0 ? 50 : 200));
      [invoice] = await this.billing.list({ caseId });
    }
    if (!invoice) throw new Error(`Seed: ${caseId} has no invoice`);
    await this.invoices.execute(invoice.number, actor, { actor, correlationId }, async (runner) => {
      if (command.type === 'RecordPayment') {
        const { share, ...payment } = command;
        const amount = share === 'all' ? invoice.balance : Math.round(invoice.balance / 2);
        return { ...payment, id: randomUUID(), amount, receivedAt: at } satisfies InvoiceCommand;
      }
      if (command.type === 'IssueCreditNote') {
        const number = await this.billing.nextNumber(runner, CREDIT_NOTE_PREFIX, numberYear(at));
        return { ...command, number, issuedAt: at } satisfies InvoiceCommand;
      }
      return { ...command, at } satisfies InvoiceCommand;
    });
  }

  /** The lab's settings by the admin, its lots by the technician, through the materials' own commands. */
  private async seedMaterials(correlationId: string): Promise<void> {
    await this.materials.changeSettings(
      DEMO_MATERIAL_SETTINGS,
      { username: 'admin', role: 'Manager' },
      correlationId,
    );
    for (const lot of demoLots(new Date()))
      await this.materials.registerLot(lot, { username: 'tech', role: 'Technician' }, correlationId);
  }

  private async refuseGuessableUsers(): Promise<void> {
    const users: { username: string; password_hash: string }[] = await this.dataSource.query(
      'SELECT username, password_hash FROM user_view WHERE NOT deleted ORDER BY username_key',
    );
    const guessable: string[] = [];
    for (const user of users)
      for (const password of [DEMO_PASSWORD, ''])
        if (await verifyPassword(user.password_hash, password)) {
          guessable.push(user.username);
          break;
        }
    if (!guessable.length) return;
    const names = guessable.map((name) => `"${name}"`).join(', ');
    const who = guessable.length === 1 ? `the user ${names}` : `the users ${names}`;
    throw new ConfigError(
      `Invalid configuration: DEMO_DATA is off but ${who} can still sign in with the demo (or an empty) password. ` +
        'Start once with DEMO_DATA=1 (not in production), change or delete those accounts, then start again without demo mode.',
    );
  }

  private async createUser(
    username: string,
    role: 'Manager' | (typeof DEMO_USERS)[number]['role'],
    password: string,
    correlationId: string,
  ) {
    if (await this.users.find(username)) return;
    const user = { username, role, email: null, passwordHash: await hashPassword(password) };
    await this.userCommands.execute(username, { type: 'CreateUser', user }, null, correlationId);
  }
}
