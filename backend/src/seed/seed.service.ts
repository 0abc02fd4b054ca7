import { Inject, Injectable, Logger } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { APP_CONFIG, ConfigError, type AppConfig } from '../config/config.js';
import type { Actor, CaseCommand } from '@alignerflow/domain';
import { CaseCommandService } from '../cases/case-command.service.js';
import { caseIdRows } from '../rebuild/read-model-rows.js';
import { hashPassword, verifyPassword } from '../users/passwords.js';
import { UserCommandService } from '../users/user-command.service.js';
import { UsersQueries } from '../users/users.queries.js';
import { DEMO_PASSWORD, DEMO_USERS, sampleStory, type SampleStep } from './sample-data.js';

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
    for (const step of sampleStory()) await this.run(step, correlationId);
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
