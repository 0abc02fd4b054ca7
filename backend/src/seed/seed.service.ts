import { Inject, Injectable, Logger } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { APP_CONFIG, type AppConfig } from '../config/config.js';
import { CaseImportService } from '../cases/case-import.service.js';
import { withTransaction } from '../event-store/event-store.js';
import { hashPassword } from '../users/passwords.js';
import { UserCommandService } from '../users/user-command.service.js';
import { UsersQueries } from '../users/users.queries.js';
import { DEMO_PASSWORD, DEMO_USERS, sampleCases } from './sample-data.js';

/**
 * First start of an empty store: the admin Manager from ADMIN_PASSWORD and, in demo mode, the
 * sample users and cases — all as events, so they have a history like everything else.
 */
@Injectable()
export class SeedService {
  private readonly logger = new Logger('Seed');

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly dataSource: DataSource,
    private readonly users: UsersQueries,
    private readonly userCommands: UserCommandService,
    private readonly caseImport: CaseImportService,
  ) {}

  async seedEmptyStore(): Promise<void> {
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
    await withTransaction(this.dataSource, (runner) =>
      this.caseImport.importCases(sampleCases(), null, correlationId, runner),
    );
    this.logger.log('Seeded the demo users and sample cases.');
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
